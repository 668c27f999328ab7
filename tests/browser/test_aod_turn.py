"""An aod turn in the browser: P1 gives its orders through the board, P2 and a spectator
watch (issue 20, "one truth on the board").

The battle is tests.web.factories' aod battle with its pieces replaced by the ones laid
out here, and `orders_available` set by the GM (aod.md section 3). Every order below is
certain: no dice decide it (capture without an outcome is reported unresolved, AOD-D32).
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TIMEOUT_MS,
    Attempts,
    TableByNames,
    bar_button,
    drag_piece,
    everyone_has,
    header,
    inches_per_px,
    log_lines,
    piece,
    piece_centre,
    position_of,
    select,
    settle,
    shoot,
    table_by_names,
)
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = str(ARTIFACTS)

MECH = {"type": "mech", "move": 10, "run_move": 15, "base": {"shape": "circle", "diameter": 1.75}}
FOOT = {"type": "infantry", "move": 4, "base": {"shape": "circle", "diameter": 1.0}}
TANK = {"type": "tracked", "move": 6, "base": {"shape": "circle", "diameter": 1.5}}


def clipped_actions(page) -> list[str]:
    """The labels of the action bar's offered actions that are not wholly in view."""
    return page.evaluate(
        """() => {
          return [...document.querySelectorAll(".action-bar .actions button")]
            .filter((b) => b.offsetParent !== null)
            .filter((b) => {
              const box = b.parentElement.getBoundingClientRect();
              const r = b.getBoundingClientRect();
              return r.left < box.left - 0.5 || r.right > box.right + 0.5;
            })
            .map((b) => b.textContent.trim());
        }"""
    )


def unit(uid: str, side: str, profile: dict, at: list[float], **extra) -> dict:
    facing = 90 if side == "P1" else 270  # P1 faces north, P2 south
    return {"id": uid, "side": side, **profile, "position": at, "facing": facing, **extra}


#: The turn the first test plays: four orders, one each for four of P1's pieces, and a
#: fifth piece (Vulcan) that is left with none. Nothing stands in the way of the moves.
TURN = {
    "Atlas": unit("A1", "P1", MECH, [4, 4]),
    "Hunter": unit("A2", "P1", MECH, [12, 4]),
    "Raven": unit("A3", "P1", MECH, [20, 4]),
    "Vulcan": unit("A4", "P1", MECH, [26, 4]),
    # Rifles and Scouts touch: 1" apart, two 1" bases (001 [26]: capture in contact).
    "Rifles": unit("I1", "P1", FOOT, [32, 8]),
    "Scouts": unit("I9", "P2", FOOT, [32, 9]),
    "Brute": unit("B1", "P2", MECH, [8, 32]),
}

#: The orders the first test cannot give: a target for each close-combat order, a
#: transport with a passenger at its rear and one with a passenger aboard, three touching
#: infantry for a formation, and a mech entitled to a free spin (aod.md 8, 11, 12).
EVERY_ORDER = {
    "Atlas": unit("A1", "P1", MECH, [4, 4]),  # assault_full into Brute
    "Brute": unit("B1", "P2", MECH, [4, 12]),
    "Hunter": unit("A2", "P1", MECH, [12, 4]),  # charge into Stalker
    "Stalker": unit("B2", "P2", MECH, [12, 15]),
    "Raven": unit("A3", "P1", {**MECH, "jump_jets": True, "attack": 3}, [20, 4]),  # dfa
    "Crow": unit("B3", "P2", MECH, [20, 12]),
    "Vulcan": unit("A4", "P1", MECH, [28, 4]),  # free spin, then vent
    "Ram tank": unit("V3", "P1", TANK, [34, 12]),  # ram into Bulwark
    # 5.5" apart edge to edge: within the tank's Move of 6 (a ram is a move, 001 [27-28]).
    "Bulwark": unit("B4", "P2", TANK, [34, 19]),
    # Hauler faces north: its rear is south, where the Sappers touch it (000 [18]).
    "Hauler": unit("V1", "P1", {**TANK, "capacity": 2}, [26, 12]),
    "Sappers": unit("I2", "P1", FOOT, [26, 10.75]),
    "Lorry": unit("V2", "P1", {**TANK, "type": "wheeled", "capacity": 2}, [20, 22]),
    "Medics": unit("I3", "P1", FOOT, [20, 22], aboard="V2"),
    "Line 1": unit("I4", "P1", FOOT, [2, 20]),
    "Line 2": unit("I5", "P1", FOOT, [3, 20]),
    "Line 3": unit("I6", "P1", FOOT, [4, 20]),
}


