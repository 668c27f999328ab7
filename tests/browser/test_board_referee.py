"""The board's referee interactions, as a wargamer expects them (issue 13, first half).

An aod table laid for it: P1's mech (move 10") and a squad of P1 infantry in the south,
P2's mech in the north; a wood (hindering terrain), a rock wall (blocking terrain) across
the middle, and deep water in the south-west. Every test does what a player does and
asserts what the player sees, or what the page sent (the frames it gives its socket).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    TIMEOUT_MS,
    Table,
    drag_piece,
    expected_transform,
    inches_per_px,
    log_lines,
    piece_centre,
    position_of,
    session_cookie,
    shoot,
    transform,
)
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

WOOD = {"id": "W1", "type": "hindering", "polygon": [[8, 10], [12, 10], [12, 12], [8, 12]]}
ROCK = {"id": "R1", "type": "blocking", "polygon": [[4, 18], [16, 18], [16, 20], [4, 20]]}
WATER = {"id": "D1", "type": "deep_water", "polygon": [[0, 2], [4, 2], [4, 10], [0, 10]]}
INFANTRY = {
    "id": "I1",
    "side": "P1",
    "type": "infantry",
    "move": 4,
    "base": {"shape": "circle", "diameter": 1.0},
    "position": [20, 3],
    "facing": 90,
}


@pytest.fixture
def table(asgi_server: str) -> Table:
    """The factory's aod battle with 3 orders a turn, its mechs at (10, 6) and (10, 30)
    facing each other, P1's infantry "P1 rifles", and the wood, rock and water above."""
    battle, users = make_battle_sync("r")
    units = []
    for unit in battle.state["units"]:
        at, facing = ([10, 6], 90) if unit["side"] == "P1" else ([10, 30], 270)
        units.append({**unit, "position": at, "facing": facing})
    battle.state = {
        **battle.state,
        "units": [*units, INFANTRY],
        "terrain": [WOOD, ROCK, WATER],
        "state": {"orders_available": 3},
    }
    battle.unit_labels["I1"] = {"name": "P1 rifles"}
    battle.save(update_fields=["state", "unit_labels"])
    ids = {u["side"]: u["id"] for u in units}
    cookies = {role: session_cookie(user) for role, user in users.items()}
    return Table(asgi_server, battle, cookies, ids["P1"], ids["P2"])


def record_frames(page) -> None:
    """From now on the page keeps every frame it sends in `window.sent`."""
    page.evaluate(
        """() => { const conn = window.tabletop.conn, send = conn.send.bind(conn);
                   window.sent = [];
                   conn.send = (frame) => { window.sent.push(frame); return send(frame); }; }"""
    )


def sent(page, kind: str) -> list[dict]:
    return page.evaluate("(kind) => window.sent.filter((f) => f.type === kind)", kind)


# -- 1. line of sight: the referee's ruling, drawn whatever tool came before -------------


def test_line_of_sight_is_ruled_by_the_server_and_drawn_after_the_measure_tool(table, open_board):
    p1 = open_board("p1")
    record_frames(p1)
    # Measuring first used to wipe the tools layer the sight line is drawn in.
    p1.keyboard.press("m")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.locator(f".piece[data-unit='{table.u2}']").click()
    expect(p1.locator(".measure-text")).to_contain_text("centre 24.0″")
    p1.keyboard.press("l")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.locator(f".piece[data-unit='{table.u2}']").click()

    # The wood hinders the line, the rock wall (blocking terrain) blocks it: outlined.
    expect(p1.locator(".los-text")).to_have_text("Blocked by R1 (blocking terrain)")
    expect(p1.locator(".los-blocks[data-feature='R1']")).to_have_count(1)
    expect(p1.locator(".los-hinders[data-feature='W1']")).to_have_count(1)
    expect(p1.locator(".los-line.blocked")).to_have_count(1)
    expect(p1.locator("#tool-hint")).to_contain_text("the referee's ruling")
    asked = sent(p1, "sight")
    assert [(f["from"], f["to"]) for f in asked] == [(table.u1, table.u2)]
    shoot(p1, "los-ruling")


# -- 2. Esc cancels a drag while the button is still held ----------------------------------


