"""Reach of `move` and `run` to within the engine's tolerance (004 Standard Movement,
004 Size Restrictions, 004 Base Blocking, 004 Obstacles; apskirmish.md 3-4).

A line is refused when its swept base overlaps an obstacle or an enemy base by more than
0.01" (`gap_too_narrow`, `path_through_base`) or its line of movement meets an obstacle's
interior by more than 0.001" (`obstacle_crossed`, APS-D18, APS-D32). So a soldier fits a
gap its own width, passes an enemy base tangent, and runs its front along an obstacle's
face: the ray wedges of reach.py, kept 0.03" clear and widened by their own half-width,
shade none of those.

Here a wedge of directions (a cone from the centre) is shaded to the radius at which the
cone first meets `G`: the obstacles and enemy bases grown by the base less 0.008" (the
base may overlap them by no more than that along any line of the cone, within the 0.01"
allowed), and, from the front's start, the obstacles shrunk by 0.0001" (no line of
movement of the cone meets their interior deeper than 0.001"). Every line in the shaded
triangle lies in the cone within that radius, so it is legal: sound by construction, with
no margin beyond the tolerance. Cones are split where an edge ray goes further than the
cone (a gap or a tangent pass between them), down to DEPTH levels, within a bound on the
cones cast (WORK): narrow passages are found where they are.

A turn at the end (apskirmish.md 3: the final facing counts, APS-D4, APS-D33) lets a round
base end further: facing back toward where its front started, its front ends its radius
nearer. `turned` shades those ends: within the allowance plus the radius of the front's
start, the base's way there clear (cones from the centre) and the line from the front's
start to the end clear (cones from the front's start), the front line being part of it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Point, Polygon

from rules.engine.open_reach import grown_by_base
from rules.geometry.front import front_point
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition

#: The base may overlap by this much along any shaded line (the engine allows 0.01").
OVERLAP = 0.008
#: A line of movement keeps out of obstacles shrunk by this (it may meet 0.001" deep).
FRONT = 0.0001
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
    segs = []
    for g in getattr(blocked, "geoms", [blocked]):
        for ring in [g.exterior, *g.interiors]:
            cs = np.asarray(ring.coords)
            segs.append(np.hstack([cs[:-1], cs[1:]]))
    e = np.vstack(segs)
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
        den = cc * ey[None, :] - ss * ex[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * ey[None, :] - wy * ex[None, :]) / den
            u = (wx * ss - wy * cc) / den
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


def _swept_by(unit: Unit) -> tuple[Any, float]:
    """The base as the centre's obstacles are grown by it: the base less OVERLAP (a rect
    at its facing, centred at the origin, or None for a circle), and a circle's radius."""
    b = unit.base
    if b.is_circle:
        return None, b.diameter / 2 - OVERLAP
    a = math.radians(unit.facing)
    c, s = math.cos(a), math.sin(a)
    hl, hw = b.length / 2 - OVERLAP, b.width / 2 - OVERLAP
    return Polygon(
        [
            (c * dx - s * dy, s * dx + c * dy)
            for dx, dy in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))
        ]
    ), 0.0


def fine_arcs(radius: float) -> int:
    """Segments per quarter circle so that a buffer's chords lie within 0.0004" of its
    arcs (a point just outside the polygon is that much nearer than the radius, at most)."""
    if radius <= 0.0004:
        return 4
    return max(8, math.ceil(math.pi / (4 * math.acos(1 - 0.0004 / radius))))


