"""Bands along where rays end: the area within HALF of the ends of rays cast from a point,
where each ray (a bearing, degrees) ends at one point per side (a curve of ends each).

Each side's curve is shaded as a band HALF either side of the chords between the ends of
neighbouring rays, kept only where the end of the bearing between them lies on that chord
(so every point of a band is within HALF of where the ray aimed at it ends); where it
does not (an end that turns sharply with the bearing: a gap, a corner), the stretch is
halved, at most SPLITS times and within a bound on the rays cast. Ends at the apex itself
are shaded as a wedge HALF long between the two bearings. apskirmish shades a Traverse's
landings so (its reach, apskirmish.md 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from rules.geometry.cones import wedge

#: The band's half-width, and how many times a stretch between two rays is halved.
HALF = 0.001
SPLITS = 6

#: Where the ray along a bearing ends, one point per side; None where it has no end.
Ends = Callable[[float], Any]


def bearings_toward(
    apex: tuple[float, float], shapes: Sequence[Any], grow: float, step: float
) -> list[float]:
    """Bearings (degrees, increasing) every `step` whose rays meet `shapes` grown by
    `grow` (all of them where the grown shapes hold the apex)."""
    sx, sy = apex
    grown = shapely.union_all(list(shapes)).buffer(grow)
    grid = np.arange(0.0, 360.0, step)
    if grown.covers(Point(sx, sy)):
        return list(grid)
    # A grid bearing is kept when the ray along it meets the grown shapes.
    a = np.radians(grid)
    ends = zip(sx + 100 * np.cos(a), sy + 100 * np.sin(a), strict=True)
    rays = shapely.linestrings([[(sx, sy), end] for end in ends])
    return [float(b) for b in grid[shapely.intersects(rays, grown)]]


def ray_bands(
    apex: tuple[float, float],
    bearings: Sequence[float],
    landings: Sequence[Any],
    ends: Ends,
    sides: Sequence[int],
    gap: float,
    work: int,
) -> tuple[list[Any], bool]:
    """The bands of each side's curve of ends (`landings`: `ends` of each bearing),
    between neighbouring bearings at most `gap` apart, and whether the bound on the rays
    cast (`work` a side) stopped a halving (what is shaded is then sound but may leave
    ends out)."""
    pieces: list[Any] = []
    cut = False
    for side in sides:
        cast = [0, work]  # rays cast halving this side's chords, and the bound
        for k in range(len(bearings) - 1):
            a, b = landings[k], landings[k + 1]
            if a is None or b is None or bearings[k + 1] - bearings[k] > gap + 1e-9:
                continue
            if math.dist(a[side], apex) < 1e-9 and math.dist(b[side], apex) < 1e-9:
                ra, rb = math.radians(bearings[k]), math.radians(bearings[k + 1])
                pieces.append(Polygon(wedge(apex, HALF, ra, rb)))
                continue
            _chords(ends, side, bearings[k], bearings[k + 1], a, b, 0, pieces, cast)
        cut = cut or cast[0] >= cast[1]
    return pieces, cut


def _chords(
    ends: Ends,
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
    mid = ends(mid_b)
    cast[0] += 1
    if mid is None:
        return
    good = math.dist(pa, pb) <= 0.2 and LineString([pa, pb]).distance(Point(mid[side])) <= HALF / 4
    if not good:
        if depth < SPLITS and cast[0] < cast[1]:
            _chords(ends, side, b0, mid_b, a, mid, depth + 1, pieces, cast)
            _chords(ends, side, mid_b, b1, mid, b, depth + 1, pieces, cast)
        return
    # A point off the chord by w ends where its own ray meets the curve, w over the sine
    # of the angle they meet at away: the band keeps that within HALF.
    n = math.dist(pa, pb)
    cx, cy = (pb[0] - pa[0]) / n, (pb[1] - pa[1]) / n
    r = math.radians(mid_b)
    sine = abs(cx * math.sin(r) - cy * math.cos(r))
    if sine >= 0.2:  # else the rays graze the curve there
        pieces.append(LineString([pa, pb]).buffer(HALF * sine / 2, cap_style="flat"))
