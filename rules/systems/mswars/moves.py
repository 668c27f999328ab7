"""Every move action as the kernel plays a move (`MswarsMoves`): Standard Move, Run, Break
Away, Manoeuvre, Charge, Enter Unit and Unit Exiting; Jump, Climb and Carrier Unloading,
with rules of their own; and the standalone free turn, which is no move action (002 Move
Actions; mswars.md sections 5 and 7)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.allowance import Allowance
from rules.engine.dice import Dice
from rules.engine.judgement import AFTER, PathJudgement, moved_event, who
from rules.engine.move_in_play import MoveInPlay
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.play import Play
from rules.engine.priced_path import PricedPath, steps_with_final_facing
from rules.geometry.arcs import in_base_contact
from rules.model.actions import Action, Step, Turn
from rules.model.state import GameState, Unit
from rules.systems.mswars.carriers import (
    check_entered,
    check_exited,
    check_unloading,
    set_down,
    unloaded,
)
from rules.systems.mswars.elevation import check_climb, check_jumped, climbed, jump_top, landed
from rules.systems.mswars.path import free_rotation, normalised_steps
from rules.systems.mswars.rules_common import (
    allowance_for,
    applied,
    check_can_act,
    measured_path,
    no_path,
    opposing_contacts,
)
from rules.systems.mswars.tables import LABEL, RUN_LIKE
from rules.systems.mswars.terrain import MswarsPosition
from rules.systems.mswars.turns import phase_of

#: The move actions with rules of their own: 002 Jump Action (off the top the unit stands
#: on, to a landing told before any Fall), 002 Climb Action (no path: placed on top by
#: the engine) and 002 Carrier Unloading Action (the carrier's move, then the units it
#: sets down at its rear). Their end tells their events.
OWN_RULES = frozenset({"jump", "climb", "carrier_unloading"})


def steps_made(unit: Unit, action: Action) -> list[Step]:
    """The action's steps, its `facing` a last turn, each turn the short way (MSW-D6,
    MSW-D31), without turns of nothing."""
    steps = normalised_steps(steps_with_final_facing(unit, action))
    return [s for s in steps if not (isinstance(s, Turn) and s.angle == 0)]


def is_standalone_free_turn(pos: MswarsPosition, unit: Unit, action: Action) -> bool:
    """A standard move made only of one turn step that the free turn covers (MSW-D26)."""
    if action.type != "standard_move" or unit.aboard is not None:
        return False
    steps = steps_made(unit, action)
    return (
        len(steps) == 1
        and isinstance(steps[0], Turn)
        and 0 < abs(steps[0].angle) <= free_rotation(pos, unit) + 1e-9
    )


def lacks_manoeuvre_skill(unit: Unit, action_type: str) -> bool:
    """002 Manoeuvre Action: only a pilot with the Combat Manoeuvres skill may take it."""
    return action_type == "manoeuvre" and "combat_manoeuvres" not in (unit.get("skills") or [])


def check_move_kind(
    judgement: PathJudgement, unit: Unit, action_type: str, foes: list[Unit]
) -> None:
    """What Break Away and Manoeuvre ask before any path: an opposing unit in base
    contact to break away from, the Combat Manoeuvres skill (002 Move Actions)."""
    at = unit.position
    if action_type == "break_away" and not foes:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} is in base contact with no opposing unit: nothing to Break Away from",
            at,
            "002 Break Away Action",
        )
    if lacks_manoeuvre_skill(unit, action_type):
        judgement.add(
            "action_not_allowed",
            f"{who(unit)}'s pilot lacks the Combat Manoeuvres skill",
            at,
            "002 Manoeuvre Action",
        )


class MswarsMoves(Play):
    """The move actions along a path as the kernel plays a move (rules/engine/play.py):
    these are the hooks where mswars's rules differ. The standalone free turn is no move
    action: 0 MP, 0 AC, no move action used, allowed in base contact (MSW-D26). Jump,
    Climb and Carrier Unloading have rules of their own (`OWN_RULES`)."""

    def check_may_move(self, move: MoveInPlay) -> None:
        position, unit, action = move.position, move.unit, move.action
        free_turn = is_standalone_free_turn(position, unit, action)
        straighten = straightens(unit, action)
        check_can_act(position, move.judgement, unit, action, free_turn, straighten)

    def allowance(self, move: MoveInPlay) -> Allowance:
        """A unit aboard may take none of the actions with rules of their own: it has
        nothing to measure their path against."""
        if move.action.type in OWN_RULES and move.unit.aboard is not None:
            return Allowance(0.0)
        return allowance_for(move.unit, move.action.type)

    def free_rotation(self, position: MswarsPosition, unit: Unit) -> float:
        return free_rotation(position, unit)

    def measure_path(self, move: MoveInPlay) -> PricedPath:
        """A Climb has no path to price (0 MP, placed on top by the engine); a Jump's
        path may cross the edge of the top it leaves (MSW-D24)."""
        position, unit, action = move.position, move.unit, move.action
        if action.type == "climb":
            return no_path(unit)
        mover, moving = mover_of(position, unit, action)
        top = jump_top(position, unit) if action.type == "jump" else None
        judgement, allowance = move.judgement, move.allowance
        return measured_path(
            judgement, position, unit, moving, allowance, mover=mover, jumping_from=top
        )

    def check_moved(self, move: MoveInPlay) -> None:
        """What each action asks of the unit and where it ends (002 Move Actions); a unit
        aboard is refused by check_can_act, with nothing more to judge, unless it exits."""
        position, judgement, unit, action = move.position, move.judgement, move.unit, move.action
        priced = move.priced
        if action.type in OWN_RULES:
            check_own_move(move)
            return
        if action.type == "unit_exiting":
            check_exited(position, judgement, unit, action)
            return
        if unit.aboard is not None:
            return
        foes = opposing_contacts(position, unit)
        check_move_kind(judgement, unit, action.type, foes)
        if action.type in RUN_LIKE and priced.cost <= unit.move + LENGTH_TOL:
            judgement.add(
                "action_not_allowed",
                f"a {LABEL[action.type]} must cost more than Move: "
                f"{who(unit)} spends {fmt(priced.cost)} MP of Move {fmt(unit.move)} MP",
                priced.end.xy,
                "002 Move Actions: Run, MSW-D32",
                AFTER,
            )
        moved = unit.moved(priced.end.xy, priced.end.facing)
        target = (
            charge_target(position, judgement, unit, action) if action.type == "charge" else None
        )
        lost = [o.id for o in foes if not in_base_contact(moved, o)]
        if action.type == "manoeuvre" and lost:
            judgement.add(
                "must_end_in_contact",
                f"a Manoeuvre must end in base contact with {', '.join(lost)}",
                moved.position,
                "002 Manoeuvre Action",
                AFTER,
            )
        if target is not None and not in_base_contact(moved, target):
            judgement.add(
                "must_end_in_contact",
                f"{who(unit)} must end its Charge in base contact with {target.id}",
                moved.position,
                "002 Charge Move Action",
                AFTER,
            )
        if action.type == "enter_unit":
            check_entered(position, judgement, unit, action.get("carrier"), moved)

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """A fallen unit stands up; a unit breaking away takes its Attacks of Opportunity,
        and is Pinned if one hits and it moves; a charge records its target; a unit
        entering ends aboard its carrier, one exiting where its move from the rear ends."""
        position, judgement, unit, action = move.position, move.judgement, move.unit, move.action
        priced = move.priced
        if action.type in OWN_RULES:
            return own_move_end(move)
        moved = mover_of(position, unit, action)[0].moved(priced.end.xy, priced.end.facing)
        if unit.get("fallen") == "straighten":
            moved = moved.with_props(fallen=None)
            judgement.events.append({"type": "straightened", "unit": unit.id})
        foes = opposing_contacts(position, unit) if action.type == "break_away" else []
        if attacks_of_opportunity(judgement, unit, foes, move.dice) and priced.track.translates:
            moved = moved.with_props(pinned=True)  # Pinning: recorded only (MSW-D11)
            judgement.events.append({"type": "pinned", "unit": unit.id})
        if action.type == "charge":
            moved = moved.with_props(charge_target=action.get("target"))
        if action.type == "enter_unit":
            moved = replace(moved, aboard=action.get("carrier"))
        return moved

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        """A free turn says so: the log reads "turned in place", not a 0 MP move. A unit
        entering its carrier moves to it, then boards (002 Enter Unit); a unit exiting
        leaves it, then moves (002 Unit Exiting Action). The end of an action with rules
        of its own told its events, in order, the unit's move first."""
        unit, moved = move.unit, move.moved
        if move.action.type in OWN_RULES:
            return []
        if is_standalone_free_turn(move.position, unit, move.action):
            return [{**moved_event(moved), "free_turn": True}]
        if moved.aboard is not None:
            boarded = {"type": "boarded", "unit": unit.id, "carrier": moved.aboard}
            return [moved_event(moved), boarded]
        if unit.aboard is not None:
            exited = {"type": "exited", "unit": unit.id, "carrier": unit.aboard}
            return [exited, moved_event(moved)]
        return [moved_event(moved)]

    def after_move(self, move: MoveInPlay) -> GameState:
        """The move action entered in the turn's record, with the carrier a unit entered
        or exited (what keeps that carrier to Carrier Unloading this phase). A free turn
        spends no move action; a climb turns nothing, so keeps the free turn; each unit a
        carrier sets down has made a move action this phase (002 Carrier Unloading)."""
        position, unit, action, moved = move.position, move.unit, move.action, move.moved
        state, kind = position.state, action.type
        if is_standalone_free_turn(position, unit, action):
            return applied(state, unit, kind, [moved], free_turn=True, spends=False)
        if kind == "climb":
            return applied(state, unit, kind, [moved], free_turn=False)
        if kind == "carrier_unloading":
            placed = unloaded(position, moved, action)
            phase = phase_of(state.turn)
            return applied(
                state,
                unit,
                kind,
                [moved, *placed],
                free_turn=turns_freely(position, unit, action),
                others=[(u.id, {"phase": phase, "type": kind}) for u in placed],
            )
        carrier = moved.aboard or unit.aboard
        return applied(
            state,
            unit,
            kind,
            [moved],
            free_turn=turns_freely(position, *mover_of(position, unit, action)),
            extra={"carrier": carrier} if carrier is not None else None,
        )


