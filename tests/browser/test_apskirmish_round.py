"""One round of the action-point skirmish game in the browser: two players and a spectator
at one live table, the GM giving the rolls (table option `tests: "gm"`, APS-D1).

Activations in turn (APS-D23): P1's Brannock is refused a move across the Wall
(004 Obstacles) and Traverses it instead (a Traverse roll); P2's Handler runs
(004 Running); P1's Kell moves into the Rubble (a Terrain roll, 004 Rough Terrain), and
the Handler Dodges Kell's attack out of turn (004 Dodging). Then the round ends and every
soldier has its 3 AP again (APS-D22). The battle is tests.web.factories'
APSKIRMISH_UNITS on APSKIRMISH_TERRAIN.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    TIMEOUT_MS,
    TableByNames,
    click_table_at,
    drag_piece,
    everyone_has,
    header,
    log_lines,
    shoot,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: The class of the piece whose activation runs (with others: selected, has-badges).
ACTIVE = re.compile(r"(^|\s)active-unit(\s|$)")


@pytest.fixture
def table(apskirmish_table: TableByNames) -> TableByNames:
    """`open_board` opens this module's pages on the action-point skirmish table."""
    return apskirmish_table


def unit_of(page, unit: str) -> dict:
    return page.evaluate("(id) => window.tabletop.store.unit(id)", unit)


def piece(page, unit: str):
    return page.locator(f".piece[data-unit='{unit}']")


def settle(page) -> None:
    """Waits for the drag's last preview to be judged: the act on release is then not
    refused for a preview still in the engine (docs/protocol.md, Limits per user)."""
    page.wait_for_timeout(600)


def gm_gives(gm, prompt: str, result: str, pages) -> None:
    """The GM reads the roll the table waits for, and enters its result."""
    box = gm.locator("#pending-roll")
    expect(box.locator(".pending-text")).to_have_text(
        f"{prompt}: enter success/fail", timeout=TIMEOUT_MS
    )
    for page in pages:
        expect(page.locator("#pending-roll")).to_have_text(f"Waiting for the GM: {prompt}")
    box.locator(f"button[data-result='{result}']").click()
    for page in (gm, *pages):
        expect(page.locator("#pending-roll")).to_be_hidden(timeout=TIMEOUT_MS)