def test_escape_cancels_a_drag_while_the_button_is_held_and_the_release_sends_nothing(
    table, open_board
):
    p1 = open_board("p1")
    before = transform(p1, table.u1)
    record_frames(p1)
    drag_piece(p1, table.u1, 0, 4, release=False)
    expect(p1.locator(".ghost")).to_have_count(1)

    p1.keyboard.press("Escape")
    p1.mouse.move(*piece_centre(p1, table.u1))
    p1.mouse.up()
    p1.wait_for_timeout(600)

    expect(p1.locator(".ghost")).to_have_count(0)
    assert sent(p1, "act") == []
    expect(log_lines(p1)).to_have_count(0)
    assert transform(p1, table.u1) == before


# -- 3. only what the unit may take; the centre of a piece moves it -------------------------


def test_the_action_bar_and_reach_offer_only_what_the_unit_may_take_now(table, open_board):
    p1 = open_board("p1")
    record_frames(p1)
    p1.locator(".piece[data-unit='I1']").click()
    expect(p1.locator("#unit-name")).to_have_text("P1 rifles")
    # Infantry may not run (001 [17]: run is for 'Mechs): it is never offered.
    expect(p1.locator("#actions button:visible")).to_have_text(["Move"])
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    expect(p1.locator("#actions button[data-action='run']")).to_be_visible()

    # Once ordered, the mech may do nothing more this turn: no button, no reach asked.
    drag_piece(p1, table.u1, 0, 3)
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator("#actions button:visible")).to_have_count(0)
    p1.keyboard.press("r")
    expect(p1.locator("#tool-hint")).to_contain_text("P1 mech may not move now")
    p1.wait_for_timeout(500)
    expect(p1.locator(".reach-area")).to_have_count(0)
    assert [f for f in sent(p1, "preview") if f.get("reach")] == []


def test_pressing_the_exact_centre_of_a_selected_piece_moves_it_rather_than_turning_it(
    table, open_board
):
    p1 = open_board("p1")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    expect(p1.locator(".rotate-handle")).to_have_attribute("visibility", "visible")
    record_frames(p1)
    # The point the piece stands on, as the page maps it to the screen, to the pixel
    # (a mouse presses whole pixels): where the handle's stem used to start.
    x, y = p1.evaluate(
        """(id) => { const g = document.querySelector(`.piece[data-unit='${id}']`);
                     const m = g.getScreenCTM();
                     return [Math.round(m.e), Math.round(m.f) - 1]; }""",
        table.u1,
    )
    p1.mouse.move(x, y)
    p1.mouse.down()
    p1.mouse.move(x + 2, y - 3, steps=3)
    p1.mouse.move(x, y - 2.5 / inches_per_px(p1), steps=10)
    p1.wait_for_timeout(250)
    p1.mouse.up()

    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    (act,) = sent(p1, "act")
    assert isinstance(act["action"]["path"][-1], list), "a move to a point, not a turn"
    x, y = position_of(p1, table.u1)
    assert abs(x - 10) < 0.3 and abs(y - 8.5) < 0.3


# -- 4. no plan the server always refuses; what is left shown ----------------------------


