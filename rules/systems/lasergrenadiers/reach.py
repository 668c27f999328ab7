"""Reach for `move` on the ground plane: turn in place to face the point (the turn band
paid), then straight ahead (the kernel's turn-then-straight reach). Terrain costs at most
its dearest multiplier (a slope as if uphill, LG-D5), prohibited terrain and other bases
stop the centre, the table edge is kept, and the allowance is what is left this turn,
within the transport inequalities (lasergrenadiers.md 2, 5, 6, 9)."""

from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point

from rules.engine.model import GameState, Terrain, Unit
from rules.engine.numbers import LENGTH_TOL
from rules.engine.open_reach import MARGIN
from rules.engine.reach import Reach, memoised_reach, unshaded
from rules.engine.turn_reach import (
    TurnThenStraight,
    base_barriers,
    nowhere,
    table_barrier,
    turn_sweeps_clear,
    turn_then_straight_reach,
)
from rules.systems.lasergrenadiers.accounting import coupling_room, remaining, transfers
from rules.systems.lasergrenadiers.path import LgBases
from rules.systems.lasergrenadiers.pieces import altitude_limit, damage_level
from rules.systems.lasergrenadiers.tables import OVERRIDES
from rules.systems.lasergrenadiers.terrain import LgPosition, UnitTerrain, position_of


def reach(state: GameState, unit_id: str, action_type: str = "move") -> Reach:
    if action_type == "load":
        # The boarding piece ends aboard, off the table, and a vehicle loading pieces in
        # contact does not move (003 Transport 1, LG-D34): no area.
        return Reach(unit_id, action_type, None, 0.0, lambda p: None)
    if action_type != "move":
        # Unload is a placement, an overrun must pass over its target, enter_board comes
        # from off the table: not shaded.
        return unshaded(unit_id, action_type)
    return memoised_reach(state, "lasergrenadiers", unit_id, action_type,
                          lambda unit: _reach(position_of(state), unit, action_type))


def budget_of(pos: LgPosition, unit: Unit) -> float:
    """What is left, within the transport inequalities and damaged transports."""
    state = pos.state
    budget = min(remaining(state, unit), coupling_room(state, unit)) - LENGTH_TOL
    if any(e.get("vehicle") == unit.id for e in transfers(state)):
        level = damage_level(unit)
        if level == 2:
            return 0.0
        if level == 1:
            budget = min(budget, unit.move / 3 - state.turn.get("moved", {}).get(unit.id, 0))
    return max(budget, 0.0)


def _reach(pos: LgPosition, unit: Unit, action_type: str) -> Reach:
    budget = budget_of(pos, unit) if action_type == "move" else 0.0
    none = nowhere(unit.id, action_type, unit.position, budget)
    view = pos.view(unit)
    limit = altitude_limit(unit)
    start_rate, _ = view.rate_at(*unit.position)
    if action_type != "move" or budget <= 0 or start_rate is None \
            or unit.id in pos.state.turn.get("left_board", []) \
            or (limit is not None and (unit.z or 0.0) > limit + LENGTH_TOL):
        return none
    far = budget + 2 * unit.base.radius + 2
    sx, sy = unit.position
    near = pos.near(sx - far, sy - far, sx + far, sy + far)
    barriers = _prohibited(view, near)
    table = table_barrier(pos.state.table, unit, MARGIN)
    blocking, end_only = base_barriers(pos, unit, LgBases(
        pass_friendly=pos.options.pass_friendly_bases), far, MARGIN)
    bodies = [pos.bodies[o.id] for o in pos.on_table if o.id != unit.id]
    if table is None or any(g.contains(Point(unit.position)) for g in barriers + blocking):
        return none
    dear, cheap = _rates(view, near)
    # A rect base touching another (a carrier beside its troopers) may not turn where it
    # stands, but may still drive straight off along its axes (lasergrenadiers.md 4).
    spec = TurnThenStraight(
        start=unit.position, facing=unit.facing, budget=budget, base_rate=1.0,
        turn_cost=lambda a: view.turn_cost(a), barriers=[*barriers, table, *blocking],
        end_only=end_only, dear=dear, cheap=cheap, axes=_axes(view, unit.facing),
        may_turn=turn_sweeps_clear(unit, bodies, MARGIN))
    return turn_then_straight_reach(unit.id, action_type, spec)


def _axes(view: UnitTerrain, facing: float) -> list[tuple[float, float]]:
    """Along its facing, backward or sideways, within 1 degree of the axis: the piece goes
    without turning, at that direction's factor (lasergrenadiers.md 4)."""
    out = []
    for offset in (0.0, 180.0, 90.0, -90.0):
        h = math.radians(facing + offset)
        factor, allowed, _ = view.direction(facing, math.cos(h), math.sin(h))
        if allowed:
            out.append((offset, factor))
    return out


def _worst(view: UnitTerrain, t: Terrain) -> float | None:
    """The dearest multiplier of a feature whatever the heading (a slope as uphill)."""
    level = view.multiplier(t, None)
    up = view.multiplier(t, float(t.props["uphill"])) if t.type == "slope" and \
        isinstance(t.props.get("uphill"), int | float) else level
    if level is None or up is None:
        return None
    return min(level, up)


def _prohibited(view: UnitTerrain, near: list[tuple[Terrain, Any]]) -> list[Any]:
    """Where the centre may not go: X features, less the parts a feature that overrides
    them and that the piece may enter covers (a bridge over a river, LG-D25)."""
    out = []
    for t, shape in near:
        if _worst(view, t) is not None:
            continue
        over = [s for o, s in near if t.type in OVERRIDES.get(o.type, frozenset())
                and view.multiplier(o) is not None]
        # Less the overriders themselves, not shrunk: the margin the rest is grown by
        # keeps the centre off the boundary where the two meet side by side.
        area = shape.difference(shapely.union_all(over)) if over else shape
        if not area.is_empty:
            out.append(area.buffer(MARGIN, join_style="mitre", mitre_limit=3.0))
    return out


def _rates(view: UnitTerrain, near: list[tuple[Terrain, Any]]
           ) -> tuple[list[tuple[Any, float]], list[tuple[Any, float]]]:
    """The features dearer than firm ground (grown by the margin) and cheaper (a road or
    bridge, 003 Terrain 7-8, LG-D32: shrunk by it), each with its cost per inch. A
    feature counts only where no feature that overrides it lies (a road over soft
    ground or a slope, a bridge or ford over a river, LG-D25): there the overrider's
    rate is the one paid."""
    dear, cheap = [], []
    for t, shape in near:
        m = _worst(view, t)
        if m is None or m == 1.0:
            continue
        over = [s for o, s in near if t.type in OVERRIDES.get(o.type, frozenset())]
        if m < 1.0:
            area = shape.difference(shapely.union_all(over)) if over else shape
            if not area.is_empty:
                dear.append((area.buffer(MARGIN, join_style="mitre", mitre_limit=3.0),
                             1.0 / m))
        else:
            area = shape.buffer(-MARGIN, join_style="mitre", mitre_limit=3.0)
            if not area.is_empty:
                cheap.append((area, 1.0 / m))
    return dear, cheap