def test_one_round_with_a_refusal_a_traverse_a_run_a_terrain_roll_and_a_dodge(table, open_board):
    gm = open_board("gm")
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    players = (p1, p2, watcher)
    everyone = (gm, *players)
    kell, brannock = table.units["Kell"], table.units["Brannock"]
    handler = table.units["Handler"]

    # The header is the engine's line: the round, who acts, who is left (APS-D23); the
    # end button is the turn structure's word for it.
    expect(header(p1)).to_have_text("Round 1 · P1 to act · 2 soldiers to activate · your turn")
    for page in (p2, watcher):
        expect(header(page)).to_have_text("Round 1 · P1 to act · 2 soldiers to activate")
    expect(p1.locator("#end-turn")).to_have_text("End activation")
    expect(p1.locator("#end-turn")).to_be_enabled()
    expect(p2.locator("#end-turn")).to_be_disabled()
    shoot(p1, "aps-0-start-p1")

    # -- P1 activates Brannock ---------------------------------------------------------
    # A 3" move north crosses the Wall: refused, and the reason is shown (004 Obstacles).
    drag_piece(p1, brannock, 0, 3, release=False)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    toast = p1.locator(".toast-error")
    expect(toast).to_contain_text("Brannock: move refused", timeout=TIMEOUT_MS)
    expect(toast).to_contain_text("Brannock's line of movement crosses obstacle Wall")
    expect(toast).to_contain_text("go around it or Traverse")
    shoot(p1, "aps-1-refused-move-toast")
    assert unit_of(p1, brannock)["position"] == [15, 12.5]
    expect(log_lines(p2)).to_have_count(0)

    # A Traverse instead: picked on the table, northwards; the GM gives the roll.
    piece(p1, brannock).click()
    # The card reads a soldier's stats a row each, and no inch allowance (AP, APS-D22).
    stats = p1.locator("#unit-stats")
    for stat, value in (("PSQ", "5"), ("INS", "6")):
        row = stats.locator("dt", has_text=stat).locator("xpath=following-sibling::dd[1]")
        expect(row).to_have_text(value)
    expect(stats).not_to_contain_text("Move")
    expect(stats).not_to_contain_text("{")
    traverse = p1.locator("#point-actions button[data-action='traverse']")
    expect(traverse).to_have_text("Traverse (1 AP)")
    traverse.click()
    expect(p1.locator("#tool-hint")).to_contain_text("Traverse (1 AP) for Brannock: click")
    click_table_at(p1, brannock, 0, 3.5)
    everyone_has(everyone, 1)
    for page in everyone:
        expect(log_lines(page).last).to_contain_text(
            "ap1: Brannock traverse (1 ap): waits for the GM: Brannock's Traverse roll (INS 6)"
        )
    expect(gm.locator("#pending-roll")).to_be_visible()
    shoot(gm, "aps-2-traverse-roll-asked-of-the-gm")
    shoot(watcher, "aps-2-traverse-roll-awaited-by-the-spectator")
    gm_gives(gm, "Brannock's Traverse roll (INS 6)", "success", players)
    everyone_has(everyone, 2)
    # Over the Wall, touching its far face (y 14.5 + the base's 0.5); 1 AP spent.
    over = unit_of(watcher, brannock)
    assert over["position"] == pytest.approx([15, 15], abs=0.01)
    assert over["ap"] == 2
    expect(header(p1)).to_have_text("Round 1 · P1 to act · Brannock: 2 AP left · your turn")
    for page in everyone:
        expect(piece(page, brannock)).to_have_class(ACTIVE)
        expect(page.locator("#dice-log li").last).to_contain_text(
            "agm: traverse GM → success (needs Traverse roll (INS 6): success)"
        )
    shoot(p1, "aps-3-traverse-done-p1")
    p1.locator("#end-turn").click()
    everyone_has(everyone, 3)
    expect(header(p2)).to_have_text("Round 1 · P2 to act · 2 soldiers to activate · your turn")

    # -- P2 activates the Handler: a run of 8" south, marked Running (004 Running) -----
    piece(p2, handler).click()
    p2.locator("#actions button[data-action='run']").click()
    drag_piece(p2, handler, 0, -8, release=False)
    settle(p2)
    p2.mouse.up()
    everyone_has(everyone, 4)
    ran = unit_of(watcher, handler)
    assert ran["position"] == pytest.approx([25, 18], abs=0.05)
    assert (ran["ap"], ran["running"], ran["activated"]) == (0, True, True)
    expect(header(p2)).to_have_text("Round 1 · P2 to act · Handler: 0 AP left · your turn")
    expect(log_lines(watcher).last).to_contain_text("ap2: Handler run (3 ap)")
    shoot(p2, "aps-4-run-p2")
    p2.locator("#end-turn").click()
    everyone_has(everyone, 5)

    # -- P1 activates Kell: 2.8" north into the Rubble, a Terrain roll (004 Rough Terrain)
    drag_piece(p1, kell, 0, 2.8, release=False)  # within its 3", whatever the last pixel
    settle(p1)
    p1.mouse.up()
    everyone_has(everyone, 6)
    gm_gives(gm, "Kell's Terrain roll (Normal PSQ 4)", "success", players)
    everyone_has(everyone, 7)
    assert unit_of(p2, kell)["position"] == pytest.approx([5, 9.3], abs=0.25)
    expect(header(watcher)).to_have_text("Round 1 · P1 to act · Kell: 2 AP left")
    for page in everyone:
        expect(page.locator("#dice-log")).to_contain_text(
            "agm: terrain GM → success (needs Terrain roll (Normal PSQ 4): success)"
        )
        expect(piece(page, kell)).to_have_class(ACTIVE)
    shoot(watcher, "aps-5-terrain-roll-in-the-dice-log-spectator")

    # Out of turn, P2 is offered only the Dodge for its soldier; the attack's source is
    # picked on the board (Kell). Activated already, it pays 1 Threshold (004 Dodging).
    piece(p2, handler).click()
    dodge = p2.locator("#point-actions button[data-action='dodge']")
    expect(dodge).to_be_visible()
    expect(dodge).to_be_enabled()
    expect(p2.locator("#actions button[data-action='move']")).to_be_hidden()
    dodge.click()
    piece(p2, kell).click()
    everyone_has(everyone, 8)
    shoot(p2, "aps-6-dodge-waits-for-the-gm-p2")
    gm_gives(gm, "Handler's Dodge roll (Normal INS 6)", "success", players)
    everyone_has(everyone, 9)
    dodged = unit_of(p1, handler)
    assert dodged["position"][1] > 18  # 1" further from Kell
    assert dodged["threshold"] == 1
    expect(header(p1)).to_have_text("Round 1 · P1 to act · Kell: 2 AP left · your turn")

    # Kell's activation ends, then P2's Rook stands for its own: the round is over.
    p1.locator("#end-turn").click()
    everyone_has(everyone, 10)
    p2.locator("#end-turn").click()
    everyone_has(everyone, 11)
    for page in everyone:
        expect(header(page)).to_contain_text("Round 2 · P1 to act · 2 soldiers to activate")
    for unit in unit_of(watcher, kell), unit_of(watcher, handler):
        assert (unit["ap"], unit["activated"], unit.get("running")) == (3, False, None)
    expect(watcher.locator(".piece.active-unit")).to_have_count(0)
    shoot(watcher, "aps-7-round-2-spectator")

    # Round 2: Kell activates again, out of the Rubble (another Terrain roll); the header
    # tells the round, who acts and Kell's AP left (APS-D22).
    drag_piece(p1, kell, 0, -2.5, release=False)
    settle(p1)
    p1.mouse.up()
    everyone_has(everyone, 12)
    gm_gives(gm, "Kell's Terrain roll (Normal PSQ 4)", "success", players)
    everyone_has(everyone, 13)
    expect(header(p1)).to_have_text("Round 2 · P1 to act · Kell: 2 AP left · your turn")
    expect(header(watcher)).to_have_text("Round 2 · P1 to act · Kell: 2 AP left")
    expect(piece(watcher, kell)).to_have_class(ACTIVE)
    shoot(p1, "aps-8-round-2-kell-activating-p1")


