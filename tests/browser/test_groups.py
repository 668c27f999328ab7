"""Groups on the board (issue 23; ui.md, "Groups"): a Shift-drag box on the empty table
picks the pieces of yours inside it, the card panel shows their cards side by side, and
a drag of one moves them: one order where the system has a group action (aod's
formation move, 000 [29]), else one order a piece, each proposed in turn and judged by
the server on its own (M.S. Wars has none)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    FOOT,
    TableByNames,
    drag_piece,
    formation_table,
    go_to_board,
    log_lines,
    position_of,
    settle,
    signed_in_page,
    table_by_names,
)
from tests.browser.test_touch import HOLD_MS, TABLET, Fingers
from tests.web.factories import make_mswars_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

SHOT = ARTIFACTS / "group.png"


@pytest.fixture
def table(request, asgi_server: str) -> TableByNames:
    if request.param == "mswars":
        battle, users = make_mswars_battle_sync("g")
        return table_by_names(asgi_server, battle, users, "P1 Warden", "P2 Talon")
    # aod: a formation of three P1 infantry, and P2's Raiders north of them, which no
    # box of P1's picks.
    raiders = {
        **FOOT,
        "id": "E0",
        "name": "Raiders",
        "side": "P2",
        "facing": 270,
        "position": [10.5, 16.0],
    }
    return formation_table(asgi_server, "g", (raiders,))


def screen_point(page, x_in: float, y_in: float) -> tuple[float, float]:
    """Where a table point (inches, y north) is on the screen."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
          const svg = document.getElementById('board-svg'), pt = svg.createSVGPoint();
          pt.x = x; pt.y = window.tabletop.height() - y;
          const p = pt.matrixTransform(svg.getScreenCTM());
          return [p.x, p.y];
        }""",
            [x_in, y_in],
        )
    )


def shift_box(page, corner: tuple[float, float], other: tuple[float, float]) -> None:
    """A Shift-drag on the empty table from one corner to the other (inches, y north)."""
    (x0, y0), (x1, y1) = screen_point(page, *corner), screen_point(page, *other)
    page.keyboard.down("Shift")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=5)
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    page.keyboard.up("Shift")


def grouped(page) -> set[str]:
    return set(page.locator(".piece.grouped").evaluate_all("ns => ns.map((n) => n.dataset.unit)"))


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_a_shift_drag_box_picks_exactly_the_pieces_of_yours_inside(table, open_board):
    p1 = open_board("p1")
    view = p1.locator("#board-svg").get_attribute("viewBox")
    # Rifles 1 and 2 inside; Rifles 3 outside (x 12); Raiders (P2's) inside, not P1's.
    shift_box(p1, (9.2, 9.2), (11.6, 17.0))
    assert grouped(p1) == {"I0", "I1"}
    expect(p1.locator("#tool-hint")).to_contain_text("Group: Rifles 1, Rifles 2")
    assert p1.locator("#board-svg").get_attribute("viewBox") == view  # the box did not pan
    expect(p1.locator(".group-box")).to_have_count(0)  # the box goes with the release
    # A second box picks its own pieces, not the first's with them.
    shift_box(p1, (11.5, 9.0), (12.6, 11.0))
    assert grouped(p1) == {"I2"}
    # A box with no piece of yours: no group, and the hint says why.
    shift_box(p1, (20.0, 20.0), (24.0, 24.0))
    assert grouped(p1) == set()
    expect(p1.locator("#tool-hint")).to_have_text("Group: no piece of yours in the box.")


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_a_finger_held_on_the_empty_table_draws_the_box(table, browser):
    """A hand has no Shift (ui.md, "Groups"): a finger held still on the empty table
    starts the box, sliding draws it, lifting picks the pieces of yours inside; a finger
    that moves at once still pans, and picks nothing."""
    tablet = go_to_board(signed_in_page(browser, table, "p1", TABLET, has_touch=True), table)
    try:
        fingers = Fingers(tablet)
        view = tablet.locator("#board-svg").get_attribute("viewBox")
        corner, other = screen_point(tablet, 9.2, 9.2), screen_point(tablet, 11.6, 17.0)
        fingers.put(corner)
        tablet.wait_for_timeout(HOLD_MS)
        expect(tablet.locator("#tool-hint")).to_contain_text("slide the finger")
        fingers.slide(other)
        expect(tablet.locator(".group-box")).to_have_count(1)
        fingers.lift()
        assert grouped(tablet) == {"I0", "I1"}
        expect(tablet.locator("#tool-hint")).to_contain_text("Group: Rifles 1, Rifles 2")
        assert tablet.locator("#board-svg").get_attribute("viewBox") == view  # no pan
        expect(tablet.locator(".group-box")).to_have_count(0)

        fingers.put(screen_point(tablet, 20.0, 20.0))
        fingers.slide(screen_point(tablet, 24.0, 14.0))
        fingers.lift()
        assert tablet.locator("#board-svg").get_attribute("viewBox") != view  # it panned
        assert grouped(tablet) == {"I0", "I1"}  # the group stands
    finally:
        tablet.context.close()


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_the_group_s_cards_show_side_by_side_in_the_card_panel(table, open_board):
    p1 = open_board("p1")
    # Tab to a piece and Shift+Enter adds it; so for the next (the keyboard's way).
    p1.locator(".piece[data-unit='I0']").focus()
    p1.keyboard.press("Shift+Enter")
    p1.locator(".piece[data-unit='I1']").focus()
    p1.keyboard.press("Shift+Enter")
    assert grouped(p1) == {"I0", "I1"}
    p1.locator(".piece[data-unit='I2']").click(modifiers=["Shift"])
    cards = p1.locator("#group-cards .group-card")
    expect(cards).to_have_count(3)
    expect(p1.locator("#unit-card-body")).to_be_hidden()
    expect(p1.locator("#group-cards .group-summary")).to_have_text(
        "Group of 3: a drag moves them as one order (formation move)."
    )
    for i in range(3):
        expect(cards.nth(i).locator(".unit-name")).to_have_text(f"Rifles {i + 1}")
        expect(cards.nth(i)).to_contain_text("infantry")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first["y"] == pytest.approx(second["y"], abs=1)  # side by side, not stacked
    assert second["x"] >= first["x"] + first["width"] - 1
    panel = p1.locator("#panel-left").bounding_box()
    row = p1.locator("#group-cards .group-card-row")
    # The row fits the panel; the cards past its width are scrolled to.
    assert row.bounding_box()["x"] + row.bounding_box()["width"] <= panel["x"] + panel["width"] + 1
    assert row.evaluate("r => r.scrollWidth > r.clientWidth")
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    p1.screenshot(path=str(SHOT))
    # Esc ends the group: the single card is back.
    p1.keyboard.press("Escape")
    expect(cards).to_have_count(0)
    assert grouped(p1) == set()


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_a_boxed_formation_moves_as_one_order(table, open_board):
    p1 = open_board("p1")
    shift_box(p1, (9.2, 9.2), (12.8, 10.8))
    assert grouped(p1) == {"I0", "I1", "I2"}
    drag_piece(p1, "I0", 0, 3, release=False)
    expect(p1.locator(".plan .ghost")).to_have_count(3)
    settle(p1)
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1)
    expect(log_lines(p1).last).to_contain_text("Rifles 1 formation move")
    events = p1.evaluate("window.tabletop.store.seq")
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(1)  # one order, one event: nothing proposed after it
    assert p1.evaluate("window.tabletop.store.seq") == events
    expect(p1.locator("#toasts .in-turn")).to_have_count(0)
    for i in range(3):
        assert position_of(p1, f"I{i}") == pytest.approx([10.0 + i, 13.0], abs=0.3)


@pytest.mark.parametrize("table", ["mswars"], indirect=True)
def test_without_a_group_action_each_piece_s_order_is_proposed_in_turn(table, open_board):
    p1 = open_board("p1")
    warden, rampart = table.units["P1 Warden"], table.units["P1 Rampart"]
    shift_box(p1, (3.0, 0.5), (21.0, 6.0))
    assert grouped(p1) == {warden, rampart}
    summary = p1.locator("#group-cards .group-summary")
    expect(summary).to_contain_text("one order a piece, each proposed in turn")
    drag_piece(p1, warden, 0, 3, release=False)
    expect(p1.locator(".plan .ghost.queued")).to_have_count(1)  # where Rampart's will be
    settle(p1)
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1)
    expect(log_lines(p1).first).to_contain_text("P1 Warden")
    # Then the Rampart's order, proposed where the same move takes it, judged on its own.
    ask = p1.locator("#toasts .in-turn")
    expect(ask).to_contain_text("P1 Rampart (2 of 2)")
    expect(p1.locator(".cost-text")).to_have_class(re.compile(r"\bok\b"))
    expect(log_lines(p1)).to_have_count(1)  # proposed, not sent
    p1.keyboard.press("Enter")
    expect(log_lines(p1)).to_have_count(2)
    texts = log_lines(p1).all_inner_texts()
    assert "P1 Warden" in texts[0] and "P1 Rampart" in texts[1]  # one event a piece, in order
    assert position_of(p1, warden)[1] == pytest.approx(6.0, abs=0.3)
    assert position_of(p1, rampart)[1] == pytest.approx(6.0, abs=0.3)
    expect(ask).to_have_count(0)
    expect(p1.locator("#tool-hint")).to_have_text("The group's orders have all been proposed.")


def warden_moved_then_rampart_asked(page, table, north: float):
    """P1's two pieces boxed, the Warden dragged `north` inches and sent: the Rampart's
    order is the one asked next. Returns the question."""
    shift_box(page, (3.0, 0.5), (21.0, 6.0))
    drag_piece(page, table.units["P1 Warden"], 0, north, release=False)
    settle(page)
    page.mouse.up()
    expect(log_lines(page)).to_have_count(1)
    ask = page.locator("#toasts .in-turn")
    expect(ask).to_contain_text("P1 Rampart (2 of 2)")
    return ask


@pytest.mark.parametrize("table", ["mswars"], indirect=True)
def test_a_refused_order_in_turn_is_explained_by_the_referee(table, open_board):
    p1 = open_board("p1")
    # 5.5" north: within the Warden's move of 6, past the Rampart's 5 (mswars.md 3).
    ask = warden_moved_then_rampart_asked(p1, table, 5.5)
    expect(p1.locator(".cost-text")).to_have_class(re.compile(r"\bbad\b"))
    ask.get_by_role("button", name="Send").click()
    refusal = p1.locator("#toasts .toast-error")
    expect(refusal).to_contain_text("P1 Rampart: move refused")
    expect(refusal.locator("li").first).to_contain_text("MP")  # the referee's reason, in MP
    expect(log_lines(p1)).to_have_count(1)  # the referee refused it; nothing else went
    rampart = table.units["P1 Rampart"]
    assert position_of(p1, rampart)[1] == pytest.approx(3.0, abs=0.01)
    expect(ask).to_have_count(0)


@pytest.mark.parametrize("table", ["mswars"], indirect=True)
def test_esc_on_a_proposed_order_cancels_the_rest(table, open_board):
    p1 = open_board("p1")
    ask = warden_moved_then_rampart_asked(p1, table, 2)
    rampart = table.units["P1 Rampart"]
    p1.keyboard.press("Escape")
    expect(ask).to_have_count(0)
    expect(p1.locator(".plan .ghost")).to_have_count(0)
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(1)
    assert position_of(p1, rampart)[1] == pytest.approx(3.0, abs=0.01)


@pytest.mark.parametrize("table", ["mswars"], indirect=True)
def test_skip_passes_a_proposed_order_by(table, open_board):
    p1 = open_board("p1")
    ask = warden_moved_then_rampart_asked(p1, table, 2)
    ask.get_by_role("button", name="Skip").click()
    expect(ask).to_have_count(0)
    expect(p1.locator("#tool-hint")).to_have_text("The group's orders have all been proposed.")
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(1)
    assert position_of(p1, table.units["P1 Rampart"])[1] == pytest.approx(3.0, abs=0.01)


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_a_plain_move_chosen_for_a_formation_is_one_order_a_piece_in_turn(table, open_board):
    # The player pressed Move, not Formation move: each stand's own order (001 [16]).
    p1 = open_board("p1")
    shift_box(p1, (9.2, 9.2), (12.8, 10.8))
    p1.locator("#actions button[data-action='move']").click()
    summary = p1.locator("#group-cards .group-summary")
    expect(summary).to_contain_text("one order a piece, each proposed in turn")
    drag_piece(p1, "I0", 0, 2, release=False)
    settle(p1)
    p1.mouse.up()
    ask = p1.locator("#toasts .in-turn")
    for n in (2, 3):
        expect(ask).to_contain_text(f"Rifles {n} ({n} of 3)")
        expect(log_lines(p1)).to_have_count(n - 1)
        p1.keyboard.press("Enter")
        expect(log_lines(p1)).to_have_count(n)
    texts = log_lines(p1).all_inner_texts()
    for n, text in zip((1, 2, 3), texts, strict=True):
        assert f"Rifles {n} move" in text  # one event a stand, in the group's order
    for i in range(3):
        assert position_of(p1, f"I{i}") == pytest.approx([10.0 + i, 12.0], abs=0.3)
