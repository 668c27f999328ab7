"""A whole M.S. Wars turn in the browser: two players and a spectator at one live table.

Both Movement Phases, the sides in turn within each (MSW-D40): a legal Standard Move, a
move refused for its cost in MP, a walker's free turn, the end of each side's part, of
the phase and of the turn (mswars.md sections 5 to 7). The battle is
tests.web.factories' MSWARS_UNITS on MSWARS_TERRAIN: every move below is certain.
"""

import re
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from tabletop.models import Battle
from tabletop.services import game_systems
from tests.browser.conftest import (
    TIMEOUT_MS,
    TableByNames,
    drag_piece,
    everyone_has,
    expected_transform,
    header,
    log_lines,
    position_of,
    seq_of,
    session_cookie,
    shoot,
    transform,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(mswars_table: TableByNames) -> TableByNames:
    """`open_board` opens this module's pages on the M.S. Wars table."""
    return mswars_table


def expect_everyone_sees(pages, unit: str, moved: str) -> None:
    for page in pages:
        expect(page.locator(f".piece[data-unit='{unit}']")).to_have_attribute(
            "transform", moved, timeout=TIMEOUT_MS
        )


def overprinted_labels(page) -> list[tuple[str, str]]:
    """Pairs of labels on the table (pieces' names, terrain names) whose boxes overlap."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.piece-label, .terrain-label')].map((t) => {
                 const r = t.getBoundingClientRect();
                 return [t.textContent, r.left, r.top, r.right, r.bottom]; })"""
    )
    assert len(boxes) >= 2
    return [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


def end_part(page, events: int, pages) -> None:
    """The active player ends their part; every page hears of it (one more event)."""
    page.locator("#end-turn").click()
    everyone_has(pages, events)


def test_a_whole_turn_both_phases_with_two_players_and_a_spectator(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    everyone = (p1, p2, watcher)
    warden, rampart = table.units["P1 Warden"], table.units["P1 Rampart"]
    talon, skiff = table.units["P2 Talon"], table.units["P2 Skiff"]

    # The header is the engine's line: turn, phase, who acts (002 Rules: Movement).
    expect(header(p1)).to_have_text("Turn 1 · Phase 1 · P1 to act · your turn")
    expect(header(p2)).to_have_text("Turn 1 · Phase 1 · P1 to act")
    expect(header(watcher)).to_have_text("Turn 1 · Phase 1 · P1 to act")
    # The action bar offers M.S. Wars' drag actions by label; the legend names its terrain.
    expect(p1.locator("#actions button[data-action='standard_move']")).to_have_text("Standard Move")
    for label in ("Difficult Terrain", "Woodland / Forest / Jungle", "Elevated terrain"):
        expect(p1.locator("#legend")).to_contain_text(label)
    assert overprinted_labels(p1) == []
    shoot(p1, "mswars-0-start-p1")

    # -- Phase 1, P1 ------------------------------------------------------------------
    # A legal Standard Move: 4" straight ahead on flat ground is 4 MP of Move 6
    # (002 cost table: Walker, Flat Ground, 1 MP an inch).
    start = transform(p2, warden)
    drag_piece(p1, warden, 0, 4, release=False)
    expect(p1.locator(".cost-text")).to_contain_text("4.0 MP / 6.0 MP · 2.0 MP left")
    shoot(p1, "mswars-1-standard-move-planned")
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    moved = expected_transform(p1, warden)
    assert moved != start
    assert position_of(p1, warden) == pytest.approx([6, 7], abs=0.05)
    expect_everyone_sees((p2, watcher), warden, moved)
    for page in everyone:
        expect(log_lines(page).last).to_contain_text("P1 Warden standard move (4.0 MP)")
    shoot(watcher, "mswars-1-standard-move-seen-by-spectator")

    # A refused move: the track drives 8" north, 3" of it through the Mud, which costs
    # a Track 2 MP an inch (002 cost table): 5 + 6 = 11 MP, over its Move of 5.
    before = transform(p2, rampart)
    drag_piece(p1, rampart, 0, 8, release=False)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator(".cost-text")).to_contain_text("/ 5.0 MP")
    # The reason drawn on the path cites its rule once (issue 13: no doubled citations).
    reason = p1.locator(".violation-text").first
    expect(reason).to_contain_text("(002 Rules: Movement)")
    assert reason.text_content().count("002 Rules: Movement") == 1, reason.text_content()
    shoot(p1, "mswars-2-refused-move-while-dragging")
    p1.mouse.up()
    toast = p1.locator(".toast-error")
    expect(toast).to_contain_text("P1 Rampart: move refused", timeout=TIMEOUT_MS)
    expect(toast).to_contain_text(re.compile(r"P1 Rampart needs 1[01](\.\d+)? MP but has 5 MP"))
    shoot(p1, "mswars-2-refused-move-toast")
    expect(p1.locator(".ghost")).to_have_count(0, timeout=TIMEOUT_MS)
    for page in everyone:
        assert transform(page, rampart) == before
        assert seq_of(page) == 1  # nothing happened for anyone
    expect(log_lines(p2)).to_have_count(1)

    # A free turn: a walker turns up to 90 degrees once a phase for nothing; alone, it
    # uses no move action (002 Turning, MSW-D7, MSW-D26). Shift+Q turns 45 degrees.
    p1.locator(f".piece[data-unit='{warden}']").click()
    expect(p1.locator("#unit-name")).to_have_text("P1 Warden")
    p1.keyboard.press("Shift+Q")
    p1.keyboard.press("Shift+Q")
    expect(p1.locator(".cost-text")).to_contain_text("0.0 MP / 6.0 MP · 6.0 MP left")
    shoot(p1, "mswars-3-free-turn-planned")
    p1.keyboard.press("Enter")
    expect(log_lines(p1)).to_have_count(2, timeout=TIMEOUT_MS)
    turned = expected_transform(p1, warden)
    assert turned == moved.replace("rotate(90)", "rotate(180)")
    expect_everyone_sees((p2, watcher), warden, turned)
    expect(log_lines(p2).last).to_contain_text("P1 Warden turned in place (free turn)")
    shoot(p2, "mswars-3-free-turn-seen-by-p2")

    # P1 ends its part: P2 acts in the same phase (MSW-D40).
    end_part(p1, 3, everyone)
    expect(header(p2)).to_have_text("Turn 1 · Phase 1 · P2 to act · your turn")
    expect(header(p1)).to_have_text("Turn 1 · Phase 1 · P2 to act")
    expect(header(watcher)).to_have_text("Turn 1 · Phase 1 · P2 to act")
    expect(p1.locator("#end-turn")).to_be_disabled()

    # -- Phase 1, P2 ------------------------------------------------------------------
    drag_piece(p2, talon, 0, -3)
    expect(log_lines(p2)).to_have_count(4, timeout=TIMEOUT_MS)
    expect_everyone_sees((p1, watcher), talon, expected_transform(p2, talon))
    expect(log_lines(p1).last).to_contain_text("P2 Talon standard move (3.0 MP)")
    shoot(p1, "mswars-4-p2-moved-seen-by-p1")

    # Every side has ended its part: the second Movement Phase begins, P1 first.
    end_part(p2, 5, everyone)
    for page in (p2, watcher):
        expect(header(page)).to_have_text("Turn 1 · Phase 2 · P1 to act")
    expect(header(p1)).to_have_text("Turn 1 · Phase 2 · P1 to act · your turn")
    shoot(watcher, "mswars-5-phase-2-spectator")

    # -- Phase 2 ----------------------------------------------------------------------
    # The track, refused in phase 1, has its move action now: 4" on flat ground.
    drag_piece(p1, rampart, 0, 4)
    expect(log_lines(p1)).to_have_count(6, timeout=TIMEOUT_MS)
    expect_everyone_sees((p2, watcher), rampart, expected_transform(p1, rampart))
    expect(log_lines(watcher).last).to_contain_text("P1 Rampart standard move (4.0 MP)")
    end_part(p1, 7, everyone)
    expect(header(p2)).to_have_text("Turn 1 · Phase 2 · P2 to act · your turn")

    # The hover goes 5" straight ahead: 5 MP of its Move 8 (MSW-D1: the Track column).
    drag_piece(p2, skiff, 0, -5, release=False)
    expect(p2.locator(".cost-text")).to_contain_text("5.0 MP / 8.0 MP")
    shoot(p2, "mswars-6-phase-2-hover-planned")
    p2.mouse.up()
    expect(log_lines(p2)).to_have_count(8, timeout=TIMEOUT_MS)
    expect_everyone_sees((p1, watcher), skiff, expected_transform(p2, skiff))

    # The end of phase 2 ends the turn; the side that acts first alternates (MSW-D40).
    end_part(p2, 9, everyone)
    expect(header(p2)).to_have_text("Turn 2 · Phase 1 · P2 to act · your turn")
    expect(header(p1)).to_have_text("Turn 2 · Phase 1 · P2 to act")
    expect(header(watcher)).to_have_text("Turn 2 · Phase 1 · P2 to act")
    expect(log_lines(watcher).last).to_contain_text("Turn 2 · Phase 1 · P2 to act")
    assert overprinted_labels(watcher) == []
    shoot(p1, "mswars-7-turn-2-p1")
    shoot(watcher, "mswars-7-turn-2-spectator")


@pytest.fixture
def demo_siege(asgi_server: str) -> tuple[str, Battle, str]:
    """(board url, battle, alice's session) of the demo campaign's M.S. Wars battle; made
    before the browser starts (Django refuses the database inside Playwright's loop)."""
    call_command("demo", stdout=StringIO())
    battle = Battle.objects.get(campaign__system="mswars")
    alice = get_user_model().objects.get(username="alice")
    return f"{asgi_server}/battles/{battle.pk}/board/", battle, session_cookie(alice)


def test_the_demo_siege_shows_its_terrain_by_label_and_its_pieces_named_apart(
    demo_siege, asgi_server: str, browser
):
    """The demo campaign's M.S. Wars board, as its first player opens it: every terrain
    kind in the legend by its M.S. Wars label, and no name over another."""
    url, battle, cookie = demo_siege
    labels = {k["type"]: k["label"] for k in game_systems.terrain_kinds("mswars")}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": asgi_server}]
        )
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        expect(header(page)).to_have_text("Turn 1 · Phase 1 · P1 to act · your turn")
        for feature_type in {f["type"] for f in battle.state["terrain"]}:
            expect(page.locator("#legend")).to_contain_text(labels[feature_type])
        expect(page.locator(".piece-label")).to_have_count(len(battle.state["units"]))
        assert overprinted_labels(page) == []
        shoot(page, "mswars-demo-siege-of-harrow-flats")
    finally:
        context.close()
