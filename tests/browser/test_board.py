"""The board in the browser: two players and a spectator at one live table."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    EVIL,
    TIMEOUT_MS,
    drag_piece,
    expected_transform,
    seq_of,
    shoot,
    transform,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_legal_move_by_player_one_appears_for_the_other_two(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    before = transform(p2, table.u1)

    drag_piece(p1, table.u1, 0, 5)

    expect(p1.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    moved = expected_transform(p1, table.u1)
    assert moved != before
    for page in (p2, watcher):
        expect(page.locator(f".piece[data-unit='{table.u1}']")).to_have_attribute(
            "transform", moved, timeout=TIMEOUT_MS
        )
        expect(page.locator("#event-log li").first).to_contain_text("P1 mech move")
    expect(p1.locator("#turn-status")).to_contain_text("2 orders left")
    shoot(p2, "legal-move-seen-by-p2")


def test_an_illegal_move_shows_its_reason_and_nothing_changes_for_the_others(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    before = transform(p2, table.u1)

    drag_piece(p1, table.u1, 0, 16, release=False)
    # While dragging, the server's verdict is drawn where the move goes wrong.
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator(".violation-text").first).to_contain_text("P1 mech needs")
    expect(p1.locator(".cost-text")).to_contain_text('/ 10.0"')  # cost_unit "in"
    shoot(p1, "illegal-move-while-dragging")
    p1.mouse.up()

    toast = p1.locator(".toast-error")
    expect(toast).to_contain_text("move refused", timeout=TIMEOUT_MS)
    # The unit is called by its roster name, not its table id.
    expect(toast).to_contain_text(re.compile(r"P1 mech needs .* but has 10"))
    expect(toast).not_to_contain_text(table.u1)
    # The rule's name under the message, its citation in the tooltip (issue 20).
    rule = toast.locator("small.rule").first
    expect(rule).to_have_text("Movement allowance, MechWarrior: Age of Destruction rules")
    expect(rule).to_have_attribute("title", "001 [16]")
    # The ghost snaps back; the piece never moved.
    expect(p1.locator(".ghost")).to_have_count(0, timeout=TIMEOUT_MS)
    assert transform(p1, table.u1) == before
    for page in (p2, watcher):
        assert seq_of(page) == 0
        expect(page.locator("#event-log li")).to_have_count(0)
        assert transform(page, table.u1) == before


def test_the_reach_overlay_appears(table, open_board):
    p1 = open_board("p1")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    expect(p1.locator("#unit-name")).to_have_text("P1 mech")

    p1.keyboard.press("r")

    area = p1.locator(".reach-area")
    expect(area).to_have_count(1, timeout=TIMEOUT_MS)
    assert len(area.get_attribute("d")) > 20
    expect(p1.locator("#tool-reach")).to_have_attribute("aria-pressed", "true")
    shoot(p1, "reach-overlay")
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(0)


@pytest.fixture
def crowded_table(table):
    """The table strewn with small rocks 3" apart, and the P1 mech given a 40" move: reach
    has many corners to search (set up before any browser starts: Playwright's event loop
    refuses synchronous database access)."""
    state = table.battle.state
    width, height = state["table"]["width"], state["table"]["height"]
    mech = next(u for u in state["units"] if u["id"] == table.u1)
    rocks = [
        {
            "id": f"K{x}-{y}",
            "type": "blocking",
            "polygon": [[x, y], [x + 0.5, y], [x + 0.5, y + 0.5], [x, y + 0.5]],
        }
        for x in range(2, int(width) - 1, 3)
        for y in range(2, int(height) - 1, 3)
        if abs(x - mech["position"][0]) > 1.5 or abs(y - mech["position"][1]) > 1.5
    ]
    units = [{**u, "move": 40} if u["id"] == table.u1 else u for u in state["units"]]
    table.battle.state = {**state, "units": units, "terrain": rocks}
    table.battle.save(update_fields=["state"])
    return table


def test_a_reach_the_server_cut_short_says_how_far_it_is_exact(crowded_table, open_board):
    """On a crowded table the engine bounds reach's work (issue 15): the area it returns
    is exact to some inches of path short of the allowance, and the board says so rather
    than let the player take the shaded area for all the piece can do."""
    table = crowded_table
    p1 = open_board("p1")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(1, timeout=TIMEOUT_MS)
    hint = p1.locator("#tool-hint")
    expect(hint).to_have_text(
        re.compile(
            r"Reach: shaded to \d+\.\d″ of path; the server bounds its work, it may go farther\."
        ),
        timeout=TIMEOUT_MS,
    )
    shoot(p1, "reach-cut-short")


def test_the_spectator_cannot_drag(table, open_board):
    watcher = open_board("spectator")
    expect(watcher.locator("#watching")).to_be_visible()
    expect(watcher.locator("#actions")).to_be_hidden()
    expect(watcher.locator("#end-turn")).to_be_hidden()
    before = transform(watcher, table.u1)

    drag_piece(watcher, table.u1, 0, 5, release=False)
    expect(watcher.locator(".ghost")).to_have_count(0)
    watcher.mouse.up()

    expect(watcher.locator("#unit-may")).to_contain_text("read-only")
    assert transform(watcher, table.u1) == before
    assert seq_of(watcher) == 0
    shoot(watcher, "spectator-view")


def test_after_a_reconnect_the_board_catches_up_without_reloading(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    p2.evaluate("window.__same_page = true")

    p2.evaluate("window.tabletop.conn.drop({hold: true})")
    expect(p2.locator("#conn")).to_have_attribute("data-state", "offline")
    expect(p2.locator("#conn")).to_contain_text("offline")
    drag_piece(p1, table.u1, 2, 4)
    expect(p1.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    assert seq_of(p2) == 0  # it missed the move
    shoot(p2, "reconnect-offline")

    p2.evaluate("window.tabletop.conn.release()")

    expect(p2.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
    expect(p2.locator(f".piece[data-unit='{table.u1}']")).to_have_attribute(
        "transform", expected_transform(p1, table.u1), timeout=TIMEOUT_MS
    )
    expect(p2.locator("#event-log li")).to_have_count(1)
    assert seq_of(p2) == 1
    assert p2.evaluate("window.__same_page") is True


def test_after_the_network_drops_the_board_catches_up(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    p2.context.set_offline(True)
    expect(p2.locator("#conn")).not_to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
    drag_piece(p1, table.u1, 1, 4)
    expect(p1.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)

    p2.context.set_offline(False)

    expect(p2.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
    expect(p2.locator(f".piece[data-unit='{table.u1}']")).to_have_attribute(
        "transform", expected_transform(p1, table.u1), timeout=TIMEOUT_MS
    )


def test_a_unit_named_with_markup_shows_as_text(table, open_board):
    p1 = open_board("p1")
    label = p1.locator(f".piece-label[data-unit='{table.u2}']")
    # Long names are shortened on the table; the title and the unit card carry all of it.
    expect(label).to_have_text(EVIL[:21] + "…")
    expect(p1.locator(f".piece[data-unit='{table.u2}'] > title")).to_have_text(
        re.compile(re.escape(EVIL))
    )
    p1.locator(f".piece[data-unit='{table.u2}']").click()
    expect(p1.locator("#unit-name")).to_have_text(EVIL)
    assert p1.locator("#board-page img").count() == 0
    # The text node exists as text, not as an element.
    assert (
        p1.evaluate(
            "(id) => document.querySelector(`.piece-label[data-unit='${id}']`).firstChild.nodeType",
            table.u2,
        )
        == 3
    )
    p1.wait_for_timeout(300)
    assert table.dialogs == []


def test_measure_and_line_of_sight_between_two_pieces(table, open_board):
    p1 = open_board("p1")
    p1.keyboard.press("m")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.locator(f".piece[data-unit='{table.u2}']").click()
    # The mechs stand 30" apart, centre to centre, on 1.75" bases.
    expect(p1.locator(".measure-text")).to_have_text("centre 30.0″ · edge 28.3″")
    shoot(p1, "measure")
    p1.keyboard.press("l")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.locator(f".piece[data-unit='{table.u2}']").click()
    expect(p1.locator(".los-text")).to_contain_text("Clear")
    expect(p1.locator("#tool-hint")).to_contain_text("the referee's ruling")


def test_the_gm_undoes_a_move_and_the_replay_shows_the_past(table, open_board):
    p1, gm = open_board("p1"), open_board("gm")
    expect(gm.locator("#gm-panel")).to_be_visible()
    start = transform(gm, table.u1)
    drag_piece(p1, table.u1, 0, 5)
    expect(gm.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)

    gm.locator("#undo-reason").fill("Misclick")
    gm.locator("#undo-form button").click()

    expect(gm.locator("#event-log li")).to_have_count(2, timeout=TIMEOUT_MS)
    expect(p1.locator(f".piece[data-unit='{table.u1}']")).to_have_attribute(
        "transform", start, timeout=TIMEOUT_MS
    )
    # Replay: the table after event #1, read-only, with a banner.
    p1.locator("#event-log li[data-seq='1']").click()
    expect(p1.locator("#replay-banner")).to_be_visible()
    expect(p1.locator("#replay-text")).to_contain_text("after event #1")
    expect(p1.locator(f".piece[data-unit='{table.u1}']")).not_to_have_attribute(
        "transform", start, timeout=TIMEOUT_MS
    )
    shoot(p1, "replay")
    p1.locator("#replay-live").click()
    expect(p1.locator("#replay-banner")).to_be_hidden()
    expect(p1.locator(f".piece[data-unit='{table.u1}']")).to_have_attribute("transform", start)


def test_the_board_works_at_tablet_size(table, open_board):
    p1 = open_board("p1", viewport={"width": 820, "height": 1180})
    expect(p1.locator("#panel-right")).not_to_be_in_viewport()
    p1.locator("[data-drawer='right']").click()
    expect(p1.locator("#panel-right")).to_be_in_viewport(ratio=1)
    shoot(p1, "tablet-log-drawer")
