"""Move actions along a path: Standard Move, Run, Break Away, Manoeuvre, Charge, and the
standalone free turn (002 Move Actions; mswars.md sections 5 and 7)."""

from __future__ import annotations

from typing import Any

from rules.engine.actions import Action, Turn
from rules.engine.dice import Dice
from rules.engine.model import Unit
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.verdict import Verdict
from rules.geometry.bases import body_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose
from rules.systems.mswars.judgement import AFTER, Judgement, moved_event
from rules.systems.mswars.path import free_rotation, judge_path, normalised_steps
from rules.systems.mswars.rules_common import (
    allowance_for,
    applied,
    check_can_act,
    moves_at_all,
    opposing_contacts,
    steps_of,
    who,
)
from rules.systems.mswars.tables import LABEL, RUN_LIKE
from rules.systems.mswars.terrain import MswarsPosition


def is_standalone_free_turn(pos: MswarsPosition, unit: Unit, action: Action) -> bool:
    """A standard move made only of turn steps that the free turn covers (MSW-D26)."""
    if action.type != "standard_move" or unit.aboard is not None:
        return False
    steps = [s for s in normalised_steps(steps_of(unit, action)) if not
             (isinstance(s, Turn) and s.angle == 0)]
    free = free_rotation(pos, unit)
    return (len(steps) == 1 and isinstance(steps[0], Turn) and free > 0
            and abs(steps[0].angle) <= free + 1e-9)


def touching(a: Unit, b: Unit) -> bool:
    return body_at(a.base, *a.position, a.facing).distance(
        body_at(b.base, *b.position, b.facing)) <= CONTACT


def move_along_path(pos: MswarsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    state = pos.state
    j = Judgement(state)
    steps = steps_of(unit, action)
    if is_standalone_free_turn(pos, unit, action):
        return free_turn(pos, j, unit, action)
    straighten = unit.get("fallen") == "straighten" and action.type == "standard_move" \
        and not action.path and action.facing is None
    check_can_act(pos, j, unit, action, straighten=straighten)
    if pos.view(unit).immobile and moves_at_all(unit, steps):
        j.add("action_not_allowed", f"{who(unit)} is static: it can neither move nor turn "
              "(002 Turning)", unit.position, "002 Turning")
    start_foes = opposing_contacts(pos, unit)
    if action.type == "break_away" and not start_foes:
        j.add("action_not_allowed", f"{who(unit)} is in base contact with no opposing unit: "
              "nothing to Break Away from (002 Break Away Action)", unit.position,
              "002 Break Away Action")
    if action.type == "manoeuvre" and "combat_manoeuvres" not in (unit.get("skills") or []):
        j.add("action_not_allowed", f"{who(unit)}'s pilot lacks the Combat Manoeuvres skill "
              "(002 Manoeuvre Action)", unit.position, "002 Manoeuvre Action")
    target = _charge_target(pos, j, unit, action) if action.type == "charge" else None
    allowance = allowance_for(unit, action.type)
    result = judge_path(pos, j, unit, Pose(*unit.position, unit.facing), steps, allowance)
    j.cost, j.allowance = result.cost, allowance.value
    if action.type in RUN_LIKE and result.cost <= unit.move + LENGTH_TOL:
        j.add("action_not_allowed", f"a {LABEL[action.type]} must cost more than Move: "
              f"{who(unit)} spends {fmt(result.cost)} MP of Move {fmt(unit.move)} MP "
              "(002 Move Actions: Run, MSW-D32)", result.end.xy, "MSW-D32", AFTER)
    moved = unit.moved(result.end.xy, result.end.facing)
    if action.type == "manoeuvre":
        lost = [o for o in start_foes if not touching(moved, o)]
        if lost:
            j.add("must_end_in_contact", f"a Manoeuvre must end in base contact with "
                  f"{', '.join(o.id for o in lost)} (002 Manoeuvre Action)", moved.position,
                  "002 Manoeuvre Action", AFTER)
    if target is not None and not touching(moved, target):
        j.add("must_end_in_contact", f"{who(unit)} must end its Charge in base contact with "
              f"{target.id} (002 Charge Move Action)", moved.position,
              "002 Charge Move Action", AFTER)
    if not j.legal:
        return j.verdict()
    if straighten:
        moved = moved.with_props(fallen=None)
        j.events.append({"type": "straightened", "unit": unit.id})
    if action.type == "break_away":
        hit = attacks_of_opportunity(j, unit, start_foes, dice)
        if hit and result.track.translates:
            moved = moved.with_props(pinned=True)  # Pinning: recorded only (MSW-D11)
            j.events.append({"type": "pinned", "unit": unit.id})
    if target is not None:
        moved = moved.with_props(charge_target=target.id)
    j.events.append(moved_event(moved))
    return j.verdict(applied(state, unit, action.type, [moved],
                             free_turn=result.price.free_used))


def free_turn(pos: MswarsPosition, j: Judgement, unit: Unit, action: Action) -> Verdict:
    """0 MP, 0 AC, no move action used, allowed in base contact (MSW-D26)."""
    check_can_act(pos, j, unit, action, free_turn_only=True)
    result = judge_path(pos, j, unit, Pose(*unit.position, unit.facing),
                        steps_of(unit, action), allowance_for(unit, "standard_move"))
    j.cost, j.allowance = result.cost, unit.move
    if not j.legal:
        return j.verdict()
    moved = unit.moved(result.end.xy, result.end.facing)
    j.events.append(moved_event(moved))
    return j.verdict(applied(pos.state, unit, action.type, [moved], free_turn=True,
                             spends=False))


def _charge_target(pos: MswarsPosition, j: Judgement, unit: Unit, action: Action) -> Unit | None:
    tid = action.get("target")
    if not isinstance(tid, str):
        j.add("action_not_allowed", "a Charge must declare a target (002 Charge Move Action)",
              unit.position, "002 Charge Move Action")
        return None
    target = pos.state.unit(tid)
    if target is None or target.aboard is not None:
        j.add("unknown_unit", f"no unit {tid!r} on the table", unit.position, "")
        return None
    if target.side == unit.side:
        j.add("action_not_allowed", f"{target.id} is not an opposing unit: no Charge at a "
              "friend (MSW-D45)", unit.position, "MSW-D45")
    return target


def attacks_of_opportunity(j: Judgement, unit: Unit, foes: list[Unit], dice: Dice) -> bool:
    """Every opposing unit in base contact attacks first; hits come from `outcomes`, in
    `units` order, else stay unresolved (002 Break Away Action, MSW-D28, MSW-D42)."""
    any_hit = False
    for foe in foes:
        outcome = dice.outcome(f"attack of opportunity by {foe.id}")
        result = "unresolved" if outcome is None else "hit" if outcome else "miss"
        any_hit = any_hit or bool(outcome)
        event: dict[str, Any] = {"type": "attack_of_opportunity", "unit": foe.id,
                                 "target": unit.id, "result": result,
                                 "action_cost": "one less than normal", "skills": False}
        j.events.append(event)
    return any_hit
