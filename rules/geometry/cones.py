"""Cones from a point: how far each wedge of directions goes before it meets an area.

A cone (the wedge between two bearings from an apex) is shaded to the radius at which it
first meets the blocked area, or at which an edge ray leaves a box: every straight line
from the apex inside the shaded triangle then stays clear of the area, with no margin.
Cones are split where an edge ray goes further than the cone (a gap, or a tangent pass
between two shapes), down to DEPTH levels, within a bound on the cones cast (WORK), so
that narrow passages are found where they are. apskirmish shades a straight move's ends
so (its reach, apskirmish.md 3-4): cones from the centre against what the swept base may
not meet, and from the front against what the line of movement may not cross.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from rules.geometry.segments import ray_crossings, ring_segments

#: First cones, the split factor, how deep splits go, and how many cones one reach casts.
CONES = 240
SPLIT = 4
DEPTH = 5
WORK = 4000


@dataclass(frozen=True)
class Stars:
    """Star-shaped areas around a point: per cone (its two bearings), how far it goes."""

    apex: tuple[float, float]
    a0: Any
    a1: Any
    rho: Any

    def area(self, cap: float | None = None) -> Any:
        """The union of the cones' triangles, built as one star polygon: around the apex,
        each cone's two far corners in turn (a cone of no length adds the apex)."""
        rho = self.rho if cap is None else np.minimum(self.rho, cap)
        if not (rho > 1e-6).any():
            return Polygon()
        order = np.argsort(self.a0)
        a0, a1, r = self.a0[order], self.a1[order], np.where(rho[order] > 1e-6, rho[order], 0.0)
        x, y = self.apex
        xs = np.stack([x + r * np.cos(a0), x + r * np.cos(a1)], axis=1).ravel()
        ys = np.stack([y + r * np.sin(a0), y + r * np.sin(a1)], axis=1).ravel()
        pts = np.stack([xs, ys], axis=1)
        same = np.r_[False, np.all(np.abs(np.diff(pts, axis=0)) < 1e-12, axis=1)]
        pts = pts[~same]
        if len(pts) < 3:
            return Polygon()
        star = Polygon(pts)
        if not star.is_valid:
            star = shapely.make_valid(star)
            star = shapely.union_all(
                [
                    g
                    for g in getattr(star, "geoms", [star])
                    if g.geom_type in ("Polygon", "MultiPolygon")
                ]
            )
        return star


def stars(
    apex: tuple[float, float],
    length: float,
    blocked: Any,
    box: tuple[float, float, float, float] | None,
) -> Stars:
    """How far each cone from `apex` goes, within `length`, before it meets `blocked`
    (None: nothing) or its edge rays leave `box`; cones split where an edge ray goes
    further than the cone."""
    n0 = CONES
    a0 = 2 * math.pi * np.arange(n0) / n0
    a1 = 2 * math.pi * (np.arange(n0) + 1) / n0
    depth = np.zeros(n0, dtype=int)
    edges = _edges(blocked, apex, length)
    done_a0: list[Any] = []
    done_a1: list[Any] = []
    done_rho: list[Any] = []
    cast = 0
    while len(a0):
        cast += len(a0)
        rho, edge = _cone_lengths(apex, a0, a1, length, blocked, box, edges)
        split = (depth < DEPTH) & (edge > rho + 0.02) & (cast + SPLIT * len(a0) <= WORK)
        keep = ~split
        done_a0.append(a0[keep])
        done_a1.append(a1[keep])
        done_rho.append(rho[keep])
        if not split.any():
            break
        s0, s1, d = a0[split], a1[split], depth[split] + 1
        parts = np.arange(SPLIT)
        width = (s1 - s0)[:, None] / SPLIT
        a0 = (s0[:, None] + parts[None, :] * width).ravel()
        a1 = (s0[:, None] + (parts[None, :] + 1) * width).ravel()
        depth = np.repeat(d, SPLIT)
    return Stars(apex, np.concatenate(done_a0), np.concatenate(done_a1), np.concatenate(done_rho))


def _edges(blocked: Any, apex: tuple[float, float], length: float) -> Any:
    """The boundary segments of `blocked` that come within `length` of `apex`, as an
    (n, 4) array (none: None)."""
    if blocked is None or blocked.is_empty:
        return None
    e = ring_segments(blocked)
    x, y = apex
    lox, hix = np.minimum(e[:, 0], e[:, 2]), np.maximum(e[:, 0], e[:, 2])
    loy, hiy = np.minimum(e[:, 1], e[:, 3]), np.maximum(e[:, 1], e[:, 3])
    near = (lox <= x + length) & (hix >= x - length) & (loy <= y + length) & (hiy >= y - length)
    return e[near]


