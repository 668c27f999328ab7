"""Input that never loses a move, and a delayed spectator's board (issue 20).

An aod table: P1's mech (move 10") at (10, 6) facing north, P1's infantry at (20, 3),
P2's mech at (10, 30), 3 orders a turn. Each test does what a player does and asserts
what the player sees: where the piece ends, what the hint bar and the toasts say.
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TIMEOUT_MS,
    Table,
    drag_piece,
    go_to_board,
    header,
    log_lines,
    position_of,
    session_cookie,
    signed_in_page,
)
from tests.browser.test_board_referee import INFANTRY
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS
DELAY_S = 3600


@pytest.fixture
def table(asgi_server: str, request) -> Table:
    """The table above; with the parameter "delayed", P1's mech has moved 3" north and
    P1 chatted two hours ago, and the GM has just set a spectator delay of an hour."""
    battle, users = make_battle_sync("i")
    units = []
    for unit in battle.state["units"]:
        at, facing = ([10, 6], 90) if unit["side"] == "P1" else ([10, 30], 270)
        units.append({**unit, "position": at, "facing": facing})
    battle.state = {**battle.state, "units": [*units, INFANTRY], "state": {"orders_available": 3}}
    battle.unit_labels["I1"] = {"name": "P1 rifles"}
    battle.save(update_fields=["state", "unit_labels"])
    u1, u2 = (next(u["id"] for u in units if u["side"] == side) for side in ("P1", "P2"))
    if getattr(request, "param", "") == "delayed":
        play_an_hour_ago_then_delay(battle, users, u1)
    cookies = {role: session_cookie(user) for role, user in users.items()}
    return Table(asgi_server, battle, cookies, u1, u2)


def play_an_hour_ago_then_delay(battle, users: dict, mech: str) -> None:
    from tabletop.models import Event, Membership
    from tabletop.services.table.act import battle_act
    from tabletop.services.table.actor import actor_for
    from tabletop.services.table.chat import battle_chat
    from tabletop.services.table.gm import battle_set_delay

    def actor(role: str):
        membership = Membership.objects.get(campaign=battle.campaign, user=users[role])
        return actor_for(battle, users[role], membership)

    move = {"unit": mech, "type": "move", "path": [[10, 9]]}
    battle_act(battle_id=battle.id, actor=actor("p1"), client_msg_id="m-1", seen=0, action=move)
    battle_chat(battle_id=battle.id, actor=actor("p1"), client_msg_id="c-1", text="old news")
    Event.objects.filter(battle=battle).update(created_at=timezone.now() - timedelta(hours=2))
    battle_set_delay(battle_id=battle.id, actor=actor("gm"), client_msg_id="g-1", seconds=DELAY_S)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def piece(page, unit: str):
    return page.locator(f".piece[data-unit='{unit}'] .base")


def refuse_a_move_too_far(page, unit: str) -> list[float]:
    """Drags the mech 20" east, twice its move (001 [16]); returns the offered end."""
    drag_piece(page, unit, 20, 0)
    toast = page.locator(".toast-error", has_text="move refused")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    expect(page.locator("#tool-hint")).to_contain_text("Nearest legal end")
    return page.evaluate("window.tabletop.mover.offer.end")


# -- no hidden carry mode ------------------------------------------------------------


def test_a_second_click_on_the_selected_piece_then_a_drag_moves_it(table, open_board):
    p1 = open_board("p1")
    piece(p1, table.u1).click()
    piece(p1, table.u1).click()  # once picked it up: the drag below added a waypoint
    drag_piece(p1, table.u1, 0, 4)
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(p1).first).to_contain_text("move")
    assert position_of(p1, table.u1)[:2] == pytest.approx([10, 10], abs=0.3)


def test_carrying_by_enter_says_so_and_a_double_click_drops_it(table, open_board):
    p1 = open_board("p1")
    piece(p1, table.u1).click()
    p1.keyboard.press("Enter")
    expect(p1.locator("#tool-hint")).to_have_text(
        "Carrying P1 mech: click to add a waypoint, Enter or double-click to drop, Esc cancels."
    )
    box = piece(p1, table.u1).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    p1.mouse.move(x, y - 40, steps=4)
    shoot(p1, "carry-indicator")
    p1.mouse.dblclick(x, y - 40)
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator("#tool-hint")).not_to_contain_text("Carrying")


# -- the offered alternative: Enter, the hint ------------------------------------------


