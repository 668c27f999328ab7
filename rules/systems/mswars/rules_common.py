"""What every move action shares: allowances, who may act now, and applying a legal one
(mswars.md sections 2, 4, 6 and 7)."""

from __future__ import annotations

from typing import Any

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import bases_touching
from rules.engine.judgement import PathJudgement, who
from rules.engine.numbers import fmt
from rules.engine.priced_path import PricedPath, check_priced_path, steps_with_final_facing
from rules.engine.pricing import PathPrice
from rules.geometry.bases import body_at
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Waypoint
from rules.model.state import GameState, Terrain, Unit
from rules.systems.mswars.path import (
    CITES,
    MswarsBases,
    check_elevated,
    free_rotation,
    normalised_steps,
)
from rules.systems.mswars.tables import (
    ACTION_COST,
    ACTIONS,
    CARRIER_ACTIONS,
    IN_CONTACT_ACTIONS,
    LABEL,
    RUN_LIKE,
)
from rules.systems.mswars.terrain import MswarsPosition, opposing
from rules.systems.mswars.turns import acted_in, entries, phase_of

MOVE_CITE = "002 Rules: Movement"


def allowance_for(unit: Unit, action_type: str) -> Allowance:
    """MP allowance (mswars.md section 2): Move, twice Move or exactly half (MSW-D21)."""
    row = ACTIONS[action_type]
    if row.allowance == "double":
        return Allowance(
            2 * unit.move, f"{row.label}: twice Move", row.cite, rounding="exact", unit_label=" MP"
        )
    base = Allowance(
        0.0 if row.allowance == "none" else unit.move,
        "Move",
        MOVE_CITE,
        rounding="exact",
        unit_label=" MP",
    )
    return base.halve(f"{row.label} at half Move", row.cite) if row.allowance == "half" else base


def measured_path(
    judgement: PathJudgement,
    pos: MswarsPosition,
    unit: Unit,
    action: Action,
    allowance: Allowance,
    *,
    mover: Unit | None = None,
    jumping_from: Terrain | None = None,
) -> PricedPath:
    """The path of `mover` (the unit itself, or the unit placed out of its carrier), every
    finding on it added to `judgement`: the kernel's priced-path checks with mswars's prices and
    bases, the `facing` key read as a final turn, charged (MSW-D31), plus elevated terrain
    (MSW-D24); static units may not move."""
    mover = mover or unit
    start = Pose(*mover.position, mover.facing)
    if mover.aboard is not None:  # off the table: it has no path (check_can_act refuses it)
        return no_path(mover)
    steps = normalised_steps(steps_with_final_facing(mover, action))
    xs = [start.x] + [s.x for s in steps if isinstance(s, Waypoint)]
    ys = [start.y] + [s.y for s in steps if isinstance(s, Waypoint)]
    view = pos.view(mover)
    result, found = check_priced_path(
        pos,
        mover,
        start,
        steps,
        view.along((min(xs), min(ys), max(xs), max(ys))),  # the centre path's box
        allowance,
        MswarsBases(),
        cites=CITES,
        name=who(mover),
        free_rotation=free_rotation(pos, mover),
    )
    judgement.found += found
    check_elevated(view, judgement, result.track, start, jumping_from)
    if pos.view(unit).immobile and result.track.motions:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} is static: it can neither move nor turn",
            unit.position,
            "002 Turning",
        )
    return result


def no_path(unit: Unit) -> PricedPath:
    """The path of a unit that goes nowhere by moving: 0 MP, where it stands."""
    return PricedPath(PathPrice(()), Track(unit.base, Pose(*unit.position, unit.facing), ()))


def opposing_contacts(pos: MswarsPosition, unit: Unit, pose: Pose | None = None) -> list[Unit]:
    pose = pose or Pose(*unit.position, unit.facing)
    body = body_at(unit.base, pose.x, pose.y, pose.facing)
    return [o for o in bases_touching(pos, unit, body) if opposing(unit, o)]