def test_a_player_cannot_plan_an_order_the_referee_always_refuses(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    record_frames(p2)
    # Out of turn: P2's mech has no handle, and a drag plans nothing and sends nothing.
    p2.locator(f".piece[data-unit='{table.u2}']").click()
    expect(p2.locator("#unit-may")).to_contain_text("it is P1's turn")
    expect(p2.locator(".rotate-handle")).to_have_attribute("visibility", "hidden")
    drag_piece(p2, table.u2, 0, -3)
    p2.wait_for_timeout(400)
    expect(p2.locator(".ghost")).to_have_count(0)
    assert sent(p2, "preview") == [] and sent(p2, "act") == []

    # Already ordered this turn (one order per unit, aod.md 3): the same, and the card
    # says what the side has left.
    expect(p1.locator("#turn-status")).to_contain_text("3 orders left")
    drag_piece(p1, table.u1, 0, 3)
    expect(p1.locator("#turn-status")).to_contain_text("2 orders left", timeout=TIMEOUT_MS)
    record_frames(p1)
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    expect(p1.locator("#unit-may")).to_contain_text("Nothing more is open to it this turn")
    expect(p1.locator("#unit-may")).to_contain_text("2 orders left")
    expect(p1.locator(".rotate-handle")).to_have_attribute("visibility", "hidden")
    drag_piece(p1, table.u1, 0, 3)
    p1.wait_for_timeout(400)
    expect(p1.locator(".ghost")).to_have_count(0)
    assert sent(p1, "preview") == [] and sent(p1, "act") == []


# -- 5. refusals in a player's words ----------------------------------------------------


def toast_text(page) -> str:
    toast = page.locator(".toast-error").last
    expect(toast).to_contain_text("move refused", timeout=TIMEOUT_MS)
    return toast.inner_text()


def test_a_refusal_names_terrain_in_words_without_coordinates_and_cites_the_rule_once(
    table, open_board
):
    """Issue 20: the message first, then the rule's name as a small second line; its seed
    reference (and decision id) in the tooltip and read out, never in the text."""
    p1 = open_board("p1")
    drag_piece(p1, table.u1, 0, 8)  # through the wood: a unit entering it must stop
    text = toast_text(p1)
    assert "P1 mech: move refused" in text
    reason = p1.locator(".toast-error").last.locator("li .reason").first
    message = reason.evaluate("(node) => node.firstChild.textContent")
    assert "must stop on entering hindering terrain W1" in message, message
    rule = reason.locator("small.rule")
    name = "Hindering terrain, MechWarrior: Age of Destruction rules"
    expect(rule).to_have_text(name)
    expect(rule).to_have_attribute("title", "000 [32], AOD-D4")
    expect(rule).to_have_attribute("aria-label", f"Rule: {name}: 000 [32], AOD-D4")
    # Message above rule: the rule is a line of its own, under the message.
    message_box = reason.evaluate(
        "(node) => { const r = document.createRange(); r.selectNodeContents(node.firstChild);"
        " return r.getBoundingClientRect().bottom; }"
    )
    assert rule.bounding_box()["y"] >= message_box - 1
    assert "000 [" not in text and "AOD-D" not in text, text
    assert not re.search(r"\(\s*-?\d+(\.\d+)?,", text), text
    assert table.u1 not in text
    shoot(p1, "refusal-toast-message-then-rule")

    p1.locator(".toast-close").last.click()
    drag_piece(p1, table.u1, -7, 0)  # into the deep water
    text = toast_text(p1)
    assert "deep water" in text.lower() and "deep_water" not in text, text
    assert not re.search(r"\(\s*-?\d+(\.\d+)?,", text), text


def test_a_stale_refusal_says_who_moved_first(table, open_board):
    p1, gm = open_board("p1"), open_board("gm")
    # P1's board hears of the GM's move late (a slow network): it sends its order on
    # the table it saw, and the referee refuses it as stale.
    p1.evaluate(
        """() => { const frames = window.tabletop.frames, onFrame = frames.on.bind(frames);
                   window.held = [];
                   frames.on = (f) => f.type === "event" && window.hold
                     ? window.held.push(f) : onFrame(f);
                   window.hold = true;
                   window.release = () => { window.hold = false;
                                            window.held.splice(0).forEach(onFrame); }; }"""
    )
    record_frames(p1)
    gm.locator("#fiat-toggle").check()
    drag_piece(gm, table.u2, 0, -2)
    expect(log_lines(gm)).to_have_count(1, timeout=TIMEOUT_MS)
    drag_piece(p1, table.u1, 0, 3)
    # The GM's move is released to P1's board once its order is on the wire, on the
    # table it saw (a fixed pause lost that race on a loaded CI machine).
    p1.wait_for_function("() => window.sent.some((f) => f.type === 'act')", timeout=TIMEOUT_MS)
    assert [frame["seen"] for frame in sent(p1, "act")] == [0]
    p1.evaluate("window.release()")

    toast = p1.locator(".toast-error").last
    expect(toast).to_contain_text(
        "gm moved first; your board is up to date, try again", timeout=TIMEOUT_MS
    )
    expect(toast).not_to_contain_text("changed after")


# -- 6. the GM's fiat reason, delay field, a delayed spectator, a turn in place -----------


def test_the_gms_fiat_reason_is_for_one_fiat_only(table, open_board):
    gm = open_board("gm")
    gm.locator("#fiat-toggle").check()
    gm.locator("#fiat-reason").fill("Knocked over by the cat")
    drag_piece(gm, table.u2, 0, -2)
    expect(log_lines(gm)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(gm).first).to_contain_text("by fiat: Knocked over by the cat")
    expect(gm.locator("#fiat-reason")).to_have_value("")
    # The piece glides to where the fiat put it: the next press must find it there (a
    # press during the glide may miss it and pan the table instead, CI saw it once).
    expect(gm.locator(f".piece[data-unit='{table.u2}']")).to_have_attribute(
        "transform", expected_transform(gm, table.u2), timeout=TIMEOUT_MS
    )
    drag_piece(gm, table.u2, 0, -2)
    expect(log_lines(gm)).to_have_count(2, timeout=TIMEOUT_MS)
    expect(log_lines(gm).last).not_to_contain_text("Knocked over")


def test_the_delay_in_force_shows_after_a_reload_and_a_delayed_spectator_is_not_live(
    table, open_board
):
    gm = open_board("gm")
    gm.locator("#delay-seconds").fill("30")
    gm.locator("#delay-form button").click()
    expect(log_lines(gm)).to_have_count(1, timeout=TIMEOUT_MS)
    gm.reload()
    gm.wait_for_selector("#conn[data-state='live']")
    expect(gm.locator("#delay-seconds")).to_have_value("30")

    watcher = open_board("spectator")
    expect(watcher.locator("#conn .conn-text")).to_have_text("delayed 30 s")
    expect(watcher.locator("#conn .conn-text")).not_to_have_text("live")


def test_a_turn_in_place_is_logged_as_one(table, open_board):
    p1 = open_board("p1")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.keyboard.press("q")
    p1.wait_for_timeout(300)
    p1.keyboard.press("Enter")
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(p1).first).to_contain_text("P1 mech turned in place")
    expect(log_lines(p1).first).not_to_contain_text("0.0″")


