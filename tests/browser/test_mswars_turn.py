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
    ARTIFACTS,
    TIMEOUT_MS,
    Attempts,
    TableByNames,
    bar_button,
    click_table_at,
    drag_piece,
    dragged,
    everyone_has,
    expected_transform,
    go_to_board,
    header,
    log_lines,
    position_of,
    select,
    seq_of,
    session_cookie,
    shoot,
    signed_in_page,
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
    # The reason drawn on the path: its message, then its rule's name on a small line of
    # its own, the citation in that line's tooltip only (issue 20).
    reason = p1.locator(".violation-text").first
    expect(reason.locator("tspan.rule")).to_contain_text("Movement, M.S. Wars rules")
    expect(reason.locator("tspan.rule title")).to_have_text(
        "Movement, M.S. Wars rules: 002 Rules: Movement"
    )
    assert "002 " not in reason.evaluate("(node) => node.firstChild.textContent")
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
        # Each feature in its catalogue style, the one the battle report draws (issue 24).
        assert drawn_terrain_styles(page) == {
            t: {k: style[k] for k in ("fill", "stroke")}
            for t, style in game_systems.terrain_styles(battle.state).items()
        }
        expect(page.locator(".piece-label")).to_have_count(len(battle.state["units"]))
        assert overprinted_labels(page) == []
        shoot(page, "mswars-demo-siege-of-harrow-flats")
    finally:
        context.close()


def drawn_terrain_styles(page) -> dict[str, dict[str, str]]:
    """{terrain type: {"fill", "stroke"}} as the board drew each feature: the colour under
    its pattern, and its outline."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('polygon.terrain-feature')]
          .map((shape) => {
            const id = shape.getAttribute('fill').match(/url\\(#(.+)\\)/)[1];
            const under = document.querySelector(`pattern[id="${id}"] rect`);
            const type = [...shape.classList].find((c) => c.startsWith('terrain-') &&
              c !== 'terrain-feature').slice('terrain-'.length);
            const stroke = shape.getAttribute('stroke');
            return [type, { fill: under.getAttribute('fill'), stroke }];
          }))"""
    )


# -- issue 20: every M.S. Wars move action through the board -------------------------------

WALKER = {
    "type": "walker",
    "move": 6,
    "size_class": 3,
    "base": {"shape": "circle", "diameter": 2.0},
}
TRACK = {
    "type": "track",
    "move": 5,
    "size_class": 2,
    "base": {"shape": "rect", "width": 2, "length": 3},
}
HOVER = {
    "type": "hover",
    "move": 8,
    "size_class": 2,
    "base": {"shape": "rect", "width": 1.75, "length": 2.75},
}
INFANTRY = {
    "type": "walker",
    "infantry": True,
    "move": 4,
    "size_class": 1,
    "base": {"shape": "circle", "diameter": 1.0},
}


def piece_at(uid: str, side: str, profile: dict, at: list[float], **extra) -> dict:
    facing = 90.0 if side == "P1" else 270.0  # P1 faces north, P2 south
    return {"id": uid, "side": side, **profile, "position": at, "facing": facing, **extra}


#: The phase the test plays. The Brawler touches the Guard (2" bases, centres 2" apart);
#: the Trooper touches the Skiff's rear (its rear edge at y 16 - 2.75 / 2).
ACTIONS_PHASE = {
    "Runner": piece_at("R1", "P1", WALKER, [14, 4]),
    "Duelist": piece_at("R2", "P1", {**WALKER, "skills": ["combat_manoeuvres"]}, [22, 4]),
    "Rampart": piece_at("R3", "P1", TRACK, [30, 5]),
    "Brawler": piece_at("R4", "P1", WALKER, [6, 20]),
    "Guard": piece_at("R5", "P2", WALKER, [6, 22]),
    "Skiff": piece_at("R6", "P1", {**HOVER, "carrier": 1}, [18, 16]),
    "Trooper": piece_at("R7", "P1", INFANTRY, [18, 14.125]),
    "Talon": piece_at("R8", "P2", WALKER, [30, 32]),
}

