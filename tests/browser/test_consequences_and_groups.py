"""Issue 20 on the board: what a move does besides moving is said before the drop, a loss
of one's own piece is asked once, several pieces move as one order, and the unit card
offers what the action bar does (ui.md "One truth", "Groups"; docs/rules-engine.md)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TableByNames,
    drag_piece,
    formation_table,
    header,
    log_lines,
    position_of,
    table_by_names,
)
from tests.web.factories import make_lasergrenadiers_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(request, asgi_server: str) -> TableByNames:
    if request.param == "lg":
        battle, users = make_lasergrenadiers_battle_sync("c")
        return table_by_names(asgi_server, battle, users, "Grav tank", "Armoured car")
    return formation_table(asgi_server, "f")  # aod: a formation of three infantry


def bar_offers(page) -> list[str]:
    """The action bar's buttons shown for the selected piece, by label (any case: the
    bar's style capitalises them)."""
    shown = page.locator("#actions button:visible, #point-actions button:visible")
    return [text.lower() for text in shown.all_inner_texts()]


def card_offers(page) -> list[str]:
    """The labels the unit card's "May now: a, b." lists."""
    found = re.search(r"May now: ([^.]*)\.", page.locator("#unit-may").inner_text())
    return found.group(1).lower().split(", ") if found else []


@pytest.mark.parametrize("table", ["lg"], indirect=True)
def test_an_off_table_drag_warns_asks_once_and_the_log_says_it_left_the_board(table, open_board):
    # 003 Leaving the board 1: legal, removed, a loss for its owner.
    p1 = open_board("p1")
    tank = table.units["Grav tank"]
    p1.locator(f".piece[data-unit='{tank}']").click()
    drag_piece(p1, tank, -6, 0, release=False)  # 2" from the west edge: wholly off
    label = p1.locator(".cost-text")
    expect(label).to_contain_text("Grav tank leaves the board: it counts as a loss")
    expect(label).to_have_class(re.compile(r"\bwarn\b"))
    p1.screenshot(path=f"{ARTIFACTS}/lg-off-table-warning.png")
    p1.mouse.up()
    question = p1.locator("#toasts .confirm-loss")
    expect(question).to_contain_text("Grav tank leaves the board")
    expect(log_lines(p1)).to_have_count(0)  # nothing sent before the answer
    expect(p1.locator(f".piece[data-unit='{tank}']")).to_have_count(1)
    p1.screenshot(path=f"{ARTIFACTS}/lg-off-table-confirm.png")
    question.get_by_role("button", name="Confirm move").click()
    expect(log_lines(p1)).to_have_count(1)
    expect(log_lines(p1).last).to_contain_text("Grav tank left the board (a loss)")
    expect(p1.locator("#toasts .confirm-loss")).to_have_count(0)  # asked once
    expect(p1.locator(f".piece[data-unit='{tank}']")).to_have_count(0)
    expect(header(p1)).not_to_contain_text("Grav tank")
    p1.screenshot(path=f"{ARTIFACTS}/lg-off-table-after.png")


@pytest.mark.parametrize("table", ["lg"], indirect=True)
def test_keeping_the_piece_sends_nothing(table, open_board):
    p1 = open_board("p1")
    tank = table.units["Grav tank"]
    before = position_of(p1, tank)
    p1.locator(f".piece[data-unit='{tank}']").click()
    drag_piece(p1, tank, -6, 0)
    question = p1.locator("#toasts .confirm-loss")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Keep it").click()
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(0)
    assert position_of(p1, tank) == before


@pytest.mark.parametrize("table", ["aod"], indirect=True)
def test_three_infantry_picked_with_shift_move_as_one_formation_order(table, open_board):
    # 000 [29]: 3 to 5 touching units move as one order at the slowest member's move.
    p1 = open_board("p1")
    first = p1.locator(".piece[data-unit='I0']")
    first.click()
    assert "formation move" in card_offers(p1) and "formation move" in bar_offers(p1)
    p1.locator(".piece[data-unit='I1']").click(modifiers=["Shift"])
    p1.locator(".piece[data-unit='I2']").click(modifiers=["Shift"])
    expect(p1.locator(".piece.grouped")).to_have_count(3)
    drag_piece(p1, "I0", 0, 4, release=False)
    expect(p1.locator(".plan .ghost")).to_have_count(3)  # each piece where it will end
    expect(p1.locator(".cost-text")).to_have_class(re.compile(r"\bok\b"))
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1)
    expect(log_lines(p1).last).to_contain_text("Rifles 1 formation move")
    for i in range(3):
        assert position_of(p1, f"I{i}")[1] == pytest.approx(14.0, abs=0.3)
        assert position_of(p1, f"I{i}")[0] == pytest.approx(10.0 + i, abs=0.3)


@pytest.mark.parametrize("table", ["aod", "lg"], indirect=True)
def test_the_unit_card_offers_what_the_action_bar_offers(table, open_board):
    p1 = open_board("p1")
    for unit in [table.u1, *(u for u in table.units.values() if u != table.u1)][:4]:
        piece = p1.locator(f".piece[data-unit='{unit}']")
        if not piece.count() or p1.evaluate(f"window.tabletop.store.unit('{unit}').side") != "P1":
            continue
        piece.click()
        assert sorted(card_offers(p1)) == sorted(bar_offers(p1)), unit
