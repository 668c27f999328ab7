"""Table edges (AOD-D20), line of sight against blocking features, the spatial index."""

from __future__ import annotations

from shapely.geometry import box

from rules import BaseShape, Table, Waypoint
from rules.geometry.index import FeatureIndex
from rules.geometry.sight import blockers, clear_line
from rules.geometry.table import leaves_table
from rules.geometry.track import Pose, Track

CIRCLE = BaseShape("circle", diameter=2.0)
TABLE = Table(36, 36)


def test_a_base_0_005_past_the_edge_is_on_the_table() -> None:
    t = Track.from_steps(CIRCLE, Pose(5, 5, 0), [Waypoint(0.995, 5)])
    assert leaves_table(t, TABLE) is None


def test_a_base_0_05_past_the_edge_is_off_the_table_where_it_crosses() -> None:
    t = Track.from_steps(CIRCLE, Pose(5, 5, 0), [Waypoint(0.95, 5)])
    hit = leaves_table(t, TABLE)
    assert hit is not None and abs(hit.at[0] - 0.99) < 1e-3


def test_line_of_sight_returns_the_features_whose_interior_it_crosses() -> None:
    feats = ["B1", "B2", "H1"]
    index = FeatureIndex(
        feats,
        [box(5, 0, 6, 10), box(5, 20, 6, 30), box(8, 0, 9, 10)],
        ["blocking", "blocking", "hindering"],
    )
    assert blockers(index, (0, 5), (10, 5), kinds=["blocking"]) == ["B1"]
    assert blockers(index, (0, 5), (10, 5)) == ["B1", "H1"]
    assert clear_line(index, (0, 15), (10, 15))


def test_grazing_an_edge_does_not_block_sight() -> None:
    index = FeatureIndex(["B1"], [box(5, 0, 6, 10)], ["blocking"])
    assert clear_line(index, (0, 10), (10, 10))


def test_the_index_only_returns_nearby_features() -> None:
    geoms = [box(i * 3, 0, i * 3 + 1, 1) for i in range(50)]
    index = FeatureIndex(list(range(50)), geoms, ["blocking"] * 50)
    assert index.query(box(0, 0, 4.5, 1)) == [0, 1]
    assert index.query(box(0, 0, 4.5, 1), distance=2.0) == [0, 1, 2]
