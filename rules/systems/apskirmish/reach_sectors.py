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
no margin beyond the tolerance (the cones: rules/geometry/cones.py).

A turn at the end (apskirmish.md 3: the final facing counts, APS-D4, APS-D33) lets a round
base end further: facing back toward where its front started, its front ends its radius
nearer. `turned` shades those ends: within the allowance plus the radius of the front's
start, the base's way there clear (cones from the centre) and the line from the front's
start to the end clear (cones from the front's start), the front line being part of it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Point, Polygon

from rules.engine.open_reach import grown_by_base
from rules.geometry.cones import Stars, at_bearings, stars
from rules.geometry.front import front_point
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition

#: The base may overlap by this much along any shaded line (the engine allows 0.01").
OVERLAP = 0.008
#: A line of movement keeps out of obstacles shrunk by this (it may meet 0.001" deep).
FRONT = 0.0001


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
    straight = _straight(way, line, length)
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


def _straight(way: Stars, line: Stars, length: float) -> Any:
    """Ends along a cone whose base sweep and (moved with it) line of movement are both
    clear: the front's cones are cast from the front's start in the same directions, so
    shifted by the front's offset they are the centre's."""
    line_rho = at_bearings(line, way.a0, way.a1)
    rho = np.minimum(np.minimum(way.rho, line_rho), length)
    return Stars(way.apex, way.a0, way.a1, rho).area()


def turn_to_face_back(unit: Unit, end: tuple[float, float]) -> float:
    """The turn (degrees, the short way) that faces the base at `end` toward the front's
    start: the front then ends its radius nearer it (APS-D4)."""
    fx, fy = front_point(unit.base, unit.position[0], unit.position[1], unit.facing)
    facing = math.degrees(math.atan2(fy - end[1], fx - end[0]))
    turn = (facing - unit.facing + 180.0) % 360.0 - 180.0
    return 180.0 if turn == -180.0 else turn
