"""Reach for mswars: where a unit can end a Standard Move, Run or Break Away by turning in
place to face the point and moving straight ahead (the kernel's turn-then-straight reach;
straight ahead needs no further turn, MSW-D5). The unit pays its turn (free turn applied,
MSW-D7) and the terrain on the way; "Can't" terrain, elevated terrain it is not on, the
edge of the top it is on (MSW-D24), other bases and the table edge stop it."""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Point, box

from rules.engine.actions import Action
from rules.engine.errors import InvalidActionError
from rules.engine.model import GameState, Unit
from rules.engine.open_reach import MARGIN
from rules.engine.reach import Reach, memoised_reach, unshaded
from rules.engine.turn_reach import (
    ContactTarget,
    TurnThenStraight,
    base_barriers,
    contact_reach,
    nowhere,
    table_barrier,
    turn_sweeps_clear,
    turn_then_straight_reach,
)
from rules.systems.mswars.judgement import Judgement
from rules.systems.mswars.path import MswarsBases, free_rotation
from rules.systems.mswars.rules_common import allowance_for, check_can_act, opposing_contacts
from rules.systems.mswars.tables import RUN_LIKE
from rules.systems.mswars.terrain import ELEVATED, MswarsPosition, opposing, position_of

REACHABLE = frozenset({"standard_move", "run", "break_away", "charge", "manoeuvre", "jump"})
#: Types whose unit ends aboard a carrier, off the table (002 Enter Unit): no area.
ABOARD = frozenset({"enter_unit"})


def reach(state: GameState, unit_id: str, action_type: str = "standard_move") -> Reach:
    if action_type in ABOARD:
        return Reach(unit_id, action_type, None, 0.0, lambda p: None)
    if action_type == "climb":
        return memoised_reach(state, "mswars", unit_id, action_type,
                              lambda unit: _climb_reach(state, unit))
    if action_type not in REACHABLE:
        # Unit Exiting and a moving carrier's unloading place other pieces than the mover
        # along the carrier's rear: not shaded.
        return unshaded(unit_id, action_type)
    return memoised_reach(state, "mswars", unit_id, action_type,
                          lambda unit: _reach(position_of(state), unit, action_type))


def _reach(pos: MswarsPosition, unit: Unit, action_type: str) -> Reach:
    budget = allowance_for(unit, action_type).value if action_type in REACHABLE else 0.0
    none = nowhere(unit.id, action_type, unit.position, budget)
    try:
        pos.elevated_classes  # noqa: B018 - malformed terrain: no reach
    except InvalidActionError:
        return none
    view = pos.view(unit)
    j = Judgement(pos.state)
    check_can_act(pos, j, unit, Action(unit.id, action_type))
    start_rate, _ = view.rate_at(*unit.position)
    top = view.top_under(unit.position)
    if action_type not in REACHABLE or not j.legal or view.immobile or not start_rate or \
            (action_type == "break_away" and not opposing_contacts(pos, unit)) or \
            (action_type == "jump" and top is None):
        return none
    foes = opposing_contacts(pos, unit)
    if action_type == "manoeuvre" and foes:
        # Ends in contact with every opposing unit it touches (002 Manoeuvre Action): they
        # lie along those bases, reached by paths that follow them round; one turn and one
        # straight line reach almost none of them, so the honest answer is "not shaded".
        return unshaded(unit.id, action_type)
    targets = _charge_targets(pos, unit, budget) if action_type == "charge" else []
    if action_type == "charge" and not unit.base.is_circle:
        # A rect base's contact depends on its facing at the end: not shaded.
        return unshaded(unit.id, action_type)
    jumping = action_type == "jump"
    barriers = _terrain_barriers(pos, unit, budget, jumping=jumping)
    table = table_barrier(pos.state.table, unit, MARGIN)
    blocking, end_only = base_barriers(
        pos, unit, MswarsBases(ignore=frozenset(t.id for t in targets)),
        budget + 2 * unit.base.radius + 2, MARGIN)
    if jumping and top is not None:
        # 002 Jump Action, MSW-D13: off the edge in one straight line (the turn first, on
        # top), landing with the base wholly off the feature; the movement ends there. A
        # jump from too high is a Fall, not a refusal (MSW-D29): its ends are shaded too.
        end_only = [*end_only, top.shape.buffer(unit.base.radius + MARGIN,
                                                join_style="mitre", mitre_limit=3.0)]
    near = [pos.bodies[o.id] for o in pos.on_table if o.id != unit.id]
    if table is None or any(g.contains(Point(unit.position)) for g in barriers + blocking):
        return none
    free = free_rotation(pos, unit)
    flat = float(view.rate_of_row("flat") or 1.0)
    spec = TurnThenStraight(
        start=unit.position, facing=unit.facing, budget=budget, base_rate=flat,
        turn_cost=lambda a: view.turn_cost(a, start_rate, free),
        barriers=[*barriers, table, *blocking], end_only=end_only,
        dear=[(t.shape, rate) for t, _ in _near(pos, unit, budget)
              if view.row(t) != ELEVATED and (rate := view.rate(t)) is not None
              and rate > flat],
        minimum=unit.move + 0.01 if action_type in RUN_LIKE else None,
        axes=_axes(view, unit.facing), may_turn=turn_sweeps_clear(unit, near, MARGIN))
    found = turn_then_straight_reach(unit.id, action_type, spec)
    if action_type != "charge":
        return found
    # 002 Charge Move Action: like a Run, ending in base contact with its target; each
    # opposing unit is a target, and an end names the one it touches (`keys_at`).
    return contact_reach(found, unit.position, unit.base.radius, [
        ContactTarget(t.id, pos.bodies[t.id].core, pos.bodies[t.id].radius, {"target": t.id})
        for t in targets])


