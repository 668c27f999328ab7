"""The visibility graph used by reach: shortest paths stay in free space."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from rules.geometry.visibility import VisibilityGraph, Work

#: No bound on the work: the whole budget is searched.
UNBOUNDED = Work(tests=10**9, corners=10**9)


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


def test_leaving_corners_only_along_tangents_keeps_every_distance(monkeypatch: Any) -> None:
    """Dijkstra leaves a corner only along lines that keep its neighbours on one side
    (a shortest path bends no other way): on a field of obstacles, every corner's
    distance is what the full visibility graph gives."""
    rng = random.Random(3)
    boxes = [
        box(x, y, x + rng.uniform(0.5, 3), y + rng.uniform(0.5, 3))
        for x, y in ((rng.uniform(2, 26), rng.uniform(2, 26)) for _ in range(25))
    ]
    free = box(0, 0, 30, 30).difference(unary_union(boxes))
    free = max(getattr(free, "geoms", [free]), key=lambda g: g.area)
    start = (1.0, 1.0)
    pruned = VisibilityGraph.build(free, start, 40, UNBOUNDED)
    monkeypatch.setattr(
        VisibilityGraph, "_tangent", lambda self, i, dx, dy: np.ones(len(dx), dtype=bool)
    )
    full = VisibilityGraph.build(free, start, 40, UNBOUNDED)
    assert pruned.nodes == full.nodes
    assert np.allclose(pruned.dist, full.dist, rtol=0, atol=1e-9)
    assert pruned.region().symmetric_difference(full.region()).area < 1e-9


def test_a_corner_poking_between_two_rays_leaves_no_unreachable_point_in_the_region() -> None:
    # "One truth on the board" (design.md): every point the region shades has a path.
    # A spike whose tip points at the start, its whole width between the start's rays at
    # 0 and 7.5 degrees: neither ray meets it, and the point just past its far side, in
    # the rays' wedge, is seen from no corner within the budget (found by an aod scene).
    def at(r: float, degrees: float) -> tuple[float, float]:
        return (r * math.cos(math.radians(degrees)), r * math.sin(math.radians(degrees)))

    spike = Polygon([at(3, 3.75), at(9.9, 3.0), at(9.9, 4.5)])
    free = box(-20, -20, 20, 20).difference(spike)
    g = VisibilityGraph.build(free, (0.0, 0.0), 10.0, UNBOUNDED)
    region = g.region()
    behind = at(9.95, 3.75)
    assert g.path_to(behind) is None
    assert not region.contains(Point(behind))
    x0, y0, x1, y1 = region.bounds
    for i in range(41):
        for k in range(41):
            p = (x0 + (x1 - x0) * i / 40, y0 + (y1 - y0) * k / 40)
            if region.contains(Point(p)):
                assert g.path_to(p) is not None, p
