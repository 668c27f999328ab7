"""What the board offers an mswars unit now: the move actions whose preconditions it meets
(mswars.md sections 4-7), judged by the same checks a proposal meets, so that the action
bar and the unit card never offer what the engine would refuse before any path.

What depends on the path (cost, direction, bases met) is judged when the player proposes
one; what depends on the unit and the position alone is judged here.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine.judgement import PathJudgement
from rules.geometry.bases import body_at
from rules.geometry.tolerance import CONTACT
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.mswars.carriers import check_carrier_to_enter, check_exit, has_units_aboard
from rules.systems.mswars.elevation import check_jump_start, climbable, jump_top
from rules.systems.mswars.moves import check_move_kind
from rules.systems.mswars.path import free_rotation
from rules.systems.mswars.rules_common import (
    allowance_for,
    check_can_act,
    may_act,
    opposing_contacts,
)
from rules.systems.mswars.tables import ACTIONS
from rules.systems.mswars.terrain import MswarsPosition, opposing

#: What a static unit may still do: unload without moving (002 Turning, MSW-D48).
STATIC_ACTIONS = frozenset({"carrier_unloading"})


def offered_types(pos: MswarsPosition, unit: Unit) -> set[str]:
    """The action types `unit` may be offered now (a subset of the catalogue)."""
    if unit.aboard is not None:
        return {"unit_exiting"} if _passes(pos, unit, "unit_exiting") else set()
    if unit.get("fallen") == "straighten":
        # Only the straightening move: a Standard Move with an empty path (MSW-D46).
        return {"standard_move"} if _passes(pos, unit, "standard_move", straighten=True) else set()
    offered = {t for t in ACTIONS if _passes(pos, unit, t)}
    if pos.view(unit).immobile:
        offered &= STATIC_ACTIONS  # static units never move or turn (002 Turning)
    if free_turn_left(pos, unit):
        offered.add("standard_move")  # a standalone free turn, sent as one (MSW-D26)
    return offered


def free_turn_left(pos: MswarsPosition, unit: Unit) -> bool:
    """A standalone free turn is open to it: 0 AC, no move action, even in base contact
    (002 Turning, MSW-D26)."""
    return free_rotation(pos, unit) > 0 and may_act(pos, unit, "standard_move", free_turn_only=True)


def _passes(pos: MswarsPosition, unit: Unit, action_type: str, straighten: bool = False) -> bool:
    """Who may act (the checks every proposal meets), then the action's own preconditions."""
    judgement = PathJudgement(pos.state)
    action = Action(unit.id, action_type)
    check_can_act(pos, judgement, unit, action, straighten=straighten)
    # Standard Move and Run have none: check_can_act says it all (contact, phase rules, AP).
    own = PRECONDITIONS.get(action_type)
    if judgement.legal and own is not None:
        own(pos, judgement, unit, action)
    return judgement.legal


def _move_kind(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    check_move_kind(judgement, unit, action.type, opposing_contacts(pos, unit))


def _jump(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    check_jump_start(judgement, unit, jump_top(pos, unit))


def _enter(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    """A friendly carrier with room, not yet moved this phase, within half Move."""
    for carrier in _within(pos, unit, action.type):
        trial = PathJudgement(pos.state)
        check_carrier_to_enter(pos, trial, unit, carrier.id)
        if trial.legal:
            return
    judgement.add(
        "action_not_allowed", "no friendly carrier with room within reach", None, "002 Enter Unit"
    )


def _unload(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    if not has_units_aboard(pos, unit):
        judgement.add("action_not_allowed", "no unit aboard", None, "002 Carrier Unloading Action")


def _exit(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    carrier = pos.state.unit(unit.aboard) if unit.aboard is not None else None
    check_exit(pos, judgement, unit, carrier)


def _charge(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    """An opposing unit on the table within twice Move to charge (002 Charge Move Action)."""
    if not any(opposing(unit, other) for other in _within(pos, unit, action.type)):
        judgement.add(
            "action_not_allowed", "no opposing unit within reach", None, "002 Charge Move Action"
        )


def _within(pos: MswarsPosition, unit: Unit, action_type: str) -> list[Unit]:
    """Other units on the table whose base lies within the action's MP allowance (every
    ground costs at least 1 MP an inch to a unit that moves, 002 cost table)."""
    reach = allowance_for(unit, action_type).value + CONTACT
    body = body_at(unit.base, *unit.position, unit.facing)
    return [o for o in pos.on_table if o.id != unit.id and body.distance(pos.bodies[o.id]) <= reach]


#: Each adds to the judgement what keeps the action from being offered (what it returns
#: is not read).
PRECONDITIONS: dict[str, Callable[[MswarsPosition, PathJudgement, Unit, Action], object]] = {
    "break_away": _move_kind,
    "manoeuvre": _move_kind,
    "climb": climbable,
    "jump": _jump,
    "enter_unit": _enter,
    "carrier_unloading": _unload,
    "unit_exiting": _exit,
    "charge": _charge,
}