def test_reach_a_refused_move_taken_by_enter_and_no_run_offered_on_2_ap(table, open_board):
    """Issue 20: the overlay the R key shows, a refusal's nearest legal alternative taken
    with Enter (the piece ends there on every page), and a soldier left with 2 AP is not
    offered the Run that costs 3 (004 Running, APS-D22)."""
    p1, p2 = open_board("p1"), open_board("p2")
    brannock = table.units["Brannock"]

    # -- Reach (R): where Brannock may end a 1 AP move ------------------------------------
    piece(p1, brannock).click()
    expect(p1.locator("#actions button[data-action='run']")).to_be_visible()  # 3 AP
    p1.keyboard.press("r")
    expect(p1.locator("#tool-hint")).to_contain_text("Reach: ", timeout=TIMEOUT_MS)
    expect(p1.locator(".reach-area")).to_have_count(1, timeout=TIMEOUT_MS)
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(0)

    # -- A move across the Wall is refused (004 Obstacles); Enter takes the offer ---------
    drag_piece(p1, brannock, 0, 3, release=False)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    settle(p1)
    p1.mouse.up()
    toast = p1.locator(".toast-error", has_text="Brannock: move refused")
    expect(toast).to_contain_text("Nearest legal end", timeout=TIMEOUT_MS)
    offered = p1.evaluate("window.tabletop.mover.offer.end")
    # Short of the Wall (y 14): the base's 0.5" radius keeps the centre at 13.5 at most.
    assert offered[1] <= 13.5 + 0.01, offered
    p1.keyboard.press("Enter")
    everyone_has((p1, p2), 1)
    expect(log_lines(p2).last).to_contain_text("Brannock move")
    for page in (p1, p2):
        assert unit_of(page, brannock)["position"][:2] == pytest.approx(offered[:2], abs=0.01)

    # -- 2 AP left: Move (1 AP) is offered, Run (3 AP) is not (004 Running) ---------------
    expect(header(p1)).to_have_text("Round 1 · P1 to act · Brannock: 2 AP left · your turn")
    piece(p1, brannock).click()
    expect(p1.locator("#actions button[data-action='move']")).to_be_visible()
    expect(p1.locator("#actions button[data-action='run']")).to_be_hidden()
    expect(p1.locator("#unit-may")).not_to_contain_text("Run")
