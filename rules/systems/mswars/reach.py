"""Reach for mswars: where a unit can end a Standard Move, Run or Break Away by turning in
place to face the point and moving straight forward (the only direction that needs no
further turn, MSW-D5), paying the turn and the terrain on the way.

The circle around the unit is cut into narrow sectors. In each, the turn costs at most
what it costs at the sector's worse edge (a turn's cost grows with its angle), terrain
costs at most the dearest row of any feature met at or before a distance, and the
centre stays clear of everything it may not touch (grown by the base's circumradius plus
a margin). Each sector is a triangle out to the distance that bound allows: a
conservative subset of the truth, and every point of it is legal along `path_to`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, box

from rules.engine.actions import Action
from rules.engine.errors import InvalidActionError
from rules.engine.model import GameState, Unit
from rules.engine.pricing import normalised
from rules.engine.reach import Reach
from rules.geometry.bases import Body
from rules.geometry.direction import bearing
from rules.geometry.track import shortest_turn
from rules.systems.mswars.judgement import Judgement
from rules.systems.mswars.path import free_rotation, may_pass
from rules.systems.mswars.rules_common import allowance_for, check_can_act, opposing_contacts
from rules.systems.mswars.tables import RUN_LIKE
from rules.systems.mswars.terrain import ELEVATED, MswarsPosition, UnitView, position_of

SECTORS = 120
MARGIN = 0.03  # keeps the centre clear of contact (0.01") with room for rounding
REACHABLE = frozenset({"standard_move", "run", "break_away"})


def reach(state: GameState, unit_id: str, action_type: str = "standard_move") -> Reach:
    unit = state.unit(unit_id)
    if unit is None or unit.aboard is not None:
        raise InvalidActionError("unit", f"no unit {unit_id!r} on the table")
    return state.memo(f"mswars.reach.{unit_id}.{action_type}",
                      lambda: _reach(position_of(state), unit, action_type))


def _nowhere(unit: Unit, action_type: str, allowance: float) -> Reach:
    return Reach(unit.id, action_type, Point(unit.position), allowance, lambda p: None)


def _reach(pos: MswarsPosition, unit: Unit, action_type: str) -> Reach:
    try:
        pos.elevated_classes  # noqa: B018 - malformed terrain: no reach
    except InvalidActionError:
        return _nowhere(unit, action_type, 0.0)
    if action_type not in REACHABLE:
        return _nowhere(unit, action_type, 0.0)
    view = pos.view(unit)
    budget = allowance_for(unit, action_type).value
    j = Judgement(pos.state)
    check_can_act(pos, j, unit, Action(unit.id, action_type))
    if action_type == "break_away" and not opposing_contacts(pos, unit):
        return _nowhere(unit, action_type, budget)
    start_rate, _ = view.rate_at(*unit.position)
    if not j.legal or view.immobile or not start_rate:
        return _nowhere(unit, action_type, budget)
    flat = float(view.rate_of_row("flat") or 1.0)
    free = free_rotation(pos, unit)
    facing = unit.facing
    angles = facing + np.arange(SECTORS + 1) * 360.0 / SECTORS
    turns = np.array([view.turn_cost(normalised(a - facing), start_rate, free) for a in angles])
    t_max = np.maximum(turns[:-1], turns[1:])
    t_min = np.minimum(turns[:-1], turns[1:])
    reach_max = max(0.0, (budget - float(t_min.min())) / flat)
    barriers, dear, end_only = _surroundings(pos, view, reach_max)
    if barriers is None:
        return _nowhere(unit, action_type, budget)
    sx, sy = unit.position
    half = math.pi / SECTORS
    far = (reach_max + 0.01) / math.cos(half)
    rad = np.radians(angles)
    wedges = shapely.polygons([[(sx, sy), (sx + far * math.cos(a0), sy + far * math.sin(a0)),
                                (sx + far * math.cos(a1), sy + far * math.sin(a1))]
                               for a0, a1 in zip(rad[:-1], rad[1:], strict=True)])
    origin = Point(sx, sy)
    clear = np.full(SECTORS, np.inf)
    for g in barriers:
        clear = np.minimum(clear, _distances(origin, wedges, g))
    rows = [(_distances(origin, wedges, g), rate) for g, rate in dear]
    low = unit.move + 0.01 if action_type in RUN_LIKE else None
    parts = []
    for k in range(SECTORS):
        steps = sorted((float(d[k]), rate) for d, rate in rows if np.isfinite(d[k]))
        outer = min(_distance_for(budget - 1e-6 - float(t_max[k]), flat, steps), float(clear[k]))
        inner = 0.0 if low is None else (low - float(t_min[k])) / flat
        if outer <= max(inner, 0.0) + 1e-6:
            continue
        a0, a1 = rad[k], rad[k + 1]
        pts = [(sx + outer * math.cos(a), sy + outer * math.sin(a)) for a in (a0, a1)]
        if inner > 0:
            r_in = inner / math.cos(half) + 1e-6  # the chord lies outside the inner circle
            pts += [(sx + r_in * math.cos(a), sy + r_in * math.sin(a)) for a in (a1, a0)]
        else:
            pts.append((sx, sy))
        parts.append(shapely.Polygon(pts))
    if not parts:
        return _nowhere(unit, action_type, budget)
    area = shapely.union_all(parts)
    if end_only:
        area = area.difference(shapely.union_all(end_only))
    shapely.prepare(area)

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        if not area.covers(Point(p)):
            return None
        if math.dist(p, (sx, sy)) < 1e-9:
            return [(sx, sy)]
        turn = shortest_turn(facing, bearing(p[0] - sx, p[1] - sy))
        steps: list[Any] = [(sx, sy)]
        if abs(turn) > 1e-9:
            steps.append({"turn": turn})
        return steps + [p]

    return Reach(unit.id, action_type, area, budget, path_to)


def _distance_for(budget: float, flat: float, steps: list[tuple[float, float]]) -> float:
    """How far a budget goes when the cost per inch rises to each rate at its distance."""
    rate, at, spent = flat, 0.0, 0.0
    for d, r in steps:
        if r <= rate:
            continue
        if spent + (d - at) * rate >= budget:
            break
        spent += (d - at) * rate
        at, rate = d, r
    return max(at + (budget - spent) / rate, 0.0) if budget > spent else at


def _distances(origin: Point, wedges: Any, g: Any) -> Any:
    cut = shapely.intersection(wedges, g)
    d = shapely.distance(origin, cut)
    return np.where(shapely.is_empty(cut), np.inf, d)


def _surroundings(pos: MswarsPosition, view: UnitView, horizon: float
                  ) -> tuple[list[Any] | None, list[tuple[Any, float]], list[Any]]:
    """(Where the centre may not go, features dearer than flat ground with their rate,
    bases it may cross but not end on). None when the start is hemmed in."""
    unit = view.unit
    sx, sy = unit.position
    r = unit.base.radius
    reach = horizon + 2 * r + 2
    barriers: list[Any] = []
    dear: list[tuple[Any, float]] = []
    top = view.top_under(unit.position)
    flat = view.rate_of_row("flat") or 1.0
    for t, shape in view.near(sx - reach, sy - reach, sx + reach, sy + reach):
        if t is top:
            continue
        rate = view.rate(t)
        if view.row(t) == ELEVATED:
            barriers.append(shape.buffer(r + MARGIN, join_style="mitre", mitre_limit=3.0))
        elif rate is None:
            barriers.append(shape.buffer(MARGIN, join_style="mitre", mitre_limit=3.0))
        elif rate > flat:
            dear.append((shape, rate))
    w, h = pos.state.table.width, pos.state.table.height
    edge_gap = min(sx - r, sy - r, w - sx - r, h - sy - r) + 0.01
    inner = min(MARGIN, edge_gap - 0.002)
    if inner < 0:
        return None, [], []
    outside = box(-1e3, -1e3, w + 1e3, h + 1e3).difference(
        box(r + inner, r + inner, w - r - inner, h - r - inner))
    barriers.append(outside)
    if top is not None:
        barriers.append(box(-1e3, -1e3, w + 1e3, h + 1e3).difference(top.shape.buffer(-MARGIN)))
    end_only: list[Any] = []
    for i in pos.units.query_box(sx - reach, sy - reach, sx + reach, sy + reach):
        other = pos.on_table[i]
        if other.id == unit.id:
            continue
        body = pos.bodies[other.id]
        full = body.radius + r + MARGIN
        if may_pass(unit, other):
            end_only.append(_grown(body, full))
            continue
        gap = body.distance(Body(None, 0.0, (sx, sy))) + body.radius
        if gap <= full:
            if not unit.base.is_circle:
                return None, [], []  # a rect base turning here may sweep into it
            full = max(gap - 0.005, 0.0)  # touching at the start: may leave it
        barriers.append(_grown(body, full))
    origin = Point(sx, sy)
    if any(g.contains(origin) for g in barriers):
        return None, [], []
    return barriers, dear, end_only


def _grown(body: Body, by: float) -> Any:
    """A base's core grown by `by`, conservatively (a circumscribed polygon)."""
    if body.xy is None:
        return body.core.buffer(by, join_style="mitre", mitre_limit=3.0)
    return Point(body.xy).buffer(by / math.cos(math.pi / 16), quad_segs=4)
