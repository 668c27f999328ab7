"""Transports: `board` and `disembark` (000 TRANSPORTS, 001 [18-19], aod.md 11.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.dice import Dice
from rules.engine.judgement import AFTER
from rules.engine.move_in_play import MoveInPlay
from rules.engine.placement import obstruction
from rules.engine.verdict import Verdict, Violation
from rules.geometry.arcs import rear_contact
from rules.geometry.bases import body_at
from rules.geometry.track import Pose, Track
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.aod.contact import opposing_contacts
from rules.systems.aod.moves import AodMoves
from rules.systems.aod.orders import captive_of, passengers, refused
from rules.systems.aod.position import AodPosition, aod_position
from rules.systems.aod.turn import AodTurn, turn_of
from rules.systems.aod.units import (
    capacity,
    is_cruising,
    is_infantry,
    is_mech,
    is_vtol,
    matrix_row,
)


def load_cost(u: Unit) -> int:
    """Infantry 1, vehicle 3 (000 [18])."""
    return 1 if is_infantry(u) else 3


def _passenger_kind_problem(p: Unit) -> str | None:
    """Transports, VTOLs and 'Mechs cannot be passengers (000 [18], AOD-D29)."""
    if capacity(p) > 0:
        return "a transport cannot be a passenger"
    if is_vtol(p):
        return "a VTOL cannot be a passenger"
    if is_mech(p):
        return "a 'Mech cannot be a passenger"
    return None


def boarding_problem(position: AodPosition, transport: Unit, p: Unit, turn: AodTurn) -> str | None:
    """Why `p` (on the table) may not board `transport` now, or None (001 [18], 000 [19])."""
    why = _passenger_kind_problem(p)
    if why is None and p.side != transport.side:
        why = "only friendly units may board"
    if why is None and p.id in turn.ordered:
        why = "has already been given an order this turn"
    if why is None and is_cruising(transport) and not p.flag("jump_jets"):
        why = "only jump-jet units board a VTOL at cruising"
    if why is None and not rear_contact(transport, p):
        why = f"must start in base contact with the rear of {transport.id}"
    if why is None and opposing_contacts(position, p):
        why = "is in base contact with an opposing unit"
    return why


