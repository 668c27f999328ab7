"""Reach's work is bounded by a count (issue 15: no action the protocol accepts costs more
than 50 ms of engine time). When the bound stops the search short of the allowance, the
area is exactly where the centre can end within the horizon reached: a subset of the
whole area, every point of it reached by a path validate accepts (aod 000 [32]: a move
may not exceed its allowance; section 6.1: terrain the unit may not touch), and the
reach says it is not complete. Within the bound, nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from rules import GameState, reach
from rules.engine.open_reach import WINDOW
from rules.geometry import visibility
from rules.geometry.visibility import Work
from tests.rules.scenes import scene, square, unit
from tests.rules.test_properties import GRID, reach_is_sound

UNBOUNDED = Work(tests=10**9, corners=10**9)


def crowded(move: float) -> GameState:
    """Unit "U" in the middle of a 36" table strewn with blocking blocks and bases."""
    blocks = [
        square(f"B{i}{k}", "blocking", 4 + 7 * i, 3 + 7 * k, 6 + 7 * i, 4.5 + 7 * k)
        for i in range(5)
        for k in range(5)
        if (i, k) != (2, 2)
    ]
    others = [unit(f"E{i}", side="P2", move=6, position=(7.5 + 7 * i, 9.5)) for i in range(4)]
    return scene([unit("U", move=move, position=(18, 17)), *others], blocks)


def reach_with(work: Work, state: GameState, monkeypatch: Any) -> Any:
    with monkeypatch.context() as m:
        m.setattr(visibility, "WORK", work)
        return reach(state, "U")


def test_a_reach_cut_short_is_exact_to_its_horizon_and_every_point_is_reached_legally(
    monkeypatch: Any,
) -> None:
    """A search stopped by the bound claims only what it settled: a subset of the whole
    area, within the horizon, and path_to's path to any point of it is legal."""
    whole = reach_with(UNBOUNDED, crowded(16), monkeypatch)
    state = crowded(16)
    cut = reach_with(Work(tests=60, corners=25), state, monkeypatch)
    assert whole.complete and whole.horizon == whole.allowance == 16
    assert not cut.complete and 0 < cut.horizon < cut.allowance
    assert cut.area.area > 1
    assert whole.area.buffer(1e-6).covers(cut.area)
    assert cut.area.area < whole.area.area
    assert reach_is_sound(state, "move", GRID, dice=[6] * 2) > 50  # of the cut reach


def test_the_area_of_a_reach_cut_short_reaches_as_far_as_its_horizon(monkeypatch: Any) -> None:
    """Exact to the horizon: every point the whole search reaches within the horizon is
    in the area cut short (up to the rays' spacing, well under a square inch here)."""
    whole = reach_with(UNBOUNDED, crowded(16), monkeypatch)
    cut = reach_with(Work(tests=60, corners=25), crowded(16), monkeypatch)
    horizon = reach_with(UNBOUNDED, crowded(cut.horizon), monkeypatch)
    assert horizon.complete
    assert horizon.area.symmetric_difference(cut.area).area < 0.05
    assert whole.area.covers(horizon.area.buffer(-0.01))


@pytest.mark.parametrize("move", [4, 8, 12])
def test_within_the_bound_the_area_is_what_the_whole_search_gives(
    move: float, monkeypatch: Any
) -> None:
    """Moves the bound does not reach are searched whole, to the same area."""
    bounded = reach(crowded(move), "U")
    whole = reach_with(UNBOUNDED, crowded(move), monkeypatch)
    assert bounded.complete and bounded.horizon == move
    assert bounded.area.equals_exact(whole.area, 0)


def test_a_long_move_on_a_crowded_table_is_cut_within_the_first_window() -> None:
    """A move longer than the window is searched first within it (open_reach.WINDOW):
    on a crowded table the bound stops that search, and what it found is sound."""
    state = crowded(30)
    cut = reach(state, "U")
    assert not cut.complete and 0 < cut.horizon <= WINDOW
    assert reach_is_sound(state, "move", GRID, dice=[6] * 2) > 50


def test_a_long_move_on_open_ground_is_searched_whole(monkeypatch: Any) -> None:
    """On open ground the window's search costs little, and the whole move is searched
    with what the bound has left: the same area as the whole search's."""
    walls = [square("W1", "blocking", 20, 10, 22, 30), square("W2", "blocking", 40, 20, 42, 40)]

    def open_ground() -> GameState:
        return scene([unit("U", move=30, position=(10, 20))], walls, width=72, height=48)

    bounded = reach(open_ground(), "U")
    whole = reach_with(UNBOUNDED, open_ground(), monkeypatch)
    assert bounded.complete and bounded.horizon == 30
    assert bounded.area.equals_exact(whole.area, 0)
    assert bounded.contains((28, 20))  # round the first wall: 29" of path, beyond WINDOW
