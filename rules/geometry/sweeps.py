"""Exact first contact of a moving circle with a polygon, along straight segments.

The centre moves as p0 + u * d (u in [0, 1]). It is within R of the polygon when it
is inside it or within R of an edge; coming from outside it first reaches distance R
at the edge capsules (a rectangle along the edge and a disk at each end), so the
first such u is the smallest entry into any of them: a quadratic for each disk and a
Liang-Barsky clip for each rectangle, vectorised over the edges. Rotations do not
move a centre. This replaces sampling for circle bases against terrain.
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.track import Track

_EDGES: weakref.WeakKeyDictionary[Polygon, Any] = weakref.WeakKeyDictionary()


def _edges(polygon: Polygon) -> Any:
    """Every ring's segments as an (n, 4) array, built once per polygon."""
    found = _EDGES.get(polygon)
    if found is None:
        rows = [np.hstack([c[:-1], c[1:]]) for c in
                (shapely.get_coordinates(r) for r in shapely.get_rings(polygon))]
        found = _EDGES[polygon] = np.vstack(rows)
    return found


def _disk_entry(px: float, py: float, dx: float, dy: float, cx: Any, cy: Any,
                radius: float) -> Any:
    """Smaller root of |p + u d - c| = R per centre c (inf when never within R)."""
    ax, ay = px - cx, py - cy
    a = dx * dx + dy * dy
    b = 2 * (ax * dx + ay * dy)
    c = ax * ax + ay * ay - radius * radius
    disc = b * b - 4 * a * c
    with np.errstate(invalid="ignore", divide="ignore"):
        root = (-b - np.sqrt(disc)) / (2 * a)
    return np.where(disc >= 0, root, np.inf)


def _strip_entry(px: float, py: float, dx: float, dy: float, e: Any, radius: float,
                 u0: float) -> Any:
    """Entry u into each edge's rectangle (0 <= along <= L, |across| <= R), clipped to
    [u0, 1] (Liang-Barsky); inf when the segment misses it."""
    ex, ey = e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]
    length = np.hypot(ex, ey)
    tx, ty = ex / np.maximum(length, 1e-300), ey / np.maximum(length, 1e-300)
    wx, wy = px - e[:, 0], py - e[:, 1]
    x0, xd = wx * tx + wy * ty, dx * tx + dy * ty
    y0, yd = -wx * ty + wy * tx, -dx * ty + dy * tx
    lo = np.full(len(e), u0)
    hi = np.ones(len(e))
    for start, rate, low, high in ((x0, xd, 0.0, length), (y0, yd, -radius, radius)):
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            ua = (low - start) / rate
            ub = (high - start) / rate
        moving = rate != 0
        enter = np.where(moving, np.minimum(ua, ub), np.where(
            (start >= low) & (start <= high), -np.inf, np.inf))
        leave = np.where(moving, np.maximum(ua, ub), np.where(
            (start >= low) & (start <= high), np.inf, -np.inf))
        lo = np.maximum(lo, enter)
        hi = np.minimum(hi, leave)
    return np.where(lo <= hi, lo, np.inf)


def first_within(track: Track, polygon: Polygon, radius: float,
                 after: float = 0.0) -> float | None:
    """First tau >= after where the centre comes within `radius` of the polygon."""
    e = _edges(polygon)
    todo = [(i, m) for i, m in enumerate(track.motions)
            if i + 1 > after and not m.is_rotation]
    if not todo:  # the centre stays where it is (no path, or turns only)
        here = track.pose_at(after)
        close = float(polygon.distance(shapely.Point(here.x, here.y))) <= radius
        return after if close else None
    # One vectorised distance per segment (from `after` on) tells which can come within R.
    starts = [(m.start.x + max(after - i, 0.0) * (m.end.x - m.start.x),
               m.start.y + max(after - i, 0.0) * (m.end.y - m.start.y)) for i, m in todo]
    near = shapely.distance(shapely.linestrings(
        [[s, (m.end.x, m.end.y)] for s, (_, m) in zip(starts, todo, strict=True)]),
        polygon) <= radius
    for (i, m), close in zip(todo, near, strict=True):
        if not close:
            continue
        u0 = max(after - i, 0.0)
        px, py = m.start.x, m.start.y
        dx, dy = m.end.x - px, m.end.y - py
        if float(polygon.distance(shapely.Point(px + u0 * dx, py + u0 * dy))) <= radius:
            return i + u0
        cands = [_strip_entry(px, py, dx, dy, e, radius, u0),
                 _disk_entry(px, py, dx, dy, e[:, 0], e[:, 1], radius)]
        u = min(float(np.min(np.where((c >= u0) & (c <= 1), c, np.inf))) for c in cands)
        if math.isfinite(u):
            return i + u
    return None
