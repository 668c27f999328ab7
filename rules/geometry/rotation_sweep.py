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

from rules.geometry.bases import bodies_at, rect_corners
from rules.geometry.tolerance import ROTATION_STEP
from rules.model.state import BaseShape

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
    t = np.asarray(turns, dtype=float)
    x, y, f0, f1 = t.T
    turn = np.radians(f1 - f0)
    whole = np.abs(turn) >= 2 * math.pi
    d = math.hypot(width, length) / 2
    # Both rects of each turn (corners as rect_corners orders them).
    rects = [_corners(x, y, f, width, length) for f in (f0, f1)]
    # Each corner's sector: the centre, then n + 1 points on the drawn arc.
    n = np.maximum(1, np.ceil(np.abs(turn) / arc_step(d))).astype(np.intp)
    step = turn / n
    out = d / np.cos(step / 2)
    corner = np.arctan2(rects[0][:, :, 1] - y[:, None], rects[0][:, :, 0] - x[:, None])
    sec = np.repeat(np.arange(4 * len(t)), np.repeat(n + 2, 4))  # ring of each point
    owner = sec // 4
    j = np.arange(len(sec)) - np.repeat(
        np.cumsum(np.repeat(n + 2, 4)) - np.repeat(n + 2, 4), np.repeat(n + 2, 4)
    )
    angle = corner.ravel()[sec] + (j - 1) * step[owner]
    radius = np.where(j == 0, 0.0, out[owner])
    pts = np.column_stack([x[owner] + radius * np.cos(angle), y[owner] + radius * np.sin(angle)])
    sectors = shapely.polygons(shapely.linearrings(pts, indices=sec))
    parts = np.concatenate([shapely.polygons(rects[0]), shapely.polygons(rects[1]), sectors])
    owners = np.concatenate([np.arange(len(t)), np.arange(len(t)), np.repeat(np.arange(len(t)), 4)])
    order = np.argsort(owners, kind="stable")
    swept = shapely.geometrycollections(parts[order], indices=owners[order])
    for k in np.nonzero(whole)[0].tolist():  # a whole turn: the disk
        swept[k] = shapely.geometrycollections(
            [shapely.polygons(_sector_ring(x[k], y[k], d, 0.0, turn[k]))]
        )
    return swept


def _corners(xs: Any, ys: Any, facings: Any, width: float, length: float) -> Any:
    """rect_corners for arrays of centres and facings: a (k, 4, 2) array."""
    a = np.radians(facings)
    fx, fy = np.cos(a) * length / 2, np.sin(a) * length / 2
    sx, sy = -np.sin(a) * width / 2, np.cos(a) * width / 2
    cx = np.stack([xs + fx + sx, xs - fx + sx, xs - fx - sx, xs + fx - sx], axis=1)
    cy = np.stack([ys + fy + sy, ys - fy + sy, ys - fy - sy, ys + fy - sy], axis=1)
    return np.stack([cx, cy], axis=2)


def rect_turn_gaps(
    base: BaseShape, xy: tuple[float, float], start: float, end: float, shape: Any
) -> Any:
    """The gaps from `shape` to a rect base turning in place at `xy` from facing `start`
    to `end` (degrees), at poses every ROTATION_STEP of corner travel, ends included."""
    sweep = math.radians(abs(end - start)) * base.radius
    n = max(2, math.ceil(sweep / ROTATION_STEP))
    angles = np.linspace(start, end, n + 1)
    xs, ys = np.full(n + 1, xy[0]), np.full(n + 1, xy[1])
    cores, _ = bodies_at(base, xs, ys, angles)
    return shapely.distance(cores, shape)