# -- 7. the nearest legal alternative --------------------------------------------------


def refuse_a_move_too_far(page, unit: str) -> None:
    """Drags the mech 20" east, twice its move (001 [16]): refused."""
    drag_piece(page, unit, 20, 0)
    expect(page.locator(".toast-error").last).to_contain_text("move refused", timeout=TIMEOUT_MS)


def test_a_refused_drop_offers_the_nearest_legal_end_and_enter_sends_it(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    record_frames(p1)
    refuse_a_move_too_far(p1, table.u1)

    offer = p1.locator(".alternative")
    expect(offer).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator(".alternative-text")).to_contain_text("Nearest legal")
    expect(p1.locator(".toast-error").last).to_contain_text("Nearest legal end: 10.0″")
    shoot(p1, "refusal-with-alternative")
    # Each ask is for the refused drop (a loaded machine may re-ask the same once).
    asked = [f for f in sent(p1, "preview") if f.get("alternative")]
    assert asked and all(a["action"]["path"][-1][0] > 25 for a in asked)

    p1.keyboard.press("Enter")

    expect(log_lines(p2)).to_have_count(1, timeout=TIMEOUT_MS)
    acts = sent(p1, "act")
    assert len(acts) == 2 and acts[1]["action"]["path"][-1][0] < 20.05
    x, y = position_of(p2, table.u1)
    assert 19.5 < x <= 20.05 and abs(y - 6) < 0.3, (x, y)
    expect(p1.locator(".alternative")).to_have_count(0)


def test_a_click_on_the_offered_alternative_sends_it(table, open_board):
    p1 = open_board("p1")
    refuse_a_move_too_far(p1, table.u1)
    ring = p1.locator(".alternative-ring")
    expect(ring).to_have_count(1, timeout=TIMEOUT_MS)
    box = ring.bounding_box()
    p1.wait_for_timeout(1500)  # the refused ghost has snapped back and gone
    p1.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    x, _ = position_of(p1, table.u1)
    assert 19.5 < x <= 20.05


def test_selecting_a_piece_with_many_offers_does_not_rescale_the_table(table, open_board):
    """ui.md "No layout shift when panels update": the mech is offered six orders (Move,
    Run, Half-speed and Full-speed Assault, Charge, Vent); the action bar takes them in
    one row, so the table keeps its size and scale and a drag lands where it is aimed."""
    p1 = open_board("p1")
    board = p1.locator("#board-svg")
    before, scale = board.bounding_box(), inches_per_px(p1)
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    offered = p1.locator("#actions button:visible")
    expect(offered.filter(has_text=re.compile("full-speed assault", re.I))).to_have_count(
        1, timeout=TIMEOUT_MS
    )
    assert board.bounding_box() == before
    assert inches_per_px(p1) == scale
