"""Kernel geometry added for lasergrenadiers, system-neutral: terrain under a path governed
by a set-based choice (LG-D25 is not a rank), and a base entering or leaving the table
(LG-D14, 003 Leaving the board)."""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import Polygon, box

from rules.geometry.bases import body_at
from rules.geometry.board_edge import back_on_after, first_wholly_on, goes_off_after, wholly_off
from rules.geometry.governed_intervals import governed_feature_at, governed_intervals
from rules.geometry.track import Pose, Track
from rules.model.actions import Waypoint
from rules.model.state import BaseShape, Table

RIVER, BRIDGE, WALL = "river", "bridge", "wall"
FEATURES: list[tuple[str, Polygon]] = [
    (RIVER, box(2, -5, 8, 5)),
    (BRIDGE, box(1, -1, 9, 1)),
    (WALL, box(4, -5, 5, 5)),
]


def bridge_then_lowest(features: Sequence[str]) -> str:
    """A bridge hides a river; then a wall beats a bridge: no rank gives both."""
    left = [f for f in features if not (f == RIVER and BRIDGE in features)]
    return WALL if WALL in left else left[0]


def test_each_piece_is_governed_by_the_choice_over_every_feature_that_holds_it() -> None:
    pieces = governed_intervals((0, 0), (10, 0), FEATURES, bridge_then_lowest)
    got = [(round(p.start * 10, 6), round(p.end * 10, 6), p.feature) for p in pieces]
    assert got == [(0, 1, None), (1, 4, BRIDGE), (4, 5, WALL), (5, 9, BRIDGE), (9, 10, None)]
    assert governed_feature_at(3, 0, FEATURES, bridge_then_lowest) == BRIDGE
    assert governed_feature_at(3, 3, FEATURES, bridge_then_lowest) == RIVER
    assert governed_feature_at(0, 3, FEATURES, bridge_then_lowest) is None


TABLE = Table(20, 20)
DISK = BaseShape("circle", diameter=2)


def test_a_base_entering_from_an_edge_is_wholly_on_once_its_rim_clears_the_edge() -> None:
    track = Track.from_steps(DISK, Pose(0, 10, 0), [Waypoint(5, 10)])
    on = first_wholly_on(track, TABLE)
    assert on is not None and abs(track.s_at(on) - 1.0) < 0.02
    assert goes_off_after(track, TABLE, on + 1e-9) is None


def test_a_base_that_leaves_is_wholly_off_and_one_that_comes_back_is_found() -> None:
    out = Track.from_steps(DISK, Pose(3, 10, 180), [Waypoint(-2, 10)])
    assert wholly_off(body_at(DISK, -2, 10, 0), TABLE)
    assert not wholly_off(body_at(DISK, -0.5, 10, 0), TABLE)
    off = goes_off_after(out, TABLE, 0.0)
    assert off is not None and back_on_after(out, TABLE, off.tau) is None
    back = Track.from_steps(DISK, Pose(3, 10, 180), [Waypoint(-2, 10), Waypoint(3, 12)])
    off = goes_off_after(back, TABLE, 0.0)
    assert off is not None and back_on_after(back, TABLE, off.tau) is not None
