"""Terrain under a centre path: a straight segment cut into intervals at polygon boundaries.

Each interval carries the feature that governs it: among the polygons whose interior
holds the interval, the one the caller ranks highest (a system's overlap precedence,
e.g. "the most expensive row applies"), or None for open ground. Cut points are the
segment's crossings with every polygon edge (numpy, no shapely overlay), and each
piece is classified by its midpoint, so a straight segment split at a collinear point
gives the same intervals (only the parameters change).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.segments import ray_crossings, ring_segments

T = TypeVar("T")

#: Distance within which a point counts as on a polygon (boundary included).
BOUNDARY = 1e-7

_EDGES: weakref.WeakKeyDictionary[Polygon, Any] = weakref.WeakKeyDictionary()


def polygon_edges(polygon: Polygon) -> Any:
    """Every ring's segments as an (n, 4) array [x0, y0, x1, y1], built once per polygon."""
    found = _EDGES.get(polygon)
    if found is None:
        found = _EDGES[polygon] = ring_segments(polygon)
    return found


def crossings(p0: tuple[float, float], p1: tuple[float, float], polygon: Polygon) -> Any:
    """Parameters u in (0, 1) where the segment p0 -> p1 meets the polygon's boundary."""
    e = polygon_edges(polygon)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    ex, ey = e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]
    wx, wy = e[:, 0] - p0[0], e[:, 1] - p0[1]
    u, v, den = ray_crossings(wx, wy, ex, ey, dx, dy)
    ok = (np.abs(den) > 1e-15) & (u > 1e-12) & (u < 1 - 1e-12) & (v >= -1e-12) & (v <= 1 + 1e-12)
    found = u[ok]
    # Collinear edges: their end points are where the segment may enter or leave.
    col = np.abs(den) <= 1e-15
    if col.any():
        length2 = dx * dx + dy * dy
        for x, y in np.concatenate([e[col, :2], e[col, 2:]]):
            t = ((x - p0[0]) * dx + (y - p0[1]) * dy) / length2
            if 1e-12 < t < 1 - 1e-12 and abs((x - p0[0]) * dy - (y - p0[1]) * dx) < 1e-9:
                found = np.append(found, t)
    return found


class Interval(Generic[T]):
    """A piece [start, end] of a segment (parameters in [0, 1]) and its governing feature."""

    __slots__ = ("start", "end", "feature")

    def __init__(self, start: float, end: float, feature: T | None) -> None:
        self.start = start
        self.end = end
        self.feature = feature

    def __repr__(self) -> str:
        return f"Interval({self.start:.4f}, {self.end:.4f}, {self.feature!r})"


#: Chooses the governing feature among those that cover a piece (never given an empty list).
Govern = Callable[[Sequence[T]], T | None]


def highest(rank: Callable[[T], Any]) -> Govern[T]:
    """The feature `rank` puts highest governs (the first of equals)."""
    return lambda covering: max(covering, key=rank)


def intervals_under(
    p0: tuple[float, float],
    p1: tuple[float, float],
    features: Sequence[tuple[T, Polygon]],
    rank: Callable[[T], Any],
) -> list[Interval[T]]:
    """The segment p0 -> p1 (parameter 0..1) cut at every boundary of `features`, each
    piece governed by the highest-ranked feature whose interior holds it (None: no
    feature)."""
    return governed_intervals(p0, p1, features, highest(rank))


def governed_intervals(
    p0: tuple[float, float],
    p1: tuple[float, float],
    features: Sequence[tuple[T, Polygon]],
    govern: Govern[T],
) -> list[Interval[T]]:
    """The segment p0 -> p1 cut at every boundary of `features`, each piece governed by
    `govern` of the features whose interior holds it (None: no feature)."""
    if not features:
        return [Interval(0.0, 1.0, None)]
    cuts = np.unique(
        np.concatenate([[0.0, 1.0]] + [crossings(p0, p1, poly) for _, poly in features])
    )
    mids = (cuts[:-1] + cuts[1:]) / 2
    # A piece running along a boundary belongs to the polygon (within BOUNDARY): float
    # noise must not decide whether a path that follows an edge is in or out.
    points = shapely.points(p0[0] + (p1[0] - p0[0]) * mids, p0[1] + (p1[1] - p0[1]) * mids)
    inside = [shapely.dwithin(poly, points, BOUNDARY) for _, poly in features]
    out: list[Interval[T]] = []
    for k in range(len(mids)):
        covering = [f for (f, _), flags in zip(features, inside, strict=True) if flags[k]]
        best = govern(covering) if covering else None
        if out and out[-1].feature is best:
            out[-1].end = float(cuts[k + 1])
        else:
            out.append(Interval(float(cuts[k]), float(cuts[k + 1]), best))
    return out


def feature_at(
    x: float, y: float, features: Sequence[tuple[T, Polygon]], rank: Callable[[T], Any]
) -> T | None:
    """The highest-ranked feature whose polygon covers (x, y) (boundary included)."""
    return governed_feature_at(x, y, features, highest(rank))


def governed_feature_at(
    x: float, y: float, features: Sequence[tuple[T, Polygon]], govern: Govern[T]
) -> T | None:
    """The governing feature among those whose polygon covers (x, y) (boundary included)."""
    point = shapely.Point(x, y)
    covering = [f for f, poly in features if shapely.dwithin(poly, point, BOUNDARY)]
    return govern(covering) if covering else None