#: The actions that test cannot take: a charge at the Mark 9" north (002 Charge), a climb
#: onto the Tor the Climber touches and faces (002 Climb), a jump off it (002 Jump, SC 1
#: under the Leaper's 3), and the Rider aboard the Barge exiting (002 Unit Exiting).
TOR = {
    "id": "Tor",
    "type": "elevated",
    "height": 2.0,
    "size_class": 1,
    "polygon": [[2, 16], [10, 16], [10, 24], [2, 24]],
}
OTHER_ACTIONS = {
    "Lancer": piece_at("L1", "P1", WALKER, [26, 4]),
    "Mark": piece_at("L2", "P2", WALKER, [26, 15]),
    "Climber": piece_at("L3", "P1", {**WALKER, "free_hands": True}, [6, 15]),
    "Leaper": piece_at("L4", "P1", WALKER, [6, 22]),
    "Barge": piece_at("L5", "P1", {**HOVER, "carrier": 1}, [18, 8]),
    "Rider": piece_at("L6", "P1", INFANTRY, [18, 8], aboard="L5"),
}


@pytest.fixture
def actions_table(request, asgi_server: str) -> TableByNames:
    from tests.browser.conftest import table_by_names
    from tests.web.factories import make_mswars_battle_sync

    layout = getattr(request, "param", "phase")
    battle, users = make_mswars_battle_sync("n" if layout == "phase" else "o")
    pieces = ACTIONS_PHASE if layout == "phase" else OTHER_ACTIONS
    battle.state = {
        **battle.state,
        "units": list(pieces.values()),
        "terrain": [] if layout == "phase" else [TOR],
    }
    battle.unit_labels = {u["id"]: {"name": name} for name, u in pieces.items()}
    battle.save(update_fields=["state", "unit_labels"])
    names = list(pieces)
    return table_by_names(asgi_server, battle, users, names[0], names[-1])


@pytest.mark.parametrize("actions_table", ["phase"], indirect=True)
def test_a_phase_of_move_actions_with_reach_offers_and_a_facing_refusal_taken_by_enter(
    actions_table, browser
):
    table = actions_table
    p1, p2, watcher = (_open(browser, table, role) for role in ("p1", "p2", "spectator"))
    everyone = (p1, p2, watcher)
    u = table.units
    expect(header(p1)).to_contain_text("Turn 1 · Phase 1 · P1 to act")

    # -- Offers: in base contact, only Break Away or Manoeuvre (002 Move Actions) --------
    select(p1, u["Brawler"], "Brawler")
    expect(bar_button(p1, "break_away")).to_be_visible()
    # (Standard Move stays offered: a standalone free turn is one, allowed in contact,
    # MSW-D26.)
    for action in ("run", "charge"):
        expect(bar_button(p1, action)).to_be_hidden()
    select(p1, u["Runner"], "Runner")
    expect(bar_button(p1, "run")).to_be_visible()
    expect(bar_button(p1, "break_away")).to_be_hidden()  # not in contact

    # -- Reach (R), then a Run: 9" north, over its Move of 6 and within 12 (002 Run) -----
    bar_button(p1, "run").click()
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p1.locator("#tool-hint")).to_have_text(
        "Reach: the shaded area is where the piece may legally end."
    )
    p1.keyboard.press("r")
    dragged(p1, u["Runner"], 0, 9)
    everyone_has(everyone, 1)
    expect(log_lines(watcher).last).to_contain_text("Runner run (9.0 MP)")
    # One move action a phase (002 Rules: Movement): the Runner is offered only the
    # Standard Move a standalone free turn is sent as (MSW-D26), no second Run.
    select(p1, u["Runner"], "Runner")
    expect(p1.locator("#unit-may")).to_contain_text("May now: Standard Move.")
    for action in ("run", "manoeuvre", "break_away"):
        expect(bar_button(p1, action)).to_be_hidden()

    # -- A diagonal drag: a track moves only ahead or back, so the board's proposal turns
    # it to face the way first (002 Rules: Movement, MSW-D5; the free turn, MSW-D7, issue
    # 20); 4" x 4" is 5.7 MP of its Move of 5: refused, and Enter takes the nearest legal
    # end, along the same turned leg.
    rampart = u["Rampart"]
    select(p1, rampart, "Rampart")
    drag_piece(p1, rampart, 4, 4, release=False)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    p1.wait_for_timeout(600)
    assert p1.evaluate("window.tabletop.mover.action().path[0].turn") == pytest.approx(-45, abs=1)
    p1.mouse.up()
    toast = p1.locator(".toast-error", has_text="Rampart: move refused")
    expect(toast).not_to_contain_text("turn to face the way first")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    expect(p1.locator(".alternative")).not_to_have_count(0)
    p1.screenshot(path=f"{ARTIFACTS}/mswars-facing-refusal-with-alternative.png")
    offered = p1.evaluate("window.tabletop.mover.offer.end")
    p1.keyboard.press("Enter")
    everyone_has(everyone, 2)
    expect(log_lines(p2).last).to_contain_text("Rampart standard move")
    for page in everyone:
        assert position_of(page, rampart)[:2] == pytest.approx(offered[:2], abs=0.01)
        facing = page.evaluate(f"window.tabletop.store.unit('{rampart}').facing")
        assert facing == pytest.approx(45, abs=1)

    # -- Manoeuvre: 2.8" of its Move / 2 = 3 MP, with Combat Manoeuvres (002 Manoeuvre) --
    select(p1, u["Duelist"], "Duelist")
    bar_button(p1, "manoeuvre").click()
    drag_piece(p1, u["Duelist"], 0, 2.8, release=False)
    expect(p1.locator(".cost-text")).to_contain_text("/ 3.0 MP", timeout=TIMEOUT_MS)
    p1.wait_for_timeout(600)
    p1.mouse.up()
    everyone_has(everyone, 3)
    expect(log_lines(watcher).last).to_contain_text("Duelist manoeuvre")

    # -- Break Away: 2" straight back, 2 x 2 MP (002 Break Away, backward x2) ------------
    select(p1, u["Brawler"], "Brawler")
    bar_button(p1, "break_away").click()
    dragged(p1, u["Brawler"], 0, -2)
    everyone_has(everyone, 4)
    expect(log_lines(watcher).last).to_contain_text("Brawler break away")

    # -- Enter Unit: the Trooper boards the Skiff it touches (002 Enter Unit) ------------
    select(p1, u["Trooper"], "Trooper")
    bar_button(p1, "enter_unit").click()
    p1.locator(f".piece[data-unit='{u['Skiff']}']").click()
    everyone_has(everyone, 5)
    expect(log_lines(watcher).last).to_contain_text("Trooper enter unit")
    for page in everyone:
        expect(page.locator(f".piece[data-unit='{u['Trooper']}']")).to_have_count(0)

    # -- Carrier Unloading: the Skiff stays and sets it down at its rear (002 Carrier
    # Unloading Action; after Enter Unit the carrier may make only this, 002 Enter Unit).
    select(p1, u["Skiff"], "Skiff")
    expect(bar_button(p1, "standard_move")).to_be_hidden()
    bar_button(p1, "carrier_unloading").click()
    click_table_at(p1, u["Skiff"], 0, -2.5)
    everyone_has(everyone, 6)
    expect(log_lines(watcher).last).to_contain_text("Skiff carrier unloading")
    for page in everyone:
        expect(page.locator(f".piece[data-unit='{u['Trooper']}']")).to_have_count(1)


