"""The visibility graph used by reach: shortest paths stay in free space."""

from __future__ import annotations

import math

from shapely.geometry import LineString, box

from rules.geometry.visibility import VisibilityGraph


def test_shortest_path_goes_around_an_obstacle_corner() -> None:
    free = box(0, 0, 20, 20).difference(box(8, 0, 10, 15))
    g = VisibilityGraph.build(free, (5, 5), 30)
    path = g.path_to((15, 5))
    assert path is not None
    assert (8.0, 15.0) in path or (10.0, 15.0) in path
    for a, b in zip(path[:-1], path[1:], strict=True):
        assert free.covers(LineString([a, b]))


def test_points_beyond_the_budget_have_no_path() -> None:
    free = box(0, 0, 20, 20)
    g = VisibilityGraph.build(free, (1, 1), 5)
    assert g.path_to((10, 10)) is None
    path = g.path_to((4, 4))
    assert path is not None and math.dist(path[0], path[-1]) <= 5


def test_the_region_stays_inside_free_space_and_the_budget() -> None:
    free = box(0, 0, 20, 20).difference(box(8, 0, 10, 15))
    g = VisibilityGraph.build(free, (5, 5), 6)
    region = g.region()
    assert free.buffer(1e-6).covers(region)
    assert region.bounds[2] <= 11.0 + 1e-6