def board(position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    """A transport boarding its passengers, then moving (the kernel's move, `Board`)."""
    return Board(position, unit, action).move(position, unit, action, dice)


class Board(AodMoves):
    """Passengers board first and leave the table; then the transport moves (000 [18]):
    its path is judged, and the order applied, with them aboard."""

    def __init__(self, position: AodPosition, unit: Unit, action: Action) -> None:
        super().__init__(position, unit, action)
        self.captive = None  # a transport's move carries no captive
        problems, self.boarding = boarding_problems(position, unit, action)
        self.pre += problems
        aboard = [replace(p, aboard=unit.id) for p in self.boarding]
        self.at = aod_position(position.state.with_units(*aboard))

    def check_may_move(self, move: MoveInPlay) -> None:
        super().check_may_move(move)
        if not move.judgement.found:
            move.judgement.events.extend(
                {"type": "boarded", "unit": p.id, "transport": move.unit.id} for p in self.boarding
            )


def boarding_problems(
    position: AodPosition, unit: Unit, action: Action
) -> tuple[list[Violation], list[Unit]]:
    """What refuses the passengers' boarding (000 [18], 001 [18], AOD-D29), and the
    units that board (a captor with its captive)."""
    state = position.state
    pre: list[Violation] = []
    ids = action.get("passengers", [])
    if not ids or not all(isinstance(x, str) for x in ids):
        pre.append(refused(unit, 'board needs "passengers": a list of unit ids', "001 [18]"))
        ids = []
    turn = turn_of(state)
    boarding: list[Unit] = []
    for pid in ids:
        p = state.unit(pid)
        if p is None or p.aboard is not None:
            pre.append(Violation("unknown_unit", f"no unit {pid!r} on the table", None))
            continue
        why = boarding_problem(position, unit, p, turn)
        if why:
            pre.append(refused(p, why, "001 [18], 000 [18], 000 [19], AOD-D29"))
            continue
        boarding.append(p)
        captive = captive_of(state, pid)
        if captive is not None:
            boarding.append(captive)  # a captor boards with its captive (000 [18])
    load = sum(load_cost(u) for u in passengers(state, unit.id) + boarding)
    if load > capacity(unit):
        pre.append(
            refused(
                unit,
                f"load {load} exceeds capacity {capacity(unit)}",
                "000 [18]",
                "capacity_exceeded",
            )
        )
    return pre, boarding


def disembark(position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    """A transport setting its passengers down before or after it moves (the kernel's
    move, `Disembark`)."""
    return Disembark(position, unit, action).move(position, unit, action, dice)


class Disembark(AodMoves):
    """Passengers placed in base contact with the transport's rear, before it moves (its
    path judged with them on the table) or after (where it ends) (001 [19], 000 [19])."""

    def __init__(self, position: AodPosition, unit: Unit, action: Action) -> None:
        super().__init__(position, unit, action)
        self.captive = None  # a transport's move carries no captive
        self.unload = action.get("unload", "after")
        problems, leaving = leaving_problems(position, unit, action, self.unload, self.track)
        self.pre += problems
        self.placed = [replace(p, aboard=None) for p in leaving]
        if not self.pre and self.unload == "before":
            self.pre += placement_problems(position, unit, self.placed)
            self.at = aod_position(position.state.with_units(*self.placed))

    def check_may_move(self, move: MoveInPlay) -> None:
        super().check_may_move(move)
        if not move.judgement.found and self.unload == "before":
            move.judgement.events.extend(disembarked_events(move.unit, self.placed))

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """Placed after the move, where the transport ends: a placement refused there
        refuses the order, with no roll or event."""
        judgement, unit = move.judgement, move.unit
        moved = super().end_of_move(move)
        if self.unload == "before" or self.after is None:
            return moved
        transport = self.after.unit(unit.id)
        assert transport is not None
        bad = placement_problems(aod_position(self.after), transport, self.placed)
        if bad:
            judgement.rolls.clear()
            judgement.events.clear()
            judgement.found += [(AFTER, v) for v in bad]
            return moved
        judgement.events.extend(disembarked_events(unit, self.placed))
        self.after = self.after.with_units(*self.placed)
        return moved


def leaving_problems(
    position: AodPosition, unit: Unit, action: Action, unload: Any, track: Track
) -> tuple[list[Violation], list[Unit]]:
    """What refuses the passengers' leaving (001 [18-19], 000 [19]), and where the
    units that leave are placed."""
    state = position.state
    pre: list[Violation] = []
    placements: list[dict[str, Any]] = [
        p for p in action.get("passengers", []) if isinstance(p, dict)
    ]
    if not placements or len(placements) != len(action.get("passengers", [])):
        pre.append(
            refused(unit, 'disembark needs "passengers": [{unit, position, facing}]', "001 [19]")
        )
    carried = passengers(state, unit.id)
    carried_ids = {u.id for u in carried}
    leaving: list[Unit] = []
    for pl in placements:
        p = state.unit(pl["unit"])
        if p is None:
            pre.append(Violation("unknown_unit", f"no unit {pl['unit']!r}", None))
        elif p.id not in carried_ids:
            pre.append(refused(p, f"is not aboard {unit.id}", "001 [18]"))
        elif is_cruising(unit) and not p.flag("jump_jets"):
            pre.append(refused(p, "only jump-jet passengers leave a VTOL at cruising", "000 [19]"))
        else:
            leaving.append(p.moved(tuple(pl["position"]), pl.get("facing", p.facing)))
    if unit.flag("salvage") and {u.id for u in leaving} != carried_ids:
        pre.append(
            refused(unit, "a salvage transport must disembark all its passengers", "001 [19]")
        )
    if is_cruising(unit) and unload == "before" and track.translates:
        pre.append(refused(unit, "a VTOL at cruising may not move after disembarking", "000 [19]"))
    return pre, leaving


def disembarked_events(unit: Unit, placed: list[Unit]) -> list[dict[str, Any]]:
    return [
        {
            "type": "disembarked",
            "unit": p.id,
            "transport": unit.id,
            "to": list(p.position),
            "facing": p.facing,
        }
        for p in placed
    ]


def placement_problems(
    position: AodPosition, transport: Unit, placed: list[Unit]
) -> list[Violation]:
    """In base contact with the rear, not based by an opponent, completely on the table
    (001 [19]); no overlap with bases, blocking or prohibited terrain (AOD-D44)."""
    out: list[Violation] = []
    ids = {p.id for p in placed}
    for i, p in enumerate(placed):
        pose = Pose(*p.position, p.facing)
        earlier = [(q.id, body_at(q.base, *q.position, q.facing)) for q in placed[:i]]
        problem = obstruction(
            position,
            p.base,
            pose,
            ignore=ids,
            placed=earlier,
            forbidden=position.forbidden_to((matrix_row(p),)),
        )
        why, cite = None, "001 [19]"
        if not rear_contact(transport, p):
            why = f"must be placed in base contact with the rear of {transport.id}"
        elif problem is not None:
            why, cite = f"cannot be placed there: {problem.reason}", "001 [19], AOD-D44"
        elif opposing_contacts(position, p, pose):
            why = "would be in base contact with an opposing unit"
        if why:
            out.append(Violation("placement_invalid", f"{p.id} {why}", p.position, cite))
    return out
