"""Reach of one straight line from where a unit stands, its final facing free: where
its centre may end, within a length its front moves (front to front, rules/geometry/
front.py), clear of what refuses a line: terrain it may neither cross nor overlap
(`blocking`), the bases its `BasePolicy` does not let it cross, the table edge; the
bases it may cross are passed but not ended on. apskirmish's move and run (004 Standard
Movement, 004 Obstacles, 004 Size Restrictions, 004 Base Blocking; apskirmish.md 3-4).

To within the engine's tolerance. A line is refused when its swept base overlaps blocking
terrain or a base it may not cross by more than 0.01" or its line of movement (front to
front) meets blocking terrain's interior by more than 0.001" (APS-D18, APS-D32). So a unit
fits a gap its own width, passes such a base tangent, and runs its front along a face.
A wedge of directions (a cone from the centre) is shaded to the radius at which the cone
first meets the blocking terrain and bases grown by the base less 0.008" (the base may
overlap them by no more than that along any line of the cone, within the 0.01" allowed),
and, from the front's start, the blocking terrain shrunk by 0.0001" (no line of movement
of the cone meets its interior deeper than 0.001"). Every line in the shaded triangle lies
in the cone within that radius, so it is legal: sound by construction, with no margin
beyond the tolerance (the cones: rules/geometry/cones.py).

A turn at the end (apskirmish.md 3: the final facing counts, APS-D4, APS-D33) lets a round
base end further: facing back toward where its front started, its front ends its radius
nearer. `turned` shades those ends: within the allowance plus the radius of the front's
start, the base's way there clear (cones from the centre) and the line from the front's
start to the end clear (cones from the front's start), the front line being part of it.

For a start the exact cones cannot leave (a base already overlapping something by more
than they allow) the area is the union of thin wedges between rays cast from the centre.
Each ray stops where a base grown by the wedge's half-width (plus a margin) would first
touch something, so that every straight line inside a wedge is clear: the area is
conservative, and `path_to` returns the one straight line, which validate accepts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Point, Polygon

from rules.engine.bases_policy import BasePolicy
from rules.engine.open_reach import grown, grown_by_base
from rules.engine.position import Position
from rules.engine.reach import Reach
from rules.geometry.cones import Stars, at_bearings, exits, stars, wedge
from rules.geometry.front import front_point
from rules.geometry.raycast import first_contact
from rules.geometry.track import Pose
from rules.geometry.visibility import inflate
from rules.model.state import Terrain, Unit

#: Rays cast around the centre.
RAYS = 240
#: Clearance added to the wedge's half-width (contact is judged within 0.01").
MARGIN = 0.03
#: How far off the area an end may be and still be taken (an alternative's end is
#: rounded to thousandths; the exact areas keep 0.0015" of the tolerance for it).
HAIR = 0.0008


def _ray_lengths(
    pos: Position, unit: Unit, length: float, blocking: Sequence[Terrain], policy: BasePolicy
) -> list[float]:
    """How far the centre may go along each ray. What lies away from the base is grown
    by its circumradius plus the wedge's half-width (a conservative offset, exact in
    spirit for a round base) and met by the centre's ray; what the soldier already
    (nearly) touches is judged with its own base along the ray, since a grown shape
    would hold the start and never let it go."""
    sx, sy = unit.position
    start = Pose(sx, sy, unit.facing)
    grow = length * math.sin(math.pi / RAYS) + MARGIN
    reach_of = grow + unit.base.radius
    here = pos.bodies[unit.id]
    horizon = length + 2 * unit.base.radius + 1
    terrain = [(t.id, t.shape) for t in blocking if here.distance(t.shape) <= horizon]
    enemies = [
        (o.id, pos.bodies[o.id])
        for o in pos.on_table
        if o.id != unit.id
        and not policy.may_cross(unit, o)
        and here.distance(pos.bodies[o.id]) <= horizon
    ]
    near = grow + MARGIN
    close_t = [(i, g) for i, g in terrain if here.distance(g) <= near]
    close_b = [(i, b) for i, b in enemies if here.distance(b) <= near]
    far = [inflate(g, reach_of) for i, g in terrain if here.distance(g) > near]
    far += [grown(b, b.radius + reach_of) for i, b in enemies if here.distance(b) > near]
    blocked = shapely.union_all(far) if far else None
    table = pos.state.table
    free_box = (reach_of, reach_of, table.width - reach_of, table.height - reach_of)
    angles = [2 * math.pi * k / RAYS for k in range(RAYS)]
    directions = [(math.cos(a), math.sin(a)) for a in angles]
    cosines, sines = np.array(directions).T
    out = [min(length, float(d)) for d in exits(sx, sy, cosines, sines, free_box)]
    if blocked is not None:
        lines = shapely.linestrings(
            [[(sx, sy), (sx + d[0] * length, sy + d[1] * length)] for d in directions]
        )
        hits = shapely.intersection(lines, blocked)
        gaps = shapely.distance(shapely.points(sx, sy), hits)
        for k, gap in enumerate(gaps):
            if not math.isnan(gap):
                out[k] = min(out[k], float(gap))
    if close_t or close_b:
        for k, d in enumerate(directions):
            hit = first_contact(unit.base, start, d, out[k], terrain=close_t, bases=close_b)
            if hit is not None:
                out[k] = min(out[k], hit.distance)
    return out


def straight_reach(
    pos: Position,
    unit: Unit,
    action_type: str,
    length: float,
    blocking: Sequence[Terrain],
    policy: BasePolicy,
) -> Reach:
    """Where `unit` may end one straight line whose front moves at most `length` (see
    above): the exact cones, else the ray wedges, each ray cast with the base itself."""
    straight, turned = exact_area(pos, unit, length, blocking, policy)
    if straight.is_empty or straight.area < 1e-9:
        straight = _wedges(pos, unit, length, blocking, policy)
    return _with_turns(unit, action_type, length, straight, turned)


def _wedges(
    pos: Position, unit: Unit, length: float, blocking: Sequence[Terrain], policy: BasePolicy
) -> Any:
    start = unit.position
    rays = _ray_lengths(pos, unit, length, blocking, policy)
    wedges = []
    for k in range(RAYS):
        rho = min(rays[k], rays[(k + 1) % RAYS])
        if rho <= 1e-6:
            continue
        wedges.append(
            Polygon(wedge(start, rho, 2 * math.pi * k / RAYS, 2 * math.pi * (k + 1) / RAYS))
        )
    area: Any = shapely.union_all(wedges) if wedges else Point(start)
    friends = [
        grown(body, body.radius + unit.base.radius + MARGIN)
        for o in pos.on_table
        if o.id != unit.id and policy.may_cross(unit, o)
        for body in [pos.bodies[o.id]]
    ]
    if friends and not area.is_empty:
        area = area.difference(shapely.union_all(friends))
    return area


def _with_turns(unit: Unit, action_type: str, length: float, area: Any, turned: Any) -> Reach:
    """The reach of straight ends (`area`) and ends turned to face back (`turned`)."""
    start = unit.position
    shapely.prepare(area)
    if turned is not None and not turned.is_empty:
        turned = turned.difference(area)
        shapely.prepare(turned)
    whole = area if turned is None or turned.is_empty else shapely.union_all([area, turned])

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        if p == start:
            return [start]
        if area.distance(Point(p)) <= HAIR:
            return [start, p]
        if turned is not None and turned.distance(Point(p)) <= HAIR:
            return [start, p, {"turn": turn_to_face_back(unit, p)}]
        return None

    return Reach(unit.id, action_type, whole, length, path_to)


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


def blockers(
    pos: Position, unit: Unit, horizon: float, blocking: Sequence[Terrain], policy: BasePolicy
) -> tuple[Any, Any, list[Any]]:
    """(what the centre's cones may not meet, what the front's cones may not meet, the
    bases it may cross but not end on), within `horizon` of the centre."""
    rect, radius = _swept_by(unit)
    here = Point(unit.position)
    base: list[Any] = []
    front: list[Any] = []
    for t in blocking:
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
        # A disc's chords lie within 0.0004" of its arcs (`grown_by_base`).
        core = Point(body.xy) if body.xy is not None else body.core
        if body.xy is not None and rect is None:
            grown = grown_by_base(core, None, body.radius + radius)
        else:
            core = grown_by_base(core, None, body.radius) if body.radius > 1e-6 else core
            grown = grown_by_base(core, rect, radius)
        (friends if policy.may_cross(unit, o) else base).append(grown)
    return (
        shapely.union_all(base) if base else None,
        shapely.union_all(front) if front else None,
        friends,
    )


def exact_area(
    pos: Position, unit: Unit, length: float, blocking: Sequence[Terrain], policy: BasePolicy
) -> tuple[Any, Any]:
    """(the area of straight ends, facing kept; the area of ends turned to face back
    toward the front's start, None for a rect base), both sound to the tolerance."""
    b = unit.base
    r = b.diameter / 2 if b.is_circle else b.radius
    fr = b.diameter / 2 if b.is_circle else b.length / 2
    longest = length + 2 * fr if b.is_circle else length
    blocked, front_blocked, friends = blockers(pos, unit, longest + 2 * r + 1, blocking, policy)
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
