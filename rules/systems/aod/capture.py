"""`capture` (001 CAPTURE [26-27], aod.md 11.3; AOD-D32)."""

from __future__ import annotations

from rules.engine.dice import Dice
from rules.engine.judgement import Judgement
from rules.engine.verdict import Verdict, Violation
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.aod.contact import opposing_contacts
from rules.systems.aod.elevation import across_abrupt_edge
from rules.systems.aod.orders import captive_of, check_order, refused
from rules.systems.aod.position import AodPosition
from rules.systems.aod.turn import order_given
from rules.systems.aod.units import is_captive, is_vtol
from rules.systems.aod.water import same_water


def target_problem(position: AodPosition, unit: Unit, target: Unit) -> tuple[str, str] | None:
    """(why, cite) `target` may not be taken captive by `unit`, or None (001 [26-27],
    000 [33-34]): the judge asks it of the target named, offers of every candidate."""
    if is_captive(target):
        return f"{target.id} is a captive and may not be targeted", "001 [27]"
    if captive_of(position.state, target.id) is not None:
        return f"{target.id} is a captor and may not be the target of a capture", "001 [27]"
    if target.id not in {u.id for u in opposing_contacts(position, unit)}:
        return f"{target.id} must be an opposing unit in base contact", "001 [26]"
    if not same_water(position, unit, target) or not same_water(position, target, unit):
        return "in water both units must be in the same water feature", "000 [33]"
    if across_abrupt_edge(position, unit, target):
        return "no close combat between units on and off abrupt elevated terrain", "000 [34]"
    return None


def capture(position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    state = position.state
    judgement = Judgement(state)

    def no(msg: str, cite: str) -> Verdict:
        return judgement.refuse(refused(unit, msg, cite))

    pre = check_order(state, unit, "capture")
    if pre:
        return judgement.refuse(*pre)
    if action.translates:
        return no("a capture attempt has no movement", "001 [26]")
    if captive_of(state, unit.id) is not None:
        return no("a captor can have only 1 captive at a time", "001 [27]")
    tid = action.get("target")
    target = state.unit(tid) if isinstance(tid, str) else None
    if target is None or target.aboard is not None:
        missing = (
            f"{unit.id}'s capture names no target" if tid is None else f"{tid} is not on the table"
        )
        return judgement.refuse(Violation("unknown_unit", missing, unit.position))
    problem = target_problem(position, unit, target)
    if problem is not None:
        return no(*problem)
    result = dice.outcome("capture")
    changed: list[Unit] = []
    removed: tuple[str, ...] = ()
    if not result:
        outcome = "unresolved" if result is None else "fail"
        judgement.events.append(
            {"type": "capture_attempt", "unit": unit.id, "target": target.id, "result": outcome}
        )
    elif is_vtol(target):
        removed = (target.id,)  # VTOLs are eliminated instead of captured (000 [18])
        why = "a captured VTOL is eliminated (000 [18])"
        judgement.events.append(
            {"type": "eliminated", "unit": target.id, "by": unit.id, "why": why}
        )
    else:
        changed.append(target.with_props(captive_of=unit.id))
        judgement.events.append({"type": "captured", "unit": target.id, "by": unit.id})
        # A captured transport's passengers disembark (000 [19]).
        judgement.events += [
            {"type": "must_disembark", "unit": p.id, "transport": target.id, "push_damage": 1}
            for p in state.units
            if p.aboard == target.id
        ]
    after = order_given(state, (unit.id,), "capture", changed, [], removed)
    return judgement.verdict(after)
