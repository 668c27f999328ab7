"""Exact contact and clearance of a moving centre with polygons, along straight segments.

The centre moves as p0 + u * d (u in [0, 1]). It is within R of a polygon when it is
inside it or within R of an edge. Coming from outside it first reaches distance R at
the edge capsules (a rectangle along each edge and a disk at each corner), so the
first such u is the smallest entry into any of them: a Liang-Barsky clip for each
rectangle and a quadratic for each disk, vectorised over the edges (`first_within`).
Going out, the "within" intervals (capsules and the polygon's inside) are merged and
the run holding the current point ends where the centre gets clear (`first_beyond`).
Rotations do not move a centre. A circle base of radius r is within R of a feature
when its centre is within r + R, so this replaces sampling for circle bases.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.intervals import polygon_edges as _edges
from rules.geometry.track import Track


def _disk_roots(
    px: float, py: float, dx: float, dy: float, cx: Any, cy: Any, radius: float
) -> tuple[Any, Any]:
    """Roots u1 <= u2 of |p + u d - c| = R per centre c (nan when never within R)."""
    ax, ay = px - cx, py - cy
    a = dx * dx + dy * dy
    b = 2 * (ax * dx + ay * dy)
    c = ax * ax + ay * ay - radius * radius
    disc = b * b - 4 * a * c
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(disc)
        return (-b - root) / (2 * a), (-b + root) / (2 * a)


def _strip_intervals(
    px: float, py: float, dx: float, dy: float, e: Any, radius: float, u0: float
) -> tuple[Any, Any]:
    """Per edge, the u interval (clipped to [u0, 1]) inside its rectangle (0 <= along <= L,
    |across| <= R), by Liang-Barsky; empty when lo > hi."""
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
        within = (start >= low) & (start <= high)
        lo = np.maximum(lo, np.where(moving, np.minimum(ua, ub), np.where(within, -np.inf, np.inf)))
        hi = np.minimum(hi, np.where(moving, np.maximum(ua, ub), np.where(within, np.inf, -np.inf)))
    return lo, hi


def first_within(track: Track, polygon: Polygon, radius: float, after: float = 0.0) -> float | None:
    """First tau >= after where the centre comes within `radius` of the polygon."""
    e = _edges(polygon)
    todo = [(i, m) for i, m in enumerate(track.motions) if i + 1 > after and not m.is_rotation]
    if not todo:  # the centre stays where it is (no path, or turns only)
        here = track.pose_at(after)
        close = float(polygon.distance(shapely.Point(here.x, here.y))) <= radius
        return after if close else None
    # One vectorised distance per segment (from `after` on) tells which can come within R.
    starts = [
        (
            m.start.x + max(after - i, 0.0) * (m.end.x - m.start.x),
            m.start.y + max(after - i, 0.0) * (m.end.y - m.start.y),
        )
        for i, m in todo
    ]
    near = (
        shapely.distance(
            shapely.linestrings(
                [[s, (m.end.x, m.end.y)] for s, (_, m) in zip(starts, todo, strict=True)]
            ),
            polygon,
        )
        <= radius
    )
    for (i, m), close in zip(todo, near, strict=True):
        if not close:
            continue
        u0 = max(after - i, 0.0)
        px, py = m.start.x, m.start.y
        dx, dy = m.end.x - px, m.end.y - py
        if float(polygon.distance(shapely.Point(px + u0 * dx, py + u0 * dy))) <= radius:
            return i + u0
        lo, hi = _strip_intervals(px, py, dx, dy, e, radius, u0)
        u1, _ = _disk_roots(px, py, dx, dy, e[:, 0], e[:, 1], radius)
        cands = np.concatenate([np.where(lo <= hi, lo, np.inf), u1])
        cands = cands[(cands >= u0) & (cands <= 1)]
        if len(cands):
            return i + float(cands.min())
    return None


def _within_intervals(
    px: float, py: float, dx: float, dy: float, polygon: Polygon, radius: float
) -> list[tuple[float, float]]:
    """The u intervals of [0, 1] where the centre is within R of the polygon: edge
    rectangles, corner disks, and the inside of the polygon."""
    e = _edges(polygon)
    lo, hi = _strip_intervals(px, py, dx, dy, e, radius, 0.0)
    out = [(float(a), float(b)) for a, b in zip(lo, hi, strict=True) if a <= b]
    u1, u2 = _disk_roots(px, py, dx, dy, e[:, 0], e[:, 1], radius)
    out += [
        (max(float(a), 0.0), min(float(b), 1.0))
        for a, b in zip(u1, u2, strict=True)
        if a == a and a <= 1 and b >= 0
    ]  # a == a: not nan
    inside = shapely.intersection(shapely.LineString([(px, py), (px + dx, py + dy)]), polygon)
    d2 = dx * dx + dy * dy
    for part in getattr(inside, "geoms", [inside]):
        if part.geom_type == "LineString" and not part.is_empty:
            us = [((x - px) * dx + (y - py) * dy) / d2 for x, y in part.coords]
            out.append((min(us), max(us)))
    return out


def first_beyond(
    track: Track, polygons: list[Polygon], radius: float, after: float = 0.0
) -> float | None:
    """First tau >= after where the centre is farther than `radius` from every polygon:
    the end of the merged run of "within" intervals that holds the current point."""
    todo = [i for i, m in enumerate(track.motions) if i + 1 > after and not m.is_rotation]
    if not todo:  # the centre stays where it is
        here = shapely.Point(track.pose_at(after).xy)
        return after if all(float(p.distance(here)) > radius for p in polygons) else None
    # Segments lying inside one polygon (a move within a wood) need no intervals.
    segs = shapely.linestrings(
        [[track.pose_at(max(after, i)).xy, track.motions[i].end.xy] for i in todo]
    )
    inside = np.zeros(len(todo), dtype=bool)
    for p in polygons:
        inside |= shapely.covers(p, segs)
    for k, i in enumerate(todo):
        if inside[k]:
            continue
        m = track.motions[i]
        u0 = max(after - i, 0.0)
        px, py = m.start.x, m.start.y
        dx, dy = m.end.x - px, m.end.y - py
        ivs = sorted(iv for p in polygons for iv in _within_intervals(px, py, dx, dy, p, radius))
        end = u0
        for a, b in ivs:
            if a > end + 1e-12:
                break
            end = max(end, b)
        if end == u0 and not any(a <= u0 <= b for a, b in ivs):
            return i + u0  # already beyond
        if end < 1.0:
            return i + end
    return None