def aod_table(asgi_server: str, prefix: str, pieces: dict, orders: int, **state) -> TableByNames:
    battle, users = make_battle_sync(prefix)
    battle.state = {
        **battle.state,
        "units": list(pieces.values()),
        "terrain": [],
        "state": {"orders_available": orders, **state},
    }
    battle.unit_labels = {u["id"]: {"name": name} for name, u in pieces.items()}
    battle.save(update_fields=["state", "unit_labels"])
    names = list(pieces)
    return table_by_names(asgi_server, battle, users, names[0], names[-1])


@pytest.fixture
def table(request, asgi_server: str) -> TableByNames:
    """`open_board` opens this module's pages on the layout the test names (TURN with 4
    orders, unless parametrized with "every order")."""
    if getattr(request, "param", "turn") == "every order":
        return aod_table(asgi_server, "e", EVERY_ORDER, 12, free_spin_pending=["A4"])
    return aod_table(asgi_server, "d", TURN, 4)


def reach_box(page) -> dict:
    expect(page.locator(".reach-area")).to_have_count(1, timeout=TIMEOUT_MS)
    return page.locator(".reach-area").bounding_box()


def test_a_turn_of_orders_offers_reach_a_refusal_taken_by_enter_and_no_orders_left(
    table, open_board
):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    everyone = (p1, p2, watcher)
    u = table.units
    atlas, hunter, raven, vulcan = u["Atlas"], u["Hunter"], u["Raven"], u["Vulcan"]
    rifles, scouts = u["Rifles"], u["Scouts"]

    # The header says what P1 has left (001 [13]: the GM's orders_available).
    expect(header(p1)).to_have_text("Turn 1 · P1 to act · 4 orders left · your turn")
    expect(header(watcher)).to_have_text("Turn 1 · P1 to act · 4 orders left")

    # -- Offers: a mech is offered its drag orders; infantry is not offered Run -------
    select(p1, hunter, "Hunter")
    for action in ("move", "run", "assault_half"):
        expect(bar_button(p1, action)).to_be_visible()
    # All six of a mech's orders fit the bar at 1280 px, none scrolled out of sight
    # (ui.md, the action bar: "only what the unit may do now", all of it at hand).
    assert (cut := clipped_actions(p1)) == [], f"actions cut off by the bar's edge: {cut}"
    select(p1, rifles, "Rifles")
    # Only 'Mechs run (001 [17]); infantry on foot in contact may capture (001 [26]).
    expect(bar_button(p1, "run")).to_be_hidden()
    expect(bar_button(p1, "capture")).to_be_visible()

    # -- Reach (R): the area Hunter may end in; a Run reaches farther than a Move -------
    select(p1, hunter, "Hunter")
    bar_button(p1, "move").click()
    p1.keyboard.press("r")
    expect(p1.locator("#tool-hint")).to_have_text(
        "Reach: the shaded area is where the piece may legally end.", timeout=TIMEOUT_MS
    )
    walk = reach_box(p1)
    bar_button(p1, "run").click()
    p1.wait_for_timeout(300)
    expect(p1.locator("#tool-hint")).to_have_text(
        "Reach: the shaded area is where the piece may legally end.", timeout=TIMEOUT_MS
    )
    run = reach_box(p1)
    # Move 10" and run 15" (AOD-D2): the shaded discs' widths are about 20" and 30".
    assert run["width"] > walk["width"] * 1.3, (walk, run)
    shoot(p1, "aod-1-reach-run")
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(0)

    # -- Run: Hunter runs 13" north, over its Move of 10 (001 [17]) ---------------------
    drag_piece(p1, hunter, 0, 13, release=False)
    expect(p1.locator(".cost-text")).to_contain_text("15", timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    everyone_has(everyone, 1)
    expect(log_lines(watcher).last).to_contain_text("Hunter run")
    assert position_of(p2, hunter) == pytest.approx([12, 17], abs=0.15)
    expect(header(p1)).to_have_text("Turn 1 · P1 to act · 3 orders left · your turn")
    # One order a unit a turn (aod.md 3): Hunter is offered nothing more.
    select(p1, hunter, "Hunter")
    for action in ("move", "run", "assault_half"):
        expect(bar_button(p1, action)).to_be_hidden()

    # -- A refusal and its alternative, taken with Enter --------------------------------
    # Atlas is dragged 14" north with a Move of 10: speed_exceeded (001 [16]).
    select(p1, atlas, "Atlas")
    bar_button(p1, "move").click()
    drag_piece(p1, atlas, 0, 14, release=False)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    toast = p1.locator(".toast-error", has_text="Atlas: move refused")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    offered = p1.evaluate("window.tabletop.mover.offer.end")
    # The nearest legal end of a straight 14" line for a 10" Move lies 10" up it.
    assert offered[:2] == pytest.approx([4, 14], abs=0.3)
    p1.keyboard.press("Enter")  # takes the offer (ui.md "Moving a piece" 4)
    everyone_has(everyone, 2)
    expect(log_lines(p2).last).to_contain_text("Atlas move")
    for page in everyone:
        assert position_of(page, atlas)[:2] == pytest.approx(offered[:2], abs=0.01)

    # -- Half-speed assault: 4" of its ceil(10 / 2) = 5" (001 [27]) --------------------
    select(p1, raven, "Raven")
    bar_button(p1, "assault_half").click()
    drag_piece(p1, raven, 0, 4, release=False)
    expect(p1.locator(".cost-text")).to_contain_text("/ 5", timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    everyone_has(everyone, 3)
    expect(log_lines(watcher).last).to_contain_text("Raven")
    expect(log_lines(watcher).last).to_contain_text("assault")

    # -- Capture: the Rifles pick the Scouts they touch (001 [26]) ----------------------
    select(p1, rifles, "Rifles")
    bar_button(p1, "capture").click()
    expect(p1.locator("#tool-hint")).to_contain_text("Capture for Rifles: click the target")
    piece(p1, scouts).click()
    everyone_has(everyone, 4)
    expect(log_lines(p2).last).to_contain_text("Rifles capture")

    # -- No orders left: the header says so, and Vulcan is offered nothing (001 [13]) ---
    for page in everyone:
        expect(header(page)).to_contain_text("Turn 1 · P1 to act · 0 orders left")
    select(p1, vulcan, "Vulcan")
    expect(p1.locator("#unit-may")).to_contain_text("Nothing more is open to it this turn")
    for action in ("move", "run", "assault_half", "vent"):
        expect(bar_button(p1, action)).to_be_hidden()
    p1.keyboard.press("r")
    expect(p1.locator("#tool-hint")).to_contain_text("Reach: Vulcan may not move now")
    expect(p1.locator(".reach-area")).to_have_count(0)
    p1.screenshot(path=f"{SHOTS}/aod-no-orders-left.png")


def test_enter_takes_the_offer_while_a_toolbar_button_has_focus(table, open_board):
    """Issue 20: "Enter takes the offer whatever has focus outside a text field"; a
    player who last clicked a toolbar button (the reach toggle) still moves the piece,
    and the "Nearest legal end" hint goes once the offer is taken."""
    p1 = open_board("p1")
    atlas = table.units["Atlas"]
    select(p1, atlas, "Atlas")
    # 14" north with a Move of 10: speed_exceeded (001 [16]); its offer is 10" up.
    drag_piece(p1, atlas, 0, 14, release=False)
    settle(p1)
    p1.mouse.up()
    toast = p1.locator(".toast-error", has_text="Atlas: move refused")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    offered = p1.evaluate("window.tabletop.mover.offer.end")
    p1.locator("#tool-reach").focus()
    p1.keyboard.press("Enter")
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(p1).last).to_contain_text("Atlas move")
    assert position_of(p1, atlas)[:2] == pytest.approx(offered[:2], abs=0.01)
    # The reach toggle was not pressed by that Enter.
    expect(p1.locator("#tool-reach")).to_have_attribute("aria-pressed", "false")
    # The hint bar clears when its offer is taken (issue 20, "Input that never loses a move").
    expect(p1.locator("#tool-hint")).not_to_contain_text("Nearest legal end")


@pytest.mark.parametrize("table", ["every order"], indirect=True)
def test_every_other_order_of_the_catalogue_can_be_given_from_the_board(table, open_board):
    """ram, charge, dfa, assault_full, board, disembark, formation_move, vent, free_spin:
    issue 20 wants each of them given from the board. Each is tried as a player would
    (select the piece, press the order, point at what it needs, drag); the test lists
    every order that could not be given, with why."""
    p1 = open_board("p1")
    u = table.units
    attempt = Attempts(p1, u, "order")
    drag = attempt.drag

    def click(*names: str):
        def do() -> None:
            for name in names:
                piece(p1, u[name]).click()

        return do

    # A free spin first: Vulcan's entitlement lapses with the next order (aod.md 8).
    attempt(
        "free_spin",
        "Vulcan",
        lambda: (p1.keyboard.press("Shift+Q"), p1.keyboard.press("Enter")),
        "Vulcan free spin",
    )
    attempt("vent", "Vulcan", lambda: None, "Vulcan vent")  # 001 [22]: no path
    # Into base contact with the target (001 [27-28]): bases 1.75" (mechs), 1.5" (tanks).
    # Each drag ends a little onto the target; the piece stops in base contact with it.
    attempt("assault_full", "Atlas", drag("Atlas", 0, 6.3), "Atlas full-speed assault")
    attempt("charge", "Hunter", drag("Hunter", 0, 9.3), "Hunter charge")
    attempt("dfa", "Raven", drag("Raven", 0, 6.3), "Raven death from above")
    attempt("ram", "Ram tank", drag("Ram tank", 0, 5.6), "Ram tank ram")
    # Board: the Sappers at the Hauler's rear go aboard, then it moves half (000 [18]).
    attempt("board", "Hauler", lambda: (click("Sappers")(), drag("Hauler", 0, 2)()), "Hauler board")
    # Disembark: the Lorry sets the Medics down at its rear (001 [19]).
    attempt(
        "disembark",
        "Lorry",
        lambda: p1.mouse.click(*_south_of(p1, u["Lorry"], 1.5)),
        "Lorry disembark",
    )

    # A formation: Shift-click the touching line, then drag (ui.md "Groups", 000 [29]).
    def formation() -> None:
        piece(p1, u["Line 2"]).click(modifiers=["Shift"])
        piece(p1, u["Line 3"]).click(modifiers=["Shift"])
        drag("Line 1", 0, 3)()

    attempt("formation_move", "Line 1", formation, "formation move")
    assert not attempt.failures, "orders the board could not give:\n" + "\n".join(attempt.failures)


def _south_of(page, uid: str, inches: float) -> tuple[float, float]:
    """Where on the screen the table is `inches` south of a piece's centre."""
    x, y = piece_centre(page, uid)
    return x, y + inches / inches_per_px(page)