def _ray_hits(x: float, y: float, c: Any, s: Any, e: Any, length: float) -> Any:
    """Per ray (direction c, s from (x, y)), the distance to its first crossing of a
    segment of `e`, or `length`."""
    out = np.full(len(c), float(length))
    if e is None or not len(e):
        return out
    ex, ey = e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]
    for k in range(0, len(c), 512):
        cc, ss = c[k : k + 512, None], s[k : k + 512, None]
        wx, wy = e[None, :, 0] - x, e[None, :, 1] - y
        t, u, den = ray_crossings(wx, wy, ex[None, :], ey[None, :], cc, ss)
        hit = (np.abs(den) > 1e-15) & (t >= 0) & (u >= -1e-12) & (u <= 1 + 1e-12)
        out[k : k + 512] = np.minimum(out[k : k + 512], np.where(hit, t, np.inf).min(axis=1))
    return out


def _cone_lengths(
    apex: tuple[float, float],
    a0: Any,
    a1: Any,
    length: float,
    blocked: Any,
    box: tuple[float, float, float, float] | None,
    edges: Any = None,
) -> tuple[Any, Any]:
    """Per cone, how far it goes (its sector clear of `blocked`, whose boundary segments
    near the apex are `edges`; its edge rays in `box`) and how far its longer edge ray
    goes. The nearest point of `blocked` in a cone is where an edge ray first meets it
    or a segment's point nearest the apex, when that lies in the cone."""
    x, y = apex
    c0, s0, c1, s1 = np.cos(a0), np.sin(a0), np.cos(a1), np.sin(a1)
    edge0 = np.full(len(a0), float(length))
    edge1 = np.full(len(a0), float(length))
    if box is not None:
        edge0 = np.minimum(edge0, exits(x, y, c0, s0, box))
        edge1 = np.minimum(edge1, exits(x, y, c1, s1, box))
    rho = np.minimum(edge0, edge1)
    if edges is None or not len(edges):
        return rho, np.maximum(edge0, edge1)
    if shapely.contains_xy(blocked, x, y):
        zero = np.zeros(len(a0))
        return zero, zero
    h0 = _ray_hits(x, y, c0, s0, edges, length)
    h1 = _ray_hits(x, y, c1, s1, edges, length)
    edge0, edge1 = np.minimum(edge0, h0), np.minimum(edge1, h1)
    rho = np.minimum(rho, np.minimum(h0, h1))
    # Each segment's point nearest the apex, and the cone that holds its bearing.
    px, py = edges[:, 0], edges[:, 1]
    dx, dy = edges[:, 2] - px, edges[:, 3] - py
    n2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip(((x - px) * dx + (y - py) * dy) / n2, 0.0, 1.0)
    t = np.nan_to_num(t)
    qx, qy = px + t * dx - x, py + t * dy - y
    d = np.hypot(qx, qy)
    bearing = np.mod(np.arctan2(qy, qx), 2 * math.pi)
    order = np.argsort(a0)
    starts = a0[order]
    slot = np.searchsorted(starts, bearing, side="right") - 1
    slot = np.where(slot < 0, len(starts) - 1, slot)
    inside = bearing <= a1[order][slot] + 1e-12
    best = np.full(len(a0), np.inf)
    np.minimum.at(best, order[slot[inside]], d[inside])
    return np.minimum(rho, best), np.maximum(edge0, edge1)


def exits(x: float, y: float, c: Any, s: Any, box: tuple[float, float, float, float]) -> Any:
    """How far from (x, y) along (c, s) before leaving `box` (0 when outside it)."""
    x0, y0, x1, y1 = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return np.zeros(len(c))
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(c > 1e-12, (x1 - x) / c, np.where(c < -1e-12, (x0 - x) / c, np.inf))
        ty = np.where(s > 1e-12, (y1 - y) / s, np.where(s < -1e-12, (y0 - y) / s, np.inf))
    return np.maximum(np.minimum(tx, ty), 0.0)


def wedge(apex: tuple[float, float], radius: float, a0: float, a1: float) -> list[Any]:
    """A cone's triangle: the apex and the points `radius` from it along bearings a0 and a1
    (radians)."""
    x, y = apex
    return [apex, *((x + radius * math.cos(a), y + radius * math.sin(a)) for a in (a0, a1))]


def at_bearings(stars_: Stars, a0: Any, a1: Any) -> Any:
    """Per cone (a0, a1), the least radius of the `stars_` cones that overlap it."""
    order = np.argsort(stars_.a0)
    s0, s1, rho = stars_.a0[order], stars_.a1[order], stars_.rho[order]
    lo = np.searchsorted(s1, a0, side="right")
    hi = np.searchsorted(s0, a1, side="left")
    out = np.empty(len(a0))
    for k in range(len(a0)):
        out[k] = rho[lo[k] : max(hi[k], lo[k] + 1)].min() if lo[k] < len(rho) else 0.0
    return out
