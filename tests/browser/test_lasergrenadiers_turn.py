"""LaserGrenadiers in the browser: two players and a spectator at one live table, playing
alternate activations of single pieces (lasergrenadiers.md 12b, LG-D31).

The battle is the demo's map and forces at tests.web.factories.LASERGRENADIERS_PLACEMENTS:
P1's grav tank (36") west of the wood, its carrier with the troopers in base contact;
P2's armoured car, damaged once and reduced to 12" (003 Damaged a), clear of the slope.
Every move below is certain.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TIMEOUT_MS,
    Attempts,
    TableByNames,
    bar_button,
    click_table_at,
    drag_piece,
    everyone_has,
    expected_transform,
    go_to_board,
    header,
    log_lines,
    piece,
    position_of,
    select,
    settle,
    shoot,
    signed_in_page,
    table_by_names,
    transform,
)
from tests.web.factories import make_lasergrenadiers_battle_sync

pytestmark = pytest.mark.django_db(transaction=True)


#: Where the last test moves two pieces: P2's Militia (size 1) 6" north of the grav tank
#: (size 6 overruns infantry three classes smaller, 003 Overrun 1-2), P1's Jetpack squad
#: with its centre on the east edge, its entry point (003 Off-board movement,
#: lasergrenadiers.md 11).
EDGES = {"Militia": [2.0, 9.0], "Jetpack squad": [48.0, 10.0]}
#: Where the vehicle's load test puts P1's Jetpack squad: in base contact with the
#: Carrier's west side (its 2" width spans x 19-21; the squad's 1.25" base), as the
#: Troopers are with its east side (lasergrenadiers.md 9).
BESIDE_CARRIER = {"Jetpack squad": [18.37, 3.0]}


@pytest.fixture
def table(request, asgi_server: str) -> TableByNames:
    """`open_board` opens this module's pages on the LaserGrenadiers table; `units` holds
    every piece by name (the M.S. Wars fixture's shape: a table with its units by name).
    Parametrized with "edges" (or "beside"), the pieces of EDGES (BESIDE_CARRIER) stand
    where it says."""
    battle, users = make_lasergrenadiers_battle_sync("g")
    moved = {"edges": EDGES, "beside": BESIDE_CARRIER}.get(getattr(request, "param", None))
    if moved is not None:
        names = {label["name"]: uid for uid, label in battle.unit_labels.items()}
        at = {names[name]: position for name, position in moved.items()}
        units = [{**u, "position": at.get(u["id"], u["position"])} for u in battle.state["units"]]
        units = [{**u, "size": 1} if u["id"] == names["Militia"] else u for u in units]
        battle.state = {**battle.state, "units": units}
        battle.save(update_fields=["state"])
    return table_by_names(asgi_server, battle, users, "Grav tank", "Armoured car")


def card_row(page, label: str):
    """The unit card's value for `label` ("Speed band")."""
    return page.locator("#unit-stats dt", has_text=label).locator("xpath=following-sibling::dd[1]")


def end_activation(page, events: int, pages) -> None:
    expect(page.locator("#end-turn")).to_have_text("End activation")
    page.locator("#end-turn").click()
    everyone_has(pages, events)


def test_one_turn_of_alternate_activations_with_two_players_and_a_spectator(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    everyone = (p1, p2, watcher)
    units = table.units
    tank, car = units["Grav tank"], units["Armoured car"]
    carrier, troopers = units["Carrier"], units["Troopers"]

    # The header is the engine's line; the end button ends an activation (LG-D31).
    expect(header(p1)).to_have_text("Turn 1 · P1 to act · your turn")
    expect(header(watcher)).to_have_text("Turn 1 · P1 to act")
    expect(p1.locator("#end-turn")).to_have_text("End activation")
    for label in ("Bridge", "Ford", "River or stream", "Vegetation", "Slope", "Building"):
        expect(p1.locator("#legend")).to_contain_text(label)
    shoot(p1, "lg-0-start-p1")

    # -- P1: the grav tank turns and is refused for lack of allowance -----------------
    # 26" north and a quarter turn: the turn costs 1/3 of its 36" (LG-D1), 26 + 12 = 38.
    before = transform(p2, tank)
    drag_piece(p1, tank, 0, 26, release=False)
    p1.keyboard.press("Shift+Q")
    p1.keyboard.press("Shift+Q")
    expect(p1.locator(".cost-text")).to_contain_text('38.0" / 36.0"', timeout=TIMEOUT_MS)
    shoot(p1, "lg-1-turn-refused-planned")
    p1.mouse.up()
    toast = p1.locator(".toast-error")
    expect(toast).to_contain_text("Grav tank: move refused", timeout=TIMEOUT_MS)
    # The message says how much of it is turning (issue 20).
    expect(toast).to_contain_text(
        re.compile(r"needs 38(\.0)?\": 26(\.0)?\" of path and 12(\.0)?\" to turn 90°; it has 36\"")
    )
    # The rule's name under the reason, its citation in the tooltip (ui.md, "What the
    # player reads"; issue 20).
    rule = toast.locator("small.rule").first
    expect(rule).to_have_text("Turning, LaserGrenadiers rules")
    expect(rule).to_have_attribute("title", re.compile(r"^003 Turning 3"))
    assert "003 Turning" not in toast.inner_text()
    shoot(p1, "lg-1-turn-refused-toast")
    p1.keyboard.press("Escape")  # drops the offered alternative
    for page in everyone:
        assert transform(page, tank) == before
    expect(log_lines(watcher)).to_have_count(0)

    # -- P1: the grav tank flies: 6" up is over its 4" limit, 2" is not (003 Altitude) --
    p1.locator(f".piece[data-unit='{tank}']").click()
    expect(p1.locator("#altitude-field")).to_be_visible()
    p1.fill("#altitude", "6")
    drag_piece(p1, tank, 0, 15, release=False)
    expect(p1.locator(".violation-text, .cost-text").filter(has_text="altitude")).not_to_have_count(
        0, timeout=TIMEOUT_MS
    )
    shoot(p1, "lg-2-altitude-exceeded-planned")
    p1.fill("#altitude", "2")
    expect(p1.locator(".cost-text.ok")).to_have_count(1, timeout=TIMEOUT_MS)
    # The card shows the preview's band: 15.1" of 36" is moderate (lasergrenadiers.md 8).
    expect(card_row(p1, "Speed band")).to_have_text("moderate")
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    assert position_of(p1, tank) == pytest.approx([2, 18, 2], abs=0.1)
    for page in (p2, watcher):
        expect(page.locator(f".piece[data-unit='{tank}']")).to_have_attribute(
            "transform", expected_transform(p1, tank), timeout=TIMEOUT_MS
        )
    expect(header(p1)).to_contain_text('Grav tank: 20.87" left, moderate', timeout=TIMEOUT_MS)
    expect(card_row(p1, "Speed band")).to_have_text("moderate")
    expect(card_row(p1, "Altitude")).to_have_text("2″")
    watcher.locator(f".piece[data-unit='{tank}']").click()
    expect(card_row(watcher, "Speed band")).to_have_text("moderate")
    shoot(watcher, "lg-2-grav-tank-moderate-seen-by-spectator")
    shoot(p1, "lg-2-grav-tank-moderate-card-p1")

    # Another piece of P1's waits until the activation ends (LG-D31).
    # The board offers it nothing, and the referee refuses an order sent for it anyway.
    p1.locator(f".piece[data-unit='{carrier}']").click()
    expect(p1.locator("#unit-may")).to_contain_text("Nothing more is open to it this turn")
    p1.evaluate(
        "(action) => window.tabletop.command("
        "{type: 'act', seen: window.tabletop.store.seq, action}, 'Carrier: move')",
        {"unit": carrier, "type": "move", "path": [[20, 6]]},
    )
    refused = p1.locator(".toast-error", has_text="Carrier: move: refused")
    expect(refused).to_contain_text("Grav tank is active", timeout=TIMEOUT_MS)
    shoot(p1, "lg-2-carrier-waits-for-the-active-tank")
    expect(log_lines(p1)).to_have_count(1)
    end_activation(p1, 2, everyone)
    expect(header(p2)).to_have_text("Turn 1 · P2 to act · your turn")
    expect(header(watcher)).to_have_text("Turn 1 · P2 to act")

    # -- P2: the damaged armoured car moves and turns ----------------------------------
    # Reduced to 12", a quarter turn costs 4 by the seed's table (003 Damaged c): 5 + 4.
    drag_piece(p2, car, 0, -5, release=False)
    p2.keyboard.press("Shift+Q")
    p2.keyboard.press("Shift+Q")
    expect(p2.locator(".cost-text")).to_contain_text('9.0" / 12.0"', timeout=TIMEOUT_MS)
    shoot(p2, "lg-3-damaged-car-planned")
    p2.mouse.up()
    expect(log_lines(p2)).to_have_count(3, timeout=TIMEOUT_MS)
    expect(card_row(p2, "Speed band")).to_have_text("moderate")
    expect(header(watcher)).to_contain_text('Armoured car: 3" left, moderate', timeout=TIMEOUT_MS)
    shoot(watcher, "lg-3-damaged-car-seen-by-spectator")
    end_activation(p2, 4, everyone)

    # -- P1: the troopers board the carrier and are set down again (003 Transport 1) ----
    # Load: the troopers in base contact pick the carrier with a click, no path.
    p1.locator(f".piece[data-unit='{troopers}']").click()
    load = p1.locator("#point-actions").get_by_role("button", name="Load", exact=True)
    expect(load).to_be_visible()
    load.click()
    expect(p1.locator("#tool-hint")).to_contain_text("Load for Troopers: click the carrier")
    p1.keyboard.press("Escape")  # cancels: nothing is sent
    expect(p1.locator("#tool-hint")).to_have_text("Cancelled: nothing was sent.")
    load.click()
    p1.locator(f".piece[data-unit='{carrier}']").click()
    for page in everyone:
        expect(log_lines(page)).to_have_count(5, timeout=TIMEOUT_MS)
        expect(page.locator(f".piece[data-unit='{troopers}']")).to_have_count(0)
    # A third of the troopers' 6" (003 Transport 1, LG-D34).
    expect(log_lines(watcher).last).to_contain_text('gp1: Troopers load (2.0")')
    assert p1.evaluate("(id) => window.tabletop.store.unit(id).aboard", troopers) == carrier
    shoot(watcher, "lg-4-troopers-aboard-seen-by-spectator")
    end_activation(p1, 6, everyone)
    end_activation(p2, 7, everyone)  # P2 passes

    # -- P1: the carrier's activation sets the troopers down (003 Transport 1) ----------
    # Where its player clicks, 3" west of its centre, snapped to base contact and facing
    # away (lasergrenadiers.md 9).
    p1.locator(f".piece[data-unit='{carrier}']").click()
    unload = p1.locator("#point-actions").get_by_role("button", name="Unload", exact=True)
    expect(unload).to_be_visible()
    unload.click()
    expect(p1.locator("#tool-hint")).to_contain_text(
        "Unload for Carrier: click where to set Troopers down (1 of 1)"
    )
    shoot(p1, "lg-4-unload-asks-where-p1")
    click_table_at(p1, carrier, -3, 0)
    for page in everyone:
        expect(log_lines(page)).to_have_count(8, timeout=TIMEOUT_MS)
        expect(page.locator(f".piece[data-unit='{troopers}']")).to_have_count(1)
    # A third of the carrier's 24" (003 Transport 1, LG-D34).
    expect(log_lines(watcher).last).to_contain_text('gp1: Carrier unload (8.0")')
    # Base contact: the carrier faces north, so its 2" width lies east-west: the troopers'
    # 1.25" base stands 1 + 0.625 west of its centre (20, 3).
    assert position_of(watcher, troopers)[:2] == pytest.approx([18.375, 3.0], abs=0.01)
    assert p1.evaluate("(id) => window.tabletop.store.unit(id).facing", troopers) == 180
    expect(p1.locator("#unit-name")).to_have_text("Carrier")  # still selected
    shoot(p1, "lg-4-troopers-unloaded-p1")
    end_activation(p1, 9, everyone)
    expect(header(p2)).to_have_text("Turn 1 · P2 to act · your turn")
    shoot(watcher, "lg-5-end-spectator")


# -- issue 20: one truth on the board ------------------------------------------------------


def test_reach_a_shaded_end_offers_and_a_refused_turn_taken_by_enter(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    everyone = (p1, p2, watcher)
    tank, carrier = table.units["Grav tank"], table.units["Carrier"]

    # -- Reach (R): the carrier, in base contact with its troopers, is shaded a strip
    # along its facing (a drag does not turn it, 003 Turning), not an empty point (issue 20).
    p1.locator(f".piece[data-unit='{carrier}']").click()
    p1.keyboard.press("r")
    expect(p1.locator("#tool-hint")).to_have_text(
        "Reach: the shaded area is where the piece may legally end.", timeout=TIMEOUT_MS
    )
    expect(p1.locator(".reach-area")).to_have_count(1)
    px = 1 / p1.evaluate(
        "Number(getComputedStyle(document.getElementById('board-svg')).getPropertyValue('--px'))"
    )
    box = p1.locator(".reach-area").bounding_box()
    top = p1.locator(f".piece[data-unit='{carrier}'] .base").bounding_box()["y"]
    assert box is not None and top - box["y"] > 12 * px, (box, top)  # 12" north is shaded
    shoot(p1, "lg-issue20-carrier-reach")
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(0)

    # A point it shades is a legal end: 12" north, a third of the way (003 Movement).
    drag_piece(p1, carrier, 0, 12, release=False)
    expect(p1.locator(".cost-text")).to_contain_text('12.0" / 24.0"', timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    everyone_has(everyone, 1)
    expect(log_lines(watcher).last).to_contain_text('Carrier move (12.0")')

    # -- Offers: one piece's activation at a time (LG-D31): the tank and the troopers are
    # offered nothing while the carrier's runs; P2's pieces nothing on P1's turn.
    p1.locator(f".piece[data-unit='{tank}']").click()
    expect(p1.locator("#unit-may")).to_contain_text("Nothing more is open to it this turn")
    expect(bar_button(p1, "move")).to_be_hidden()
    p2.locator(f".piece[data-unit='{table.units['Armoured car']}']").click()
    expect(bar_button(p2, "move")).to_be_hidden()
    end_activation(p1, 2, everyone)
    end_activation(p2, 3, everyone)  # P2 passes

    # -- A refusal and its alternative, taken with Enter ----------------------------------
    # 26" north and a quarter turn: 26 + 12 = 38" of 36" (003 Turning 3, LG-D1).
    p1.locator(f".piece[data-unit='{tank}']").click()
    drag_piece(p1, tank, 0, 26, release=False)
    p1.keyboard.press("Shift+Q")
    p1.keyboard.press("Shift+Q")
    expect(p1.locator(".cost-text")).to_contain_text('38.0" / 36.0"', timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    toast = p1.locator(".toast-error", has_text="Grav tank: move refused")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    offered = p1.evaluate("window.tabletop.mover.offer.end")
    p1.keyboard.press("Enter")
    everyone_has(everyone, 4)
    expect(log_lines(watcher).last).to_contain_text("Grav tank move")
    for page in everyone:
        assert position_of(page, tank)[:2] == pytest.approx(offered[:2], abs=0.01)


def test_a_drag_past_the_table_edge_warns_asks_once_and_logs_that_the_piece_left(table, browser):
    """Issue 20, "consequences before the drop": leaving the board is legal and counts as
    a loss (003 Leaving the board, LG-D14); the preview says so in words, the drop asks
    once for confirmation, the log says "left the board" and the header stops naming it."""
    p1 = signed_in_page(browser, table, "p1")
    context = p1.context
    asked: list[str] = []
    p1.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    go_to_board(p1, table)
    tank = table.units["Grav tank"]
    try:
        # The tank stands 2" from the west edge; 6" west takes its whole base off.
        p1.locator(f".piece[data-unit='{tank}']").click()
        drag_piece(p1, tank, -6, 0, release=False)
        warning = re.compile(r"leav\w* the (board|table)", re.IGNORECASE)
        expect(p1.locator("#board-page")).to_contain_text(warning, timeout=TIMEOUT_MS)
        p1.screenshot(path=f"{ARTIFACTS}/lg-off-table-warning.png")
        settle(p1)
        p1.mouse.up()
        # One confirmation: the browser's dialog, or the page's own question.
        confirm = p1.get_by_role("button", name=re.compile(r"move anyway|confirm", re.I))
        if not asked:
            try:
                expect(confirm.first).to_be_visible(timeout=5000)
            except AssertionError:
                log = p1.locator("#event-log").inner_text()
                toasts = p1.locator("#toasts").inner_text()
                raise AssertionError(
                    f"no confirmation was asked; log: {log!r}; toasts: {toasts!r}"
                ) from None
            asked.append(confirm.first.inner_text())
            confirm.first.click()
        expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
        expect(log_lines(p1).last).to_contain_text("left the board")
        assert len(asked) == 1, asked
        expect(p1.locator(f".piece[data-unit='{tank}']")).to_have_count(0)
        expect(header(p1)).not_to_contain_text("Grav tank")
    finally:
        context.close()


@pytest.mark.parametrize("table", ["edges"], indirect=True)
def test_overrun_and_enter_board_can_be_taken_from_the_board(table, open_board):
    """Issue 20: every action type of the catalogue can be carried out from the board.
    Each is tried as a player would; the test lists every one that could not be, with why."""
    p1 = open_board("p1")
    # Not counting: between the two attempts the activations end (two more log lines).
    attempt = Attempts(p1, table.units, "action", counting=False)
    drag = attempt.drag

    # Overrun: straight into and over the Militia, ending 4" beyond it (003 Overrun 4).
    attempt("overrun", "Grav tank", drag("Grav tank", 0, 10), "Grav tank overrun")
    # Alternate activations (LG-D31): P1's ends, P2 passes, and P1 activates another piece.
    p2, done = open_board("p2"), log_lines(p1).count()
    end_activation(p1, done + 1, (p1, p2))
    end_activation(p2, done + 2, (p1, p2))
    # Enter the board: from its entry point on the east edge, 6" west (003 Off-board
    # movement).
    attempt("enter_board", "Jetpack squad", drag("Jetpack squad", -6, 0), "enter the board")
    assert not attempt.failures, "actions the board could not take:\n" + "\n".join(attempt.failures)


@pytest.mark.parametrize("table", ["beside"], indirect=True)
def test_a_vehicle_loads_the_pieces_in_base_contact_from_the_board(table, open_board):
    """Issue 20, one truth: the engine offers a vehicle with friendly pieces in base contact
    Load (lasergrenadiers.md 9, `passengers`); the card and the bar both say so, and the
    vehicle's gesture is its own (the catalogue's variant): click the pieces, then it."""
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    everyone = (p1, p2, watcher)
    carrier, troopers = table.units["Carrier"], table.units["Troopers"]
    jetpacks = table.units["Jetpack squad"]

    select(p1, carrier, "Carrier")
    expect(p1.locator("#unit-may")).to_contain_text("May now: Move, Load")
    load = bar_button(p1, "load")
    expect(load).to_be_visible()
    load.click()
    expect(p1.locator("#tool-hint")).to_contain_text(
        "Load for Carrier: click each of the passengers (pieces), then click Carrier"
    )
    piece(p1, troopers).click()
    piece(p1, jetpacks).click()
    expect(p1.locator("#tool-hint")).to_contain_text(
        "Load for Carrier: Troopers, Jetpack squad. Click another, or click Carrier"
    )
    expect(log_lines(p1)).to_have_count(0)  # nothing sent until the vehicle is clicked
    shoot(p1, "lg-vehicle-load-picked-p1")
    piece(p1, carrier).click()
    for page in everyone:
        expect(log_lines(page)).to_have_count(1, timeout=TIMEOUT_MS)
        expect(piece(page, troopers)).to_have_count(0)
        expect(piece(page, jetpacks)).to_have_count(0)
        expect(piece(page, carrier)).to_have_count(1)
    # The vehicle pays a third of its 24" and does not move (LG-D34).
    expect(log_lines(watcher).last).to_contain_text('gp1: Carrier load (8.0")')
    for unit in (troopers, jetpacks):
        assert p1.evaluate("(id) => window.tabletop.store.unit(id).aboard", unit) == carrier
    assert position_of(watcher, carrier)[:2] == pytest.approx([20.0, 3.0], abs=0.01)
    shoot(watcher, "lg-vehicle-load-seen-by-spectator")
