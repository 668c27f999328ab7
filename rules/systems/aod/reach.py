"""Reach for aod: a conservative area where a unit's centre can end this order.

Everything the unit may not touch is turned into an obstacle inflated by the
base's circumradius plus a margin (so no stop rule can trigger), the free space
is the table shrunk by the same radius minus the obstacles, and the visibility
graph gives shortest paths within the allowance (see docs/rules-engine.md).
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point, box

from rules.engine.errors import InvalidActionError
from rules.engine.model import GameState
from rules.engine.reach import Reach
from rules.geometry.bases import Body, body_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose, Track
from rules.geometry.visibility import VisibilityGraph, inflate
from rules.systems.aod.contact import AodBases
from rules.systems.aod.context import ctx_of
from rules.systems.aod.movement import halve_for_hindering
from rules.systems.aod.moves import base_allowance
from rules.systems.aod.units import is_cruising, matrix_row

MARGIN = 0.03  # keeps paths clear of contact (0.01") with room for rounding


def reach(state: GameState, unit_id: str, action_type: str = "move") -> Reach:
    unit = state.unit(unit_id)
    if unit is None or unit.aboard is not None:
        raise InvalidActionError("unit", f"no unit {unit_id!r} on the table")
    key = f"aod.reach.{unit_id}.{action_type}"
    return state.memo(key, lambda: _reach(state, unit_id, action_type))


def _reach(state: GameState, unit_id: str, action_type: str) -> Reach:
    ctx = ctx_of(state)
    unit = state.units_by_id[unit_id]
    start = unit.position
    r = unit.base.radius
    rows = (matrix_row(unit),)
    still = Track(unit.base, Pose(*start, unit.facing), ())
    allowance = halve_for_hindering(ctx, rows, [still], base_allowance(ctx, unit, action_type))
    budget = allowance.value
    body = body_at(unit.base, *start, unit.facing)
    obstacles: list[Any] = []
    cruising = is_cruising(unit)
    horizon = budget + 2 * r + 1  # anything farther cannot matter
    sx, sy = start
    if not cruising:
        for i in ctx.terrain.query_box(sx - horizon, sy - horizon, sx + horizon, sy + horizon):
            t = state.terrain[i]
            cell = ctx.options.cell(rows, t.type)
            if cell in ("ok", "ign"):
                continue
            if cell == "hind" and body.distance(t.shape) <= CONTACT:
                continue  # already touching: moving inside it is free (half speed applies)
            if cell == "elev":
                # Only the centre matters for elevated terrain; stay out of it entirely.
                obstacles.append(inflate(t.shape, 0.01))
                continue
            obstacles.append(inflate(t.shape, r + MARGIN))
    # Bases the unit may cross ('Mechs over infantry, a cruising VTOL over anything,
    # 000 [17-18]) only keep it from ending on them (AOD-D7, AOD-D26).
    end_only: list[Any] = []
    crossing = AodBases(cruising=cruising)
    for i in ctx.units.query_box(sx - horizon, sy - horizon, sx + horizon, sy + horizon):
        other = ctx.on_table[i]
        if other.id == unit.id:
            continue
        ob = ctx.bodies[other.id]
        # Grow the other base's core (centre or polygon) so the centre stays clear of it.
        full = ob.radius + r + MARGIN
        if crossing.may_cross(unit, other):
            end_only.append(_grown(ob, full))
            continue
        gap = ob.distance(Body(None, 0.0, start)) + ob.radius  # start centre to the core
        if gap <= full:  # touching at the start: may leave, never come back (AOD-D6)
            full = max(gap - 0.005, 0.0)
        obstacles.append(_grown(ob, full))
    w, h = state.table.width, state.table.height
    free = box(r, r, w - r, h - r)
    if ctx.options.cell(rows, "clear") == "proh" and not cruising:
        free = free.intersection(ctx.water_union(rows).buffer(-(r + MARGIN)))
    local = Point(start).buffer(budget + r + 1, quad_segs=4)
    near = [o for o in obstacles if o.intersects(local)]
    if near:
        free = free.difference(shapely.union_all(near))
    free = free.intersection(local)
    free = _component(free, start)
    if free is None or budget <= 0:
        return Reach(unit_id, action_type, Point(start), budget,
                     lambda p: [start] if p == start else None)
    graph = VisibilityGraph.build(free, start, budget)
    if not end_only:
        return Reach(unit_id, action_type, graph.region(), budget, graph.path_to)
    taken = shapely.union_all(end_only)
    shapely.prepare(taken)

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        return None if taken.intersects(Point(p)) else graph.path_to(p)

    return Reach(unit_id, action_type, graph.region().difference(taken), budget, path_to)


def _grown(body: Body, by: float) -> Any:
    """A base's core grown by `by`: polygons with mitre joins, centres as circumscribed
    16-gons (both contain the true offset, so the result is conservative)."""
    if body.xy is None:
        return inflate(body.core, by)
    return Point(body.xy).buffer(by / math.cos(math.pi / 16), quad_segs=4)


def _component(free: Any, start: tuple[float, float]) -> Any:
    p = Point(start)
    for g in getattr(free, "geoms", [free]):
        if g.covers(p):
            return g
    return None
