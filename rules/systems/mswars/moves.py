"""Every move action as the kernel plays a move: Standard Move, Run, Break Away, Manoeuvre,
Charge, Enter Unit and Unit Exiting (`MswarsMoves`), and Jump, Climb and Carrier Unloading
with hooks of their own (`OwnMove`); and the standalone free turn, which is no move action
(002 Move Actions; mswars.md sections 5 and 7)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.allowance import Allowance
from rules.engine.dice import Dice
from rules.engine.judgement import AFTER, PathJudgement, moved_event, who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.play import Play
from rules.engine.priced_path import PricedPath, PricedTrack, steps_with_final_facing
from rules.engine.verdict import Verdict
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


def steps_made(unit: Unit, action: Action) -> list[Step]:
    """The action's steps, its `facing` a last turn, each turn the short way (MSW-D6,
    MSW-D31), without turns of nothing."""
    steps = normalised_steps(steps_with_final_facing(unit, action))
    return [s for s in steps if not (isinstance(s, Turn) and s.angle == 0)]


def is_standalone_free_turn(pos: MswarsPosition, unit: Unit, action: Action) -> bool:
    """A standard move made only of one turn step that the free turn covers (MSW-D26)."""
    steps = steps_made(unit, action)
    free = free_rotation(pos, unit)
    return (
        action.type == "standard_move"
        and unit.aboard is None
        and len(steps) == 1
        and isinstance(steps[0], Turn)
        and 0 < abs(steps[0].angle) <= free + 1e-9
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
    action (MSW-D26): it is judged on its own."""

    def move(self, position: MswarsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        if is_standalone_free_turn(position, unit, action):
            return FreeTurn().move(position, unit, action, dice)
        return super().move(position, unit, action, dice)

    def check_may_move(
        self, judgement: PathJudgement, position: MswarsPosition, unit: Unit, action: Action
    ) -> None:
        check_can_act(position, judgement, unit, action, straighten=straightens(unit, action))

    def allowance(self, position: MswarsPosition, unit: Unit, action: Action) -> Allowance:
        return allowance_for(unit, action.type)

    def free_rotation(self, position: MswarsPosition, unit: Unit) -> float:
        return free_rotation(position, unit)

    def measure_path(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        allowance: Allowance,
    ) -> PricedPath:
        mover, moving = mover_of(position, unit, action)
        return measured_path(judgement, position, unit, moving, allowance, mover=mover)

    def check_moved(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        priced: PricedTrack,
    ) -> None:
        """What each action asks of the unit and where it ends (002 Move Actions); a unit
        aboard is refused by check_can_act, with nothing more to judge, unless it exits."""
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

    def end_of_move(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        priced: PricedTrack,
        dice: Dice,
    ) -> Unit:
        """A fallen unit stands up; a unit breaking away takes its Attacks of Opportunity,
        and is Pinned if one hits and it moves; a charge records its target; a unit
        entering ends aboard its carrier, one exiting where its move from the rear ends."""
        moved = mover_of(position, unit, action)[0].moved(priced.end.xy, priced.end.facing)
        if unit.get("fallen") == "straighten":
            moved = moved.with_props(fallen=None)
            judgement.events.append({"type": "straightened", "unit": unit.id})
        foes = opposing_contacts(position, unit) if action.type == "break_away" else []
        if attacks_of_opportunity(judgement, unit, foes, dice) and priced.track.translates:
            moved = moved.with_props(pinned=True)  # Pinning: recorded only (MSW-D11)
            judgement.events.append({"type": "pinned", "unit": unit.id})
        if action.type == "charge":
            moved = moved.with_props(charge_target=action.get("target"))
        if action.type == "enter_unit":
            moved = replace(moved, aboard=action.get("carrier"))
        return moved

    def move_events(self, unit: Unit, moved: Unit) -> list[dict[str, Any]]:
        """A unit entering its carrier moves to it, then boards (002 Enter Unit); a unit
        exiting leaves it, then moves (002 Unit Exiting Action)."""
        if moved.aboard is not None:
            boarded = {"type": "boarded", "unit": unit.id, "carrier": moved.aboard}
            return [moved_event(moved), boarded]
        if unit.aboard is not None:
            exited = {"type": "exited", "unit": unit.id, "carrier": unit.aboard}
            return [exited, moved_event(moved)]
        return super().move_events(unit, moved)

    def after_move(
        self, position: MswarsPosition, unit: Unit, action: Action, moved: Unit
    ) -> GameState:
        """The move action entered in the turn's record, with the carrier a unit entered
        or exited (what keeps that carrier to Carrier Unloading this phase)."""
        carrier = moved.aboard or unit.aboard
        return applied(
            position.state,
            unit,
            action.type,
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


class FreeTurn(MswarsMoves):
    """The standalone free turn as the kernel plays a move: 0 MP, 0 AC, no move action
    used, allowed in base contact (MSW-D26)."""

    def move(self, position: MswarsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        return Play.move(self, position, unit, action, dice)

    def check_may_move(
        self, judgement: PathJudgement, position: MswarsPosition, unit: Unit, action: Action
    ) -> None:
        check_can_act(position, judgement, unit, action, free_turn_only=True)

    def move_events(self, unit: Unit, moved: Unit) -> list[dict[str, Any]]:
        # It says so: the log reads "turned in place", not a 0 MP move.
        return [{**moved_event(moved), "free_turn": True}]

    def after_move(
        self, position: MswarsPosition, unit: Unit, action: Action, moved: Unit
    ) -> GameState:
        return applied(position.state, unit, action.type, [moved], free_turn=True, spends=False)


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


class OwnMove(MswarsMoves):
    """The move actions with rules of their own as the kernel plays a move: 002 Jump Action
    (off the top the unit stands on, whose edge its path may cross, MSW-D24, to a landing
    told before any Fall), 002 Climb Action (no path to price: 0 MP, placed on top by the
    engine; it turns nothing, so the phase's free turn is kept) and 002 Carrier Unloading
    Action (the carrier's move, none: 0 MP, then the units it sets down at its rear, told
    after it, MSW-D39). A unit aboard, which may take none of them, has no path and nothing
    to measure it against; the end of the move tells its events, in order, the unit's move
    first (`move_events` adds none)."""

    def allowance(self, position: MswarsPosition, unit: Unit, action: Action) -> Allowance:
        return (
            Allowance(0.0) if unit.aboard is not None else super().allowance(position, unit, action)
        )

    def move_events(self, unit: Unit, moved: Unit) -> list[dict[str, Any]]:
        return []

    def measure_path(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        allowance: Allowance,
    ) -> PricedPath:
        if action.type == "climb":
            return no_path(unit)
        top = jump_top(position, unit) if action.type == "jump" else None
        return measured_path(judgement, position, unit, action, allowance, jumping_from=top)

    def check_moved(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        priced: PricedTrack,
    ) -> None:
        if action.type == "jump":
            check_jumped(position, judgement, unit, priced)
        elif unit.aboard is None and action.type == "climb":
            check_climb(position, judgement, unit, action)
        elif unit.aboard is None:
            check_unloading(position, judgement, unit, action, priced)

    def end_of_move(
        self,
        judgement: PathJudgement,
        position: MswarsPosition,
        unit: Unit,
        action: Action,
        priced: PricedTrack,
        dice: Dice,
    ) -> Unit:
        if action.type == "jump":
            return landed(judgement, position, unit, priced.end, dice)
        if action.type == "climb":
            return climbed(judgement, position, unit, action)
        carrier = unit.moved(priced.end.xy, priced.end.facing)
        judgement.events.append(moved_event(carrier))
        for u in unloaded(position, carrier, action):
            judgement.events += [
                moved_event(u),
                {"type": "unloaded", "unit": u.id, "carrier": unit.id},
            ]
        return carrier

    def after_move(
        self, position: MswarsPosition, unit: Unit, action: Action, moved: Unit
    ) -> GameState:
        """A climb keeps the free turn; each unit set down has made a move action this
        phase (002 Carrier Unloading)."""
        if action.type == "jump":
            return super().after_move(position, unit, action, moved)
        if action.type == "climb":
            return applied(position.state, unit, action.type, [moved], free_turn=False)
        placed = unloaded(position, moved, action)
        phase = phase_of(position.state.turn)
        return applied(
            position.state,
            unit,
            action.type,
            [moved, *placed],
            free_turn=turns_freely(position, unit, action),
            others=[(u.id, {"phase": phase, "type": action.type}) for u in placed],
        )
