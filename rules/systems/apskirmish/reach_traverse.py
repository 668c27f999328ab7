"""Reach of `traverse` (004 Obstacles, 004 Size Restrictions; apskirmish.md 5, APS-D6,
APS-D7, APS-D20, APS-D31).

A Traverse goes along the ray from the centre through its one point and lands where the
base, having begun to overlap obstacles, first overlaps none (t2), when the obstacle met
first lies within 1" of the base and the landing is free; a failed roll stops it where
the base first touches the obstacle (t1; a failure paid with Threshold lands at t2).
Its ends are two curves, one point each per direction: the shaded area is a band 0.001"
either side of them (positions compare within 0.001"; rules/geometry/ray_bands.py), of
rays STEP apart cast only toward the obstacles within reach; `path_to` gives the one
point, the direction.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point

from rules.engine.reach import Reach, no_ends
from rules.geometry.ray_bands import HALF, bearings_toward, ray_bands
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.traverse import traverse_way

#: Bearing between rays, in degrees, and how many rays one reach casts in all.
STEP = 6.0
WORK = 60


def traverse_reach(pos: ApsPosition, unit: Unit) -> Reach:
    start = unit.position
    # The obstacles within 1" (APS-D6): the template asks only where one is (`may_take`).
    near = [t.shape for t in pos.within_traverse_reach(unit)]
    step = STEP if unit.base.is_circle else 2 * STEP
    bearings = bearings_toward(start, near, unit.base.radius + 0.05, step)
    landings = [_landing(pos, unit, b) for b in bearings]
    # Where it lands beyond (success), where it stops short (failure); already touching,
    # a failure stays put (APS-D21), and the few thousandths round the start. A rect
    # base's crossing costs several times a round one's: it casts fewer rays.
    work = (WORK if unit.base.is_circle else WORK // 3) // 2
    pieces, cut = ray_bands(
        start, bearings, landings, lambda b: _landing(pos, unit, b), (1, 0), 2 * STEP, work
    )
    # Where the bound on rays cast stopped the halving, what is shaded is sound but may
    # leave ends out: the reach says so (exact to no length, as for a type not shaded).
    cut_at = 0.0 if cut else None
    if not pieces:
        return no_ends(unit.id, "traverse", cut_at=cut_at)
    area = shapely.union_all(pieces)
    shapely.prepare(area)
    tol = HALF + 0.0009  # an alternative's end is rounded to thousandths

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        if area.distance(Point(p)) > tol:
            return None
        if math.dist(p, start) <= HALF + 1e-9:
            # Round the start: the bearing of a piece that holds it.
            for k in range(len(bearings)):
                land = landings[k]
                if land is not None and math.dist(land[0], start) < 1e-9:
                    r = math.radians(bearings[k])
                    return [start, (start[0] + math.cos(r), start[1] + math.sin(r))]
            return None
        bearing = math.degrees(math.atan2(p[1] - start[1], p[0] - start[0]))
        land = _landing(pos, unit, bearing)
        if land is None or min(math.dist(land[0], p), math.dist(land[1], p)) > tol + HALF:
            return None
        return [start, (float(p[0]), float(p[1]))]

    return Reach(unit.id, "traverse", area, 0.0, path_to, cut_at)


def _landing(
    pos: ApsPosition, unit: Unit, bearing: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where a traverse along `bearing` stops on a failed roll (t1, the near side) and
    lands on a success (t2), or None when it is refused (traverse.py); once per
    position, unit and bearing."""
    memo: dict[tuple[str, float], Any] = pos.__dict__.setdefault("_aps_landings", {})
    key = (unit.id, round(bearing, 9))
    if key not in memo:
        a = math.radians(bearing)
        way = traverse_way(pos, unit, (math.cos(a), math.sin(a)))
        memo[key] = None
        if way is not None and way.far is not None and way.lands:
            memo[key] = way.crossing.pose_at(way.crossing.near).xy, way.far.xy
    return memo[key]  # type: ignore[no-any-return]