def mover_of(pos: MswarsPosition, unit: Unit, action: Action) -> tuple[Unit, Action]:
    """The unit that moves and the move it makes: a unit exiting moves once it is set down
    at its carrier's rear (`set_down`)."""
    if action.type == "unit_exiting":
        out, rest, _ = set_down(pos, unit, action)
        return out, rest
    return unit, action


def straightens(unit: Unit, action: Action) -> bool:
    """A fallen unit straightens up with a Standard Move of an empty path (MSW-D46)."""
    return (
        unit.get("fallen") == "straighten"
        and action.type == "standard_move"
        and not action.path
        and action.facing is None
    )


def turns_freely(pos: MswarsPosition, unit: Unit, action: Action) -> bool:
    """Whether a legal move spends the phase's free turn: any turn it makes while the turn
    is still free does (002 Turning, MSW-D7)."""
    turned = any(isinstance(s, Turn) for s in steps_made(unit, action))
    return turned and free_rotation(pos, unit) > 0


def charge_target(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action
) -> Unit | None:
    tid = action.get("target")
    target = pos.state.unit(tid) if isinstance(tid, str) else None
    if target is None or target.aboard is not None:
        # In a player's words: the charge names no target, or one not on the table.
        what = "names no target" if tid is None else f"names {tid}, which is not on the table"
        judgement.add(
            "action_not_allowed" if tid is None else "unknown_unit",
            f"{unit.id}'s Charge {what}: pick the opposing unit it charges",
            unit.position,
            "002 Charge Move Action",
        )
        return None
    if target.side == unit.side:
        judgement.add(
            "action_not_allowed",
            f"{target.id} is not an opposing unit: no Charge at a friend",
            unit.position,
            "MSW-D45",
        )
    return target


