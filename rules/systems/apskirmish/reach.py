"""Reach of `move` and `run`: where the soldier's centre can end along one straight
line from where it stands, facing unchanged (so the front moves as far as the centre,
APS-D15), within the stance distance (or the run's) and clear of what refuses a line:
obstacles (crossed or too narrow a gap), enemy bases, the table edge; friendly bases
are passed but not ended on (004 Base Blocking). Rough ground only asks for a roll.

The area is the union of thin wedges between rays cast from the centre. Each ray stops
where a base grown by the wedge's half-width (plus a margin) would first touch
something, so that every straight line inside a wedge is clear: the area is
conservative, and `path_to` returns the one straight line, which validate accepts.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import GeometryCollection, Point, Polygon

from rules.engine.open_reach import grown
from rules.engine.reach import Reach
from rules.engine.reach_template import ReachTemplate
from rules.geometry.cones import exits, wedge
from rules.geometry.raycast import first_contact
from rules.geometry.track import Pose
from rules.geometry.visibility import inflate
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.reach_sectors import exact_area, turn_to_face_back
from rules.systems.apskirmish.reach_traverse import traverse_reach

#: Rays cast around the centre.
RAYS = 240
#: Clearance added to the wedge's half-width (contact is judged within 0.01").
MARGIN = 0.03
#: How far off the area an end may be and still be taken (an alternative's end is
#: rounded to thousandths; the exact areas keep 0.0015" of the tolerance for it).
HAIR = 0.0008


def _ray_lengths(pos: ApsPosition, unit: Unit, length: float) -> list[float]:
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
    terrain = [(t.id, t.shape) for t in pos.obstacles if here.distance(t.shape) <= horizon]
    enemies = [
        (o.id, pos.bodies[o.id])
        for o in pos.on_table
        if o.id != unit.id and o.side != unit.side and here.distance(pos.bodies[o.id]) <= horizon
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


def straight_reach(pos: ApsPosition, unit: Unit, action_type: str, length: float) -> Reach:
    # To the tolerance: gaps the base's own width, tangent passes, a front along a face,
    # and a round base's ends turned to face back (reach_sectors.py). The ray wedges
    # below remain for a start the exact cones cannot leave (a base already overlapping
    # something by more than they allow), where each ray is cast with the base itself.
    straight, turned = exact_area(pos, unit, length)
    if straight.is_empty or straight.area < 1e-9:
        straight = _wedges(pos, unit, length)
    return _with_turns(unit, action_type, length, straight, turned)


def _wedges(pos: ApsPosition, unit: Unit, length: float) -> Any:
    start = unit.position
    rays = _ray_lengths(pos, unit, length)
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
        if o.id != unit.id and o.side == unit.side
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


class ApsReach(ReachTemplate):
    """The kernel's reach template (rules/engine/reach_template.py) for a soldier: the
    actions it may take now are the judge's preconditions (soldiers.py, through
    `may_take`: whose activation, AP, a run's stance, an obstacle within 1"); the
    regions are this system's own, one straight line measured front to front (004
    Standard Movement) or a Traverse's landings (reach_traverse.py)."""

    shaded_types = frozenset({"move", "run", "traverse"})

    def reach_budget(self, position: ApsPosition, unit: Unit, action_type: str) -> float:
        """How far the front may go: the move's allowance (moves.py); a Traverse has no
        distance limit (APS-D31)."""
        if action_type == "traverse":
            return 0.0
        return super().reach_budget(position, unit, action_type)

    def unreached(self, unit: Unit, action_type: str, budget: float) -> Reach:
        start = unit.position
        if action_type == "traverse":
            return Reach(unit.id, action_type, GeometryCollection(), 0.0, lambda p: None)
        return Reach(
            unit.id, action_type, Point(start), 0.0, lambda p: [start] if p == start else None
        )

    def reach_region(
        self, position: ApsPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        if action_type == "traverse":
            return traverse_reach(position, unit)
        return straight_reach(position, unit, action_type, budget) if budget > 0 else None
