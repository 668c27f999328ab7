"""Issue 20, "If the board shades a point, a drop there is legal" (ui.md, "One truth").

The reach overlay shades every end the engine's cheapest path reaches, and that path may
turn in place first. The board proposes a plain drag as drawn, turned to face only a leg
that is not straight ahead or back (`faces_each_leg`): straight back, at x2, it would be
refused at some of those ends; the board asks
for the engine's alternative while the pointer rests and, where it ends at the drop,
makes it the plan: green, the engine's cost, and that action sent on the drop. A path
with waypoints the player placed is the player's own and is never replaced.

Computed with the engine first (`python -m rules check` / `alternative`, mswars.md 4-5):
- the Walker (Move 6, facing north) 3.5" south: backward x2 = 7 MP, refused; a 180
  degree turn, 90 of it free (1 x 0.5 x 4 = 2 MP), then 3.5" forward = 5.5 MP, ending
  facing south (270);
- the Track (Move 10, facing north) 5.5" south: backward x2 = 11 MP, refused; a 180
  degree turn (1 x 0.5 x 8 = 4 MP), then 5.5" forward = 9.5 MP, ending facing south.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TIMEOUT_MS,
    TableByNames,
    drag_piece,
    go_to_board,
    inches_per_px,
    log_lines,
    piece_centre,
    position_of,
    select,
    settle,
    signed_in_page,
)
from tests.browser.test_mswars_turn import TRACK as MSWARS_TRACK
from tests.browser.test_mswars_turn import WALKER

pytestmark = pytest.mark.django_db(transaction=True)

# The M.S. Wars turn test's walker, and its track with a longer move (10 MP), so that
# going straight back at x2 cannot afford an end a 180-degree turn then forward can.
TRACK = {**MSWARS_TRACK, "move": 10}
PIECES = {
    "Walker": {"id": "W1", "side": "P1", **WALKER, "position": [14, 10], "facing": 90.0},
    "Track": {"id": "T1", "side": "P1", **TRACK, "position": [28, 14], "facing": 90.0},
    "Sentry": {"id": "S1", "side": "P2", **WALKER, "position": [28, 30], "facing": 270.0},
}


@pytest.fixture
def reach_table(asgi_server: str) -> TableByNames:
    from tests.browser.conftest import table_by_names
    from tests.web.factories import make_mswars_battle_sync

    battle, users = make_mswars_battle_sync("r")
    battle.state = {**battle.state, "units": list(PIECES.values()), "terrain": []}
    battle.unit_labels = {u["id"]: {"name": name} for name, u in PIECES.items()}
    battle.save(update_fields=["state", "unit_labels"])
    return table_by_names(asgi_server, battle, users, "Walker", "Sentry")


def facing_of(page, unit: str) -> float:
    return float(page.evaluate(f"window.tabletop.store.unit('{unit}').facing"))


def shaded(page, x: float, y: float) -> bool:
    """Whether the reach overlay's area holds the table point (x, y)."""
    return page.evaluate(
        """([x, y]) => { const a = document.querySelector('.reach-area');
                         const p = a.ownerSVGElement.createSVGPoint(); p.x = x; p.y = y;
                         return a.isPointInFill(p); }""",
        [x, y],
    )


def expect_adopted(page, cost: str, turn: float) -> None:
    """The plan is the engine's: green, no refusal marker, its cost, a turn first."""
    expect(page.locator(".cost-text")).to_contain_text("turns first", timeout=TIMEOUT_MS)
    expect(page.locator(".cost-text")).to_contain_text(cost)
    expect(page.locator(".path-legal")).to_have_count(1)
    expect(page.locator(".path-illegal")).to_have_count(0)
    expect(page.locator(".violation")).to_have_count(0)
    action = page.evaluate("window.tabletop.mover.action()")
    assert abs(action["path"][0]["turn"]) == pytest.approx(turn, abs=0.5)


def test_a_drop_on_a_shaded_end_the_plain_leg_cannot_afford_is_the_engines_move(
    reach_table, browser
):
    table = reach_table
    p1 = go_to_board(signed_in_page(browser, table, "p1"), table)
    u = table.units
    walker, track = u["Walker"], u["Track"]

    # -- Waypoints the player placed are their own: never replaced. The Track carried
    # (Enter) 3" back to a waypoint, then 3" more: 12 MP of 10, refused, drawn red.
    select(p1, track, "Track")
    p1.keyboard.press("Enter")
    x, y = piece_centre(p1, track)
    px = 1 / inches_per_px(p1)
    p1.mouse.move(x, y + 3 * px, steps=4)
    p1.mouse.click(x, y + 3 * px)
    p1.mouse.move(x, y + 6 * px, steps=6)
    expect(p1.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    p1.wait_for_timeout(800)  # a rest: long enough for an alternative to have come
    expect(p1.locator(".path-illegal")).to_have_count(1)
    expect(p1.locator(".cost-text")).not_to_contain_text("the engine's path")
    path = p1.evaluate("window.tabletop.mover.action().path")
    assert all(isinstance(step, list) for step in path) and len(path) == 2
    p1.keyboard.press("Escape")
    expect(p1.locator(".ghost")).to_have_count(0)

    # -- The Walker 3.5" back: the overlay shades it; straight back costs 7 MP of 6.
    select(p1, walker, "Walker")
    p1.keyboard.press("r")
    expect(p1.locator(".reach-area")).to_have_count(1, timeout=TIMEOUT_MS)
    assert shaded(p1, 14, 6.5)
    p1.keyboard.press("r")
    drag_piece(p1, walker, 0, -3.5, release=False)
    expect_adopted(p1, "5.5 MP / 6.0 MP", 180)
    settle(p1)
    p1.screenshot(path=f"{ARTIFACTS}/reach-drop-walker-turns-first.png")
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(log_lines(p1).last).to_contain_text("Walker standard move (5.5 MP)")
    expect(p1.locator(".toast-error")).to_have_count(0)
    assert position_of(p1, walker)[:2] == pytest.approx([14, 6.5], abs=0.05)
    assert facing_of(p1, walker) == pytest.approx(270, abs=0.5)

    # -- The Track 5.5" straight back: backward x2 is 11 MP of 10; turned about, 9.5.
    select(p1, track, "Track")
    drag_piece(p1, track, 0, -5.5, release=False)
    expect_adopted(p1, "9.5 MP / 10.0 MP", 180)
    settle(p1)
    p1.mouse.up()
    expect(log_lines(p1)).to_have_count(2, timeout=TIMEOUT_MS)
    expect(log_lines(p1).last).to_contain_text("Track standard move (9.5 MP)")
    expect(p1.locator(".toast-error")).to_have_count(0)
    assert position_of(p1, track)[:2] == pytest.approx([28, 8.5], abs=0.05)
    assert facing_of(p1, track) == pytest.approx(270, abs=0.5)