@pytest.mark.parametrize("actions_table", ["other"], indirect=True)
def test_charge_climb_jump_and_unit_exiting_can_be_taken_from_the_board(actions_table, browser):
    """Issue 20: every action type of the catalogue can be carried out from the board. Each
    is tried as a player would; the test lists every one that could not be, with why."""
    table = actions_table
    p1 = _open(browser, table, "p1")
    u = table.units
    attempt = Attempts(p1, u, "action")

    # Charge: 9.2" north into contact with the Mark (2" bases): over Move 6 (002 Charge).
    attempt("charge", "Lancer", lambda: dragged(p1, u["Lancer"], 0, 9.0), "Lancer charge")
    # Climb: onto the Tor it touches and faces; no path to draw (002 Climb Action).
    attempt(
        "climb",
        "Climber",
        lambda: p1.locator(f".piece[data-unit='{u['Climber']}']").click(),
        "Climber climb",
    )
    # Jump: off the Tor's north side, landing clear of it (002 Jump Action).
    attempt("jump", "Leaper", lambda: dragged(p1, u["Leaper"], 0, 4), "Leaper jump")
    # Unit Exiting: the Rider aboard has no piece on the table; its carrier is the way in.
    attempt(
        "unit_exiting",
        "Barge",
        lambda: click_table_at(p1, u["Barge"], 0, -2.5),
        "Rider unit exiting",
    )
    assert not attempt.failures, "actions the board could not take:\n" + "\n".join(attempt.failures)


def _open(browser, table: TableByNames, role: str):
    """A page showing the board as `role` (conftest's open_board, for a table fixture not
    named `table`)."""
    return go_to_board(signed_in_page(browser, table, role), table)