def test_enter_with_the_end_turn_button_focused_takes_the_offer_not_the_turn(table, open_board):
    p1 = open_board("p1")
    offered = refuse_a_move_too_far(p1, table.u1)
    shoot(p1, "refusal-with-offer")
    p1.locator("#end-turn").focus()
    p1.keyboard.press("Enter")
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(p1).first).to_contain_text("P1 mech move")
    assert position_of(p1, table.u1)[:2] == pytest.approx(offered[:2], abs=0.01)
    expect(header(p1)).to_contain_text("P1 to act")
    expect(p1.locator("#tool-hint")).not_to_contain_text("Nearest legal end")
    expect(p1.locator(".toast-error", has_text="move refused")).to_have_count(0)
    shoot(p1, "offer-taken-hint-cleared")


def test_selecting_another_piece_clears_the_offer_and_its_hint(table, open_board):
    p1 = open_board("p1")
    refuse_a_move_too_far(p1, table.u1)
    p1.wait_for_timeout(1600)  # the refused ghost has snapped back
    piece(p1, "I1").click()
    expect(p1.locator("#tool-hint")).not_to_contain_text("Nearest legal end")
    expect(p1.locator(".alternative")).to_have_count(0)
    p1.keyboard.press("Enter")  # picks up the rifles (carry), not the mech's old offer
    p1.keyboard.press("Escape")
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(0)
    assert position_of(p1, table.u1)[:2] == pytest.approx([10, 6], abs=0.01)


# -- a refusal stays until the player acts ---------------------------------------------


def open_with_clock(browser, table: Table, role: str):
    """The board as `role`, its timers on Playwright's clock (installed before load)."""
    page = signed_in_page(browser, table, role)
    page.clock.install()
    go_to_board(page, table)
    return page.context, page


def test_a_refusal_and_its_button_are_still_there_after_13_s(table, browser):
    context, p1 = open_with_clock(browser, table, "p1")
    try:
        offered = refuse_a_move_too_far(p1, table.u1)
        p1.evaluate("window.tabletop.toasts.show('Routine news')")  # fades after 6 s
        p1.clock.fast_forward("00:13")
        expect(p1.locator(".toast", has_text="Routine news")).to_have_count(0)
        toast = p1.locator(".toast-error", has_text="move refused")
        expect(toast).to_be_visible()
        shoot(p1, "refusal-after-13s")
        toast.get_by_role("button", name="Move there").click()
        expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
        assert position_of(p1, table.u1)[:2] == pytest.approx(offered[:2], abs=0.01)
    finally:
        context.close()


# -- End turn, pressed twice -----------------------------------------------------------


def test_a_double_clicked_end_turn_ends_one_turn_and_a_repeat_reads_as_one(table, open_board):
    p1 = open_board("p1")
    p1.locator("#end-turn").dblclick()
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(header(p1)).to_contain_text("P2 to act")
    p1.wait_for_timeout(500)
    expect(log_lines(p1)).to_have_count(1)
    expect(p1.locator("#toasts")).not_to_contain_text("moved first")
    # A second press that left before the first one's event came (another tab, a slow
    # line) is answered as a repeat: the board says so, and nothing else happens.
    p1.evaluate("window.tabletop.command({type: 'end_turn', seen: 0}, 'End turn')")
    toast = p1.locator(".toast", has_text="End turn: done already")
    expect(toast).to_contain_text("Your turn has already ended.")
    expect(p1.locator("#toasts")).not_to_contain_text("moved first")
    shoot(p1, "end-turn-repeat")
    expect(log_lines(p1)).to_have_count(1)


# -- a delayed spectator ---------------------------------------------------------------


@pytest.mark.parametrize("table", ["delayed"], indirect=True)
def test_a_late_spectators_log_shows_the_delayed_history_at_once(table, open_board):
    watcher = open_board("spectator")
    expect(watcher.locator("#conn .conn-text")).to_have_text(f"delayed {DELAY_S} s")
    # Within a few seconds of loading, not an hour (the delay event is still held back).
    expect(log_lines(watcher)).to_have_count(1, timeout=3000)
    expect(log_lines(watcher).first).to_contain_text("P1 mech move")
    expect(watcher.locator("#chat-log")).to_contain_text("old news")
    shoot(watcher, "delayed-spectator-history")


def test_a_spectators_header_says_delayed_as_soon_as_the_gm_sets_it(table, open_board):
    gm, watcher = open_board("gm"), open_board("spectator")
    expect(watcher.locator("#conn .conn-text")).to_have_text("live")
    gm.locator("#delay-seconds").fill("30")
    gm.locator("#delay-form").get_by_role("button", name="Set").click()
    expect(watcher.locator("#conn .conn-text")).to_have_text("delayed 30 s", timeout=3000)
    shoot(watcher, "spectator-delayed-header")
    expect(log_lines(watcher)).to_have_count(0)  # the delay event itself comes 30 s late