def check_can_act(
    pos: MswarsPosition,
    judgement: PathJudgement,
    unit: Unit,
    action: Action,
    free_turn_only: bool = False,
    straighten: bool = False,
) -> None:
    """Who may make this move action now (every code that applies is added)."""
    turn = pos.state.turn
    at = unit.position
    if unit.aboard is not None and action.type != "unit_exiting":
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} is aboard {unit.aboard}: it can only exit",
            None,
            "002 Unit Exiting",
        )
    if unit.aboard is None:
        rate, terrain = pos.view(unit).rate_at(*unit.position)
        if rate is None:
            judgement.add(
                "prohibited_terrain",
                f'{who(unit)} is set up in {terrain}, "Can\'t" for its move type: it cannot act',
                at,
                "MSW-D25",
            )
    fallen = unit.get("fallen")
    if fallen == "this_turn":
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} fell this turn and can make no further action",
            at,
            "002 Falling",
        )
    elif fallen == "straighten" and not straighten:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} must first straighten up: a Standard Move with an empty path",
            at,
            "002 Falling, MSW-D46",
        )
    if free_turn_only:
        return
    if unit.aboard is None and action.type not in IN_CONTACT_ACTIONS and not straighten:
        foes = opposing_contacts(pos, unit)
        if foes:
            judgement.add(
                "action_not_allowed",
                f"{who(unit)} is in base contact with "
                f"{', '.join(o.id for o in foes)}: only Break Away or Manoeuvre",
                at,
                "002 Move Actions",
            )
    phase = phase_of(turn)
    if acted_in(turn, unit.id, phase):
        judgement.add(
            "no_actions_left",
            f"{who(unit)} has already made its move action in Movement Phase {phase}",
            at,
            MOVE_CITE,
        )
    if phase == 2 and any(e.get("type") in RUN_LIKE for e in acted_in(turn, unit.id, 1)):
        judgement.add(
            "no_actions_left",
            f"{who(unit)} ran in the first Movement Phase: no move action in the second",
            at,
            "002 Move Actions: Run",
        )
    if action.type in RUN_LIKE and phase == 2 and acted_in(turn, unit.id, 1):
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} made a move action in the first Movement "
            f"Phase: no {LABEL[action.type]} in the second",
            at,
            "002 Move Actions: Run",
        )
    points = turn.get("action_points", {})
    if unit.id in points and ACTION_COST[action.type] > points[unit.id]:
        judgement.add(
            "no_actions_left",
            f"{who(unit)} has {fmt(points[unit.id])} AP left; "
            f"{LABEL[action.type]} costs {ACTION_COST[action.type]} AP",
            at,
            "MSW-D9",
        )
    if action.type != "carrier_unloading" and carrier_busy(pos.state, unit.id):
        judgement.add(
            "action_not_allowed",
            f"a unit entered or left {who(unit)} this phase: its only "
            "move action now is Carrier Unloading",
            at,
            "002 Enter Unit",
        )


def may_act(pos: MswarsPosition, unit: Unit, action_type: str, **can_act: bool) -> bool:
    """Whether `check_can_act` lets the unit make a move action of this type now."""
    judgement = PathJudgement(pos.state)
    check_can_act(pos, judgement, unit, Action(unit.id, action_type), **can_act)
    return judgement.legal


def carrier_of_entry(state: GameState, unit_id: str, entry: Any) -> str | None:
    if entry.get("carrier"):
        return str(entry["carrier"])
    u = state.unit(unit_id)
    return None if u is None else u.aboard


def carrier_busy(state: GameState, carrier_id: str) -> bool:
    """A unit entered or exited this carrier this phase (002 Enter Unit, Unit Exiting)."""
    phase = phase_of(state.turn)
    for uid in state.turn.get("actions_taken", {}):
        for e in entries(state.turn, uid):
            if (
                e.get("phase") == phase
                and e.get("type") in CARRIER_ACTIONS
                and carrier_of_entry(state, uid, e) == carrier_id
            ):
                return True
    return False


def has_moved_this_phase(state: GameState, unit_id: str) -> bool:
    return bool(acted_in(state.turn, unit_id, phase_of(state.turn)))


def applied(
    state: GameState,
    unit: Unit,
    action_type: str,
    changed: list[Unit],
    *,
    free_turn: bool,
    extra: dict[str, Any] | None = None,
    others: list[tuple[str, dict[str, Any]]] | None = None,
    spends: bool = True,
) -> GameState:
    """The state after a legal move action: units replaced, entries appended (the unit's
    unless it `spends` none, and `others`), AP spent, the free turn marked used."""
    turn = dict(state.turn)
    made: list[tuple[str, dict[str, Any]]] = []
    if spends:
        made.append((unit.id, {"phase": phase_of(turn), "type": action_type, **(extra or {})}))
    made.extend(others or [])
    if made:
        taken = {k: list(v) for k, v in state.turn.get("actions_taken", {}).items()}
        for unit_id, entry in made:
            taken.setdefault(unit_id, []).append(entry)
        turn["actions_taken"] = taken
    points = dict(state.turn.get("action_points", {}))
    if spends and unit.id in points:
        points[unit.id] = points[unit.id] - ACTION_COST[action_type]
        turn["action_points"] = points
    if free_turn:
        turn["free_turn_used"] = {**state.turn.get("free_turn_used", {}), unit.id: True}
    return state.with_units(*changed).with_turn(**turn)
