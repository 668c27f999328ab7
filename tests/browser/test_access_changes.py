"""The board follows its player's access as it changes (issue 21; docs/protocol.md,
"Rights on an open socket"): demoted by the GM, the board reconnects at once and shows
the spectator's table; logged out in another tab, it says so and stops trying.
"""

import pytest

from tests.browser.conftest import TIMEOUT_MS, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_demoted_board_turns_spectator_and_a_logged_out_one_says_it_has_no_access(
    table, open_board, browser
):
    board = open_board("p1")
    gm = signed_in_page(browser, table, "gm")
    gm.goto(f"{table.base_url}/campaigns/{table.battle.campaign_id}/")
    member = gm.locator("li[data-member='bp1']")
    member.locator("select").select_option("spectator")
    member.get_by_role("button", name="Change").click()
    board.wait_for_selector("#board-page[data-role='spectator']", timeout=TIMEOUT_MS)
    board.wait_for_selector("#conn[data-state='live']", timeout=TIMEOUT_MS)

    other_tab = board.context.new_page()
    other_tab.goto(f"{table.base_url}/")
    other_tab.get_by_role("button", name="Log out").click()
    board.wait_for_selector("#conn[data-state='closed']", timeout=TIMEOUT_MS)
    assert "You no longer have access to this table." in board.locator(".toast").inner_text()
    gm.context.close()
