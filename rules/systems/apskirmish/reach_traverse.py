"""Reach of `traverse` (004 Obstacles, 004 Size Restrictions; apskirmish.md 5, APS-D6,
APS-D7, APS-D20, APS-D31).

A Traverse goes along the ray from the centre through its one point and lands where the
base, having begun to overlap obstacles, first overlaps none (t2), when the obstacle met
first lies within 1" of the base and the landing is free; a failed roll stops it where
the base first touches the obstacle (t1; a failure paid with Threshold lands at t2).
Its ends are two curves, one point each per direction: the shaded area is a band 0.001"
either side of them (positions compare within 0.001"), drawn between the ends of
neighbouring rays STEP apart, kept only where the end of the direction between them lies
on that chord (so every point of the band is within 0.001" of where a traverse aimed at
it ends). Rays are cast only toward the obstacles within reach; `path_to` gives the one
point, the direction.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from rules.engine.reach import Reach
from rules.geometry.cones import wedge
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.traverse import traverse_way

#: Bearing between rays, in degrees, and the band's half-width.
STEP = 6.0
HALF = 0.001


def traverse_reach(pos: ApsPosition, unit: Unit) -> Reach:
    start = unit.position
    # The obstacles within 1" (APS-D6): the template asks only where one is (`may_take`).
    near = pos.within_traverse_reach(unit)
    bearings = _bearings(unit, near, STEP if unit.base.is_circle else 2 * STEP)
    landings = [_landing(pos, unit, b) for b in bearings]
    pieces: list[Any] = []
    cut = False
    for side in (1, 0):  # where it lands beyond (success), where it stops short (failure)
        cast = [0, _work(unit) // 2]  # rays cast halving this side's chords, and the bound
        for k in range(len(bearings) - 1):
            a, b = landings[k], landings[k + 1]
            if a is None or b is None or bearings[k + 1] - bearings[k] > 2 * STEP + 1e-9:
                continue
            if math.dist(a[side], start) < 1e-9 and math.dist(b[side], start) < 1e-9:
                # Already touching: a failure stays put (APS-D21). The few thousandths
                # round the start toward these bearings.
                ra, rb = math.radians(bearings[k]), math.radians(bearings[k + 1])
                pieces.append(Polygon(wedge(start, HALF, ra, rb)))
                continue
            _chords(pos, unit, side, bearings[k], bearings[k + 1], a, b, 0, pieces, cast)
        cut = cut or cast[0] >= cast[1]
    # Where the bound on rays cast stopped the halving, what is shaded is sound but may
    # leave ends out: the reach says so (exact to no length, as for a type not shaded).
    cut_at = 0.0 if cut else None
    if not pieces:
        return Reach(unit.id, "traverse", shapely.GeometryCollection(), 0.0, lambda p: None, cut_at)
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


#: How many times a stretch between two rays is halved where its chord misses the ends
#: between (a landing that turns sharply with the bearing: a gap, a corner), and how many
#: rays one reach casts in all.
SPLITS = 6
WORK = 60


def _work(unit: Unit) -> int:
    """The bound on rays cast: a rect base's crossing costs several times a round one's."""
    return WORK if unit.base.is_circle else WORK // 3


def _chords(
    pos: ApsPosition,
    unit: Unit,
    side: int,
    b0: float,
    b1: float,
    a: Any,
    b: Any,
    depth: int,
    pieces: list[Any],
    cast: list[int],
) -> None:
    """Bands along the chords of the ends between bearings b0 and b1 (ends a and b)."""
    pa, pb = a[side], b[side]
    if a is None or b is None or math.dist(pa, pb) < 1e-9:
        return
    mid_b = (b0 + b1) / 2
    if cast[0] >= cast[1]:
        return
    mid = _landing(pos, unit, mid_b)
    cast[0] += 1
    if mid is None:
        return
    good = math.dist(pa, pb) <= 0.2 and LineString([pa, pb]).distance(Point(mid[side])) <= HALF / 4
    if not good:
        if depth < SPLITS and cast[0] < cast[1]:
            _chords(pos, unit, side, b0, mid_b, a, mid, depth + 1, pieces, cast)
            _chords(pos, unit, side, mid_b, b1, mid, b, depth + 1, pieces, cast)
        return
    # A point off the chord by w ends where its own ray meets the curve, w over the sine
    # of the angle they meet at away: the band keeps that within HALF.
    n = math.dist(pa, pb)
    cx, cy = (pb[0] - pa[0]) / n, (pb[1] - pa[1]) / n
    r = math.radians(mid_b)
    sine = abs(cx * math.sin(r) - cy * math.cos(r))
    if sine >= 0.2:  # else the rays graze the curve there
        pieces.append(LineString([pa, pb]).buffer(HALF * sine / 2, cap_style="flat"))


def _bearings(unit: Unit, near: list[Any], step: float) -> list[float]:
    """Bearings (degrees, increasing) every STEP whose rays meet the obstacles within
    reach grown by the base (all of them where the base already touches one)."""
    sx, sy = unit.position
    grown = shapely.union_all([t.shape for t in near]).buffer(unit.base.radius + 0.05)
    grid = np.arange(0.0, 360.0, step)
    if grown.covers(Point(sx, sy)):
        return list(grid)
    # A grid bearing is kept when the ray along it meets the grown shapes.
    a = np.radians(grid)
    ends = zip(sx + 100 * np.cos(a), sy + 100 * np.sin(a), strict=True)
    rays = shapely.linestrings([[(sx, sy), end] for end in ends])
    return [float(b) for b in grid[shapely.intersects(rays, grown)]]


def _landing(
    pos: ApsPosition, unit: Unit, bearing: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """`_landed`, once per position, unit and bearing."""
    memo: dict[tuple[str, float], Any] = pos.__dict__.setdefault("_aps_landings", {})
    key = (unit.id, round(bearing, 9))
    if key not in memo:
        memo[key] = _landed(pos, unit, bearing)
    return memo[key]  # type: ignore[no-any-return]


def _landed(
    pos: ApsPosition, unit: Unit, bearing: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where a traverse along `bearing` stops on a failed roll (t1, the near side) and
    lands on a success (t2), or None when it is refused (traverse.py)."""
    a = math.radians(bearing)
    way = traverse_way(pos, unit, (math.cos(a), math.sin(a)))
    if way is None or way.far is None or not way.lands:
        return None
    return way.crossing.pose_at(way.crossing.near).xy, way.far.xy
