"""An action that waits for a point, played from the keyboard (issue 23): the action
skirmish's Traverse, its point typed ("T"), the GM's roll given from the keyboard too; the
log's lines are read out. No mouse call in this file."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TableByNames
from tests.browser.keyboard import go_to_piece, heard, piece_line, retype, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(apskirmish_table: TableByNames) -> TableByNames:
    """`open_board` opens this module's pages on the action-point skirmish table."""
    return apskirmish_table


def test_a_point_typed_for_a_traverse_and_the_gms_roll_given_from_the_keyboard(table, open_board):
    gm, p1 = open_board("gm"), open_board("p1")
    brannock = table.units["Brannock"]
    go_to_piece(p1, brannock)
    expect(piece_line(p1, brannock)).to_contain_text("Brannock, side P1")
    expect(piece_line(p1, brannock)).to_contain_text("at 15.0, 12.5")

    # Traverse, from the action bar; the typed point's fields now ask for its point.
    p1.keyboard.press("a")
    tab_to(p1, lambda f: f["action"] == "traverse")
    p1.keyboard.press("Enter")
    expect(p1.locator("#goto-label")).to_have_text("Point for traverse (1 ap)")
    expect(p1.locator("#tool-hint")).to_contain_text("or type the point")
    p1.keyboard.press("t")
    retype(p1, "15")
    p1.keyboard.press("Tab")
    retype(p1, "16")
    p1.keyboard.press("Enter")
    waits = "ap1: Brannock traverse (1 ap): waits for the GM: Brannock's Traverse roll (INS 6)"
    heard(p1, waits)
    heard(gm, waits)

    # The GM's result: Tab to it (the box is near the top of the page), Enter.
    tab_to(gm, lambda f: "pending-success" in f["cls"])
    gm.keyboard.press("Enter")
    expect(piece_line(p1, brannock)).to_contain_text("at 15.0, 15.0")
    heard(p1, "Brannock")