def attacks_of_opportunity(
    judgement: PathJudgement, unit: Unit, foes: list[Unit], dice: Dice
) -> bool:
    """Every opposing unit in base contact attacks first; hits come from `outcomes`, in
    `units` order, else stay unresolved (002 Break Away Action, MSW-D28, MSW-D42)."""
    any_hit = False
    for foe in foes:
        outcome = dice.outcome(f"attack of opportunity by {foe.id}")
        any_hit = any_hit or bool(outcome)
        judgement.events.append(
            {
                "type": "attack_of_opportunity",
                "unit": foe.id,
                "target": unit.id,
                "result": "unresolved" if outcome is None else "hit" if outcome else "miss",
                "action_cost": "one less than normal",
                "skills": False,
            }
        )
    return any_hit


def check_own_move(move: MoveInPlay) -> None:
    """Where a Jump lands, whether a Climb may climb, what a carrier unloads; a unit
    aboard, which may take none of them, has no path and nothing to measure it against."""
    pos, judgement, unit, action = move.position, move.judgement, move.unit, move.action
    if action.type == "jump":
        check_jumped(pos, judgement, unit, move.priced)
    elif unit.aboard is None and action.type == "climb":
        check_climb(pos, judgement, unit, action)
    elif unit.aboard is None:
        check_unloading(pos, judgement, unit, action, move.priced)


def own_move_end(move: MoveInPlay) -> Unit:
    """A Jump lands, told before any Fall; a Climb is placed on top; a carrier's move
    (none: 0 MP) is told, then each unit it sets down at its rear (MSW-D39)."""
    pos, judgement, unit, action = move.position, move.judgement, move.unit, move.action
    end = move.priced.end
    if action.type == "jump":
        return landed(judgement, pos, unit, end, move.dice)
    if action.type == "climb":
        return climbed(judgement, pos, unit, action)
    carrier = unit.moved(end.xy, end.facing)
    judgement.events.append(moved_event(carrier))
    for u in unloaded(pos, carrier, action):
        judgement.events += [moved_event(u), {"type": "unloaded", "unit": u.id, "carrier": unit.id}]
    return carrier
