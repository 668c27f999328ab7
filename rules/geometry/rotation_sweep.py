"""The exact area a rect base sweeps turning in place about its centre.

A rect is star-shaped about its centre: along each direction from the centre its edge
lies at a distance r(phi) that is largest at the corners (the half-diagonal d) and,
between two corners, has no maximum inside (the distance to an edge line grows away
from its foot). Turning by theta0..theta1 the swept area reaches, along direction phi,
the largest r over the window of angles the rect presents there: d when a corner
passes that direction, else the larger of the two ends. So the sweep is exactly the
start rect, the end rect and, for each corner, the sector of radius d its path covers
(a whole turn: the disk). This replaces thousands of sampled poses (AOD-D17 samples a
rotation in 0.005" corner steps) by a few polygons, for the verdicts that read the
swept area and for the prefilter that spares the sampled search far from a target.

Arcs are drawn outside the circle (edges tangent to it), so the polygons contain every
pose and exceed the true sweep by at most ARC_TOLERANCE.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.bases import rect_corners

#: How far the drawn arcs may lie outside the true circle, in inches (well inside the
#: 0.001" length tolerance, so a verdict that reads the sweep cannot tell).
ARC_TOLERANCE = 1e-5


def arc_step(radius: float) -> float:
    """The largest angle (radians) between arc vertices for ARC_TOLERANCE: a chord
    tangent at its middle lies radius / cos(step / 2) out at its ends."""
    if radius <= ARC_TOLERANCE:
        return math.pi / 2
    return 2 * math.acos(radius / (radius + ARC_TOLERANCE))


def _sector_ring(cx: float, cy: float, radius: float, start: float, turn: float) -> Any:
    """The ring of a polygon holding the sector from angle `start` through `turn`
    radians (signed), within ARC_TOLERANCE of it; the whole disk from a full turn on."""
    whole = abs(turn) >= 2 * math.pi
    span = 2 * math.pi if whole else abs(turn)
    n = max(1, math.ceil(span / arc_step(radius)))
    step = math.copysign(span / n, turn)
    out = radius / math.cos(step / 2)
    angles = start + step * np.arange(n if whole else n + 1)
    arc = np.column_stack([cx + out * np.cos(angles), cy + out * np.sin(angles)])
    return arc if whole else np.vstack([[cx, cy], arc])


def sector(cx: float, cy: float, radius: float, start: float, turn: float) -> Polygon:
    """The sector as a polygon (see _sector_ring)."""
    return shapely.polygons(_sector_ring(cx, cy, radius, start, turn))


def _turn_rings(
    x: float, y: float, facing0: float, facing1: float, width: float, length: float
) -> list[Any]:
    turn = math.radians(facing1 - facing0)
    d = math.hypot(width, length) / 2
    if abs(turn) >= 2 * math.pi:
        return [_sector_ring(x, y, d, 0.0, turn)]
    start = rect_corners(x, y, facing0, width, length)
    rings = [np.array(start), np.array(rect_corners(x, y, facing1, width, length))]
    rings += [_sector_ring(x, y, d, math.atan2(cy - y, cx - x), turn) for cx, cy in start]
    return rings


def rect_turn_sweep(
    x: float, y: float, facing0: float, facing1: float, width: float, length: float
) -> list[Polygon]:
    """The area a width x length rect centred on (x, y) sweeps turning from facing0 to
    facing1 degrees: both rects and the four corners' sectors (see the module doc)."""
    return [shapely.polygons(r) for r in _turn_rings(x, y, facing0, facing1, width, length)]


def rect_turn_sweeps(
    turns: Sequence[tuple[float, float, float, float]], width: float, length: float
) -> Any:
    """rect_turn_sweep for many turns (x, y, facing0, facing1) at once: an array of
    geometry collections, built in one call (a path may turn 32 times)."""
    if not turns:
        return np.array([], dtype=object)
    rings = [_turn_rings(*t, width, length) for t in turns]
    owner = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
    flat = [ring for rs in rings for ring in rs]
    ring_of = np.repeat(np.arange(len(flat)), [len(r) for r in flat])
    polygons = shapely.polygons(shapely.linearrings(np.vstack(flat), indices=ring_of))
    return shapely.geometrycollections(polygons, indices=owner)