def _charge_targets(pos: MswarsPosition, unit: Unit, budget: float) -> list[Unit]:
    """Opposing units on the table within the charge's reach."""
    sx, sy = unit.position
    far = budget + 2 * unit.base.radius + 8
    return [o for o in pos.on_table if o.id != unit.id and opposing(unit, o)
            and math.dist((sx, sy), o.position[:2]) <= far]


def _axes(view: Any, facing: float) -> list[tuple[float, float]]:
    """Forward (x1), backward (x2) and, for walkers, sideways (x2): the directions a unit
    moves in without turning first (002 Rules: Movement, "Specials"; MSW-D5, MSW-D33)."""
    out = []
    for offset in (0.0, 180.0, 90.0, -90.0):
        h = math.radians(facing + offset)
        factor, allowed, _ = view.direction(facing, math.cos(h), math.sin(h))
        if allowed:
            out.append((offset, factor))
    return out


def _near(pos: MswarsPosition, unit: Unit, budget: float) -> list[tuple[Any, Any]]:
    sx, sy = unit.position
    far = budget + 2 * unit.base.radius + 2
    return pos.view(unit).near(sx - far, sy - far, sx + far, sy + far)


def _terrain_barriers(pos: MswarsPosition, unit: Unit, budget: float,
                      jumping: bool = False) -> list[Any]:
    """Elevated features the unit is not on (its base may not touch them), "Can't"
    terrain (its centre may not enter), and beyond the top it stands on (unless it jumps
    off it)."""
    view = pos.view(unit)
    r = unit.base.radius
    top = view.top_under(unit.position)
    out = []
    for t, shape in _near(pos, unit, budget):
        if t is top:
            continue
        if view.row(t) == ELEVATED:
            out.append(shape.buffer(r + MARGIN, join_style="mitre", mitre_limit=3.0))
        elif view.rate(t) is None:
            out.append(shape.buffer(MARGIN, join_style="mitre", mitre_limit=3.0))
    if top is not None and not jumping:
        w, h = pos.state.table.width, pos.state.table.height
        out.append(box(-1e3, -1e3, w + 1e3, h + 1e3).difference(top.shape.buffer(-MARGIN)))
    return out


def _climb_reach(state: GameState, unit: Unit) -> Reach:
    """002 Climb Action: the engine places the unit on top (the nearest pose inside across
    the contacted edge); a one-point path must match it within 0.01". The area is that
    pose (a disc just short of 0.01"), the path the pose, and `target` the feature."""
    from rules.engine.dice import make_dice
    from rules.systems.mswars.elevation import climb

    pos = position_of(state)
    verdict = climb(pos, unit, Action(unit.id, "climb"), make_dice(unresolved=True))
    moved = next((e for e in verdict.events if e.get("type") == "moved"), None)
    onto = next((e.get("onto") for e in verdict.events if e.get("type") == "climbed"), None)
    if not verdict.legal or moved is None:
        return nowhere(unit.id, "climb", unit.position, 0.0)
    end = (float(moved["to"][0]), float(moved["to"][1]))
    area = Point(end).buffer(0.009, quad_segs=8)
    start = (unit.position[0], unit.position[1])

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        return [start, p] if area.dwithin(Point(p), 0.0005) else None

    return Reach(unit.id, "climb", area, math.dist(start, end), path_to,
                 _keys_at=lambda p: {"target": onto} if onto is not None else {})
