"""Terrain under a centre path when the governing feature is chosen from the whole set.

`intervals.intervals_under` ranks features one against another. Some systems' overlap
rules cannot be written as a rank: lasergrenadiers lets a bridge override a river and
then takes the lowest multiplier of what is left (LG-D25), so a river beats a wall, a
wall beats a bridge, and a bridge beats a river. Here the caller's `govern` sees every
feature that holds a piece and returns the one that governs it (None: open ground).
Cut points and classification are those of `intervals` (midpoints, boundary included).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.intervals import BOUNDARY, Interval, crossings

T = TypeVar("T")

#: Chooses the governing feature among those that cover a piece (never given an empty list).
Govern = Callable[[Sequence[T]], T | None]


def governed_intervals(p0: tuple[float, float], p1: tuple[float, float],
                       features: Sequence[tuple[T, Polygon]],
                       govern: Govern[T]) -> list[Interval[T]]:
    """The segment p0 -> p1 cut at every boundary of `features`, each piece governed by
    `govern` of the features whose interior holds it (None: no feature)."""
    if not features:
        return [Interval(0.0, 1.0, None)]
    cuts = np.unique(np.concatenate([[0.0, 1.0]] + [crossings(p0, p1, poly)
                                                     for _, poly in features]))
    mids = (cuts[:-1] + cuts[1:]) / 2
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


def governed_feature_at(x: float, y: float, features: Sequence[tuple[T, Polygon]],
                        govern: Govern[T]) -> T | None:
    """The governing feature among those whose polygon covers (x, y) (boundary included)."""
    point = shapely.Point(x, y)
    covering = [f for f, poly in features if shapely.dwithin(poly, point, BOUNDARY)]
    return govern(covering) if covering else None
