"""What a LaserGrenadiers piece may be offered now: the actions whose preconditions hold
(lasergrenadiers.md 2, 9, 10, 11), judged by the judge's own checks.

Who may act at all (`can_act`: a piece that left the board, a piece aboard), the
allowance left and the transport inequalities, the transfer rules (hovering aircraft,
damaged transports, what may embark), the overrun conditions and the entry point are the
handlers' checks, asked here before any path: of every candidate vehicle, passenger or
target on the table, and with the empty path where the handler takes one (a boarding
piece's approach, an entry's first leg), reading only the refusals no path could lift.
Whose activation it is stays the turn structure's (LG-D37): the live table adds it
through `refusal`.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine.judgement import PathJudgement
from rules.engine.numbers import LENGTH_TOL
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.lasergrenadiers.accounting import left_to_spend, remaining
from rules.systems.lasergrenadiers.moves import (
    _entry_point,
    can_act,
    entry_probe,
    overrun_targets,
)
from rules.systems.lasergrenadiers.pieces import allowance_of, is_vehicle
from rules.systems.lasergrenadiers.terrain import LgPosition
from rules.systems.lasergrenadiers.transport import _transfer, _transfer_rules, _vehicle, load

#: What a path may still put right in a probe judged with the empty path: the piece ends
#: where it stands, and a boarding piece may walk into contact (003 Transport 2).
PATH_MAY_MEND = frozenset({"must_end_in_contact"})


def _may_move(pos: LgPosition, unit: Unit) -> bool:
    """Some allowance left to move or turn (003 Turning 3)."""
    return left_to_spend(pos.state, unit) > LENGTH_TOL


#: How `enter_board` refuses an entry point, whatever path follows it (lasergrenadiers.md
#: 11): off the edges and not from above, outside the entry area, a landing begun too high.
ENTRY_POINT_CODES = frozenset({"placement_invalid", "altitude_exceeded", "action_not_allowed"})


def _may_enter(pos: LgPosition, unit: Unit) -> bool:
    """An entry point the judge accepts (on an edge, its side's entry area, or a landing
    from above within the allowance, 003 Assault landings, 003 Off-board movement)."""
    if not _may_move(pos, unit) or _entry_point_refused(pos, unit):
        return False
    return not {r.code for r in entry_probe(pos, unit).reasons} & ENTRY_POINT_CODES


def _entry_point_refused(pos: LgPosition, unit: Unit) -> bool:
    """Whether the entry point alone is refused: the judge's check of it (`_entry_point`)
    is the first the probe makes, so its refusal is the probe's, and a piece on the
    table away from its edges is answered without a whole entry judged along its path."""
    judgement = PathJudgement(pos.state)
    _entry_point(pos, judgement, unit)
    return any(v.code in ENTRY_POINT_CODES for _, v in judgement.found)


def _may_overrun(pos: LgPosition, unit: Unit) -> bool:
    """Some piece on the table it may overrun (003 Overrun 1-2, 5), allowance left."""
    return _may_move(pos, unit) and any(overrun_targets(pos, unit))


def _may_load(pos: LgPosition, unit: Unit) -> bool:
    """A boarding piece: a friendly vehicle it may board, probed with no approach (a path
    only adds to its cost). A vehicle: a piece in base contact it may take aboard."""
    if is_vehicle(unit):
        return any(
            load(pos, unit, Action(unit.id, "load", params={"passengers": [p.id]})).legal
            for p in pos.touching(unit.id)
            if p.side == unit.side and not is_vehicle(p)
        )
    return any(
        {r.code for r in load(pos, unit, Action(unit.id, "load", params={"carrier": v.id})).reasons}
        <= PATH_MAY_MEND
        for v in pos.state.units
        if v.id != unit.id and is_vehicle(v) and v.on_table and v.side == unit.side
    )


def _may_unload(pos: LgPosition, unit: Unit) -> bool:
    """A vehicle with a piece aboard, or a piece aboard unloading itself (LG-D31): the
    transfer rules, a third of the acting piece's allowance and of each piece's, and the
    transport inequalities (003 Transport 1, 4-6). Where each is set down is the path."""
    state = pos.state
    # The judge's own test of the vehicle: a friendly vehicle on the table (003 Transport).
    checked = PathJudgement(state)
    vehicle = _vehicle(pos, checked, unit.aboard if unit.aboard is not None else unit.id, unit)
    if vehicle is None or not checked.legal or not vehicle.on_table:
        return False
    aboard = [p for p in state.units if p.aboard == vehicle.id]
    if unit.aboard is not None:
        aboard = [unit]
    if not aboard or allowance_of(unit) / 3 > remaining(state, unit) + LENGTH_TOL:
        return False
    for piece in aboard:
        judgement = PathJudgement(state)
        _transfer_rules(pos, judgement, vehicle, [piece])
        _transfer(pos, judgement, vehicle, "unload", [piece], unit, unit.id == vehicle.id, {})
        if judgement.legal:
            return True
    return False


CHECKS: dict[str, Callable[[LgPosition, Unit], bool]] = {
    "move": _may_move,
    "load": _may_load,
    "unload": _may_unload,
    "overrun": _may_overrun,
    "enter_board": _may_enter,
}


def may_take(pos: LgPosition, unit: Unit, action_type: str) -> bool:
    """Whether the preconditions of `action_type` hold for `unit` now."""
    judgement = PathJudgement(pos.state)
    can_act(pos, judgement, unit, Action(unit.id, action_type))
    return judgement.legal and CHECKS[action_type](pos, unit)