def blockers(pos: ApsPosition, unit: Unit, horizon: float) -> tuple[Any, Any, list[Any]]:
    """(what the centre's cones may not meet, what the front's cones may not meet, the
    friends the end may not overlap), within `horizon` of the centre."""
    rect, radius = _swept_by(unit)
    here = Point(unit.position)
    base: list[Any] = []
    front: list[Any] = []
    for t in pos.obstacles:
        if t.shape.distance(here) > horizon:
            continue
        base.append(grown_by_base(t.shape, rect, radius))
        inner = t.shape.buffer(-FRONT, join_style="mitre")
        if not inner.is_empty:
            front.append(inner)
    friends: list[Any] = []
    for o in pos.on_table:
        if o.id == unit.id:
            continue
        body = pos.bodies[o.id]
        if body.distance(here) > horizon:
            continue
        if body.xy is not None and rect is None:
            grown = Point(body.xy).buffer(
                body.radius + radius, quad_segs=fine_arcs(body.radius + radius)
            )
        else:
            core = Point(body.xy) if body.xy is not None else body.core
            grown = grown_by_base(
                core.buffer(body.radius, quad_segs=fine_arcs(body.radius))
                if body.radius > 1e-6
                else core,
                rect,
                radius,
            )
        (base if o.side != unit.side else friends).append(grown)
    return (
        shapely.union_all(base) if base else None,
        shapely.union_all(front) if front else None,
        friends,
    )


def exact_area(pos: ApsPosition, unit: Unit, length: float) -> tuple[Any, Any]:
    """(the area of straight ends, facing kept; the area of ends turned to face back
    toward the front's start, None for a rect base), both sound to the tolerance."""
    b = unit.base
    r = b.diameter / 2 if b.is_circle else b.radius
    fr = b.diameter / 2 if b.is_circle else b.length / 2
    longest = length + 2 * fr if b.is_circle else length
    blocked, front_blocked, friends = blockers(pos, unit, longest + 2 * r + 1)
    table = pos.state.table
    inset = r if b.is_circle else b.radius
    box = (inset, inset, table.width - inset, table.height - inset)
    sx, sy = unit.position
    fx, fy = front_point(unit.base, unit.position[0], unit.position[1], unit.facing)
    way = stars((sx, sy), longest, blocked, box)
    line = stars((fx, fy), length + fr if b.is_circle else length, front_blocked, None)
    straight = _straight(way, line, length, (sx - fx, sy - fy))
    turned = None
    if b.is_circle:
        disc = Point(fx, fy).buffer(length + fr - 0.001, quad_segs=64)
        near = Point(fx, fy).buffer(fr + 0.01, quad_segs=16)
        turned = way.area().intersection(line.area()).intersection(disc).difference(near)
    if friends:
        mates = shapely.union_all(friends)
        straight = straight.difference(mates)
        turned = None if turned is None else turned.difference(mates)
    return straight, turned


def _straight(way: Stars, line: Stars, length: float, offset: tuple[float, float]) -> Any:
    """Ends along a cone whose base sweep and (moved with it) line of movement are both
    clear: the front's cones are cast from the front's start in the same directions, so
    shifted by the front's offset they are the centre's."""
    line_rho = _at_bearings(line, way.a0, way.a1)
    rho = np.minimum(np.minimum(way.rho, line_rho), length)
    return Stars(way.apex, way.a0, way.a1, rho).area()


def _at_bearings(stars_: Stars, a0: Any, a1: Any) -> Any:
    """Per cone (a0, a1), the least radius of the `stars_` cones that overlap it."""
    order = np.argsort(stars_.a0)
    s0, s1, rho = stars_.a0[order], stars_.a1[order], stars_.rho[order]
    lo = np.searchsorted(s1, a0, side="right")
    hi = np.searchsorted(s0, a1, side="left")
    out = np.empty(len(a0))
    for k in range(len(a0)):
        out[k] = rho[lo[k] : max(hi[k], lo[k] + 1)].min() if lo[k] < len(rho) else 0.0
    return out


def turn_to_face_back(unit: Unit, end: tuple[float, float]) -> float:
    """The turn (degrees, the short way) that faces the base at `end` toward the front's
    start: the front then ends its radius nearer it (APS-D4)."""
    fx, fy = front_point(unit.base, unit.position[0], unit.position[1], unit.facing)
    facing = math.degrees(math.atan2(fy - end[1], fx - end[0]))
    turn = (facing - unit.facing + 180.0) % 360.0 - 180.0
    return 180.0 if turn == -180.0 else turn


__all__: Sequence[str] = ("exact_area", "exits", "turn_to_face_back", "stars")
