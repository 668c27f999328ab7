"""Free spins (000 FREE SPINS, aod.md section 8; AOD-D35)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine.judgement import Judgement, moved_event
from rules.engine.path_checks import track_for
from rules.engine.verdict import Verdict, Violation
from rules.geometry.arcs import rear_to_rear
from rules.geometry.tolerance import OVERLAP
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.aod.orders import refused
from rules.systems.aod.position import AodPosition
from rules.systems.aod.terrain import CELL_CODES
from rules.systems.aod.turn import turn_of
from rules.systems.aod.units import can_free_spin, is_cruising, matrix_row, opposing

_NO = "no_free_spin"


def entitled_after_move(moved: Unit, end_contacts: Sequence[Unit]) -> list[str]:
    """Opposing units the mover ends in base contact with (000 [16, 18]); never
    vehicles or Quad 'Mechs (000 [17]); a cruising VTOL touches nobody (000 [18])."""
    if is_cruising(moved):
        return []
    return [
        u.id for u in end_contacts if opposing(moved, u) and not is_cruising(u) and can_free_spin(u)
    ]


def target_entitled(moved: Unit, target: Unit) -> bool:
    """Ram/charge target: yes unless rear-to-rear (000 [28]). `moved` is the attacker
    where it ended."""
    return can_free_spin(target) and not rear_to_rear(moved, target)


def spin_entitlement(position: AodPosition, unit: Unit) -> list[Violation]:
    """Why `unit` may not free spin now, whatever its rotation (000 [17], 000 FREE SPINS):
    never vehicles or Quad 'Mechs; only a unit entitled now (AOD-D35)."""
    if not can_free_spin(unit):
        return [refused(unit, "vehicles and Quad 'Mechs never free spin", "000 [17]", _NO)]
    if unit.id not in turn_of(position.state).free_spin_pending:
        why = f"{unit.id} is not entitled to a free spin now"
        return [Violation(_NO, why, unit.position, "000 [16], 000 [18], 000 [28]")]
    return []


def free_spin(position: AodPosition, unit: Unit, action: Action) -> Verdict:
    judgement = Judgement(position.state)
    if action.translates:
        why = "a free spin may not move the base, only turn it"
        return judgement.refuse(refused(unit, why, "000 FREE SPINS, 000 [16]", _NO))
    entitlement = spin_entitlement(position, unit)
    if entitlement:
        return judgement.refuse(*entitlement)
    turn = turn_of(position.state)
    track = track_for(unit, action.path, action.facing)
    for t, _, _ in position.terrain.near(track.swept()):
        cell = position.options.cell((matrix_row(unit),), t.type)
        if cell in CELL_CODES and track.swept(OVERLAP).distance(t.shape) < 0:
            code, what, cite = CELL_CODES[cell]
            judgement.reasons.append(
                Violation(code, f"{unit.id}'s spin sweeps into {what} {t.id}", unit.position, cite)
            )
    for other, _, _ in position.units.near(track.swept()):
        if other.id != unit.id and track.swept(OVERLAP).distance(position.bodies[other.id]) < 0:
            why = f"{unit.id}'s spin sweeps into the base of {other.id}"
            judgement.reasons.append(Violation("path_through_base", why, unit.position, "AOD-D17"))
    if judgement.reasons:
        return judgement.verdict(None)
    spun = unit.moved(unit.position, track.end.facing)
    pending = [u for u in turn.free_spin_pending if u != unit.id]
    after = position.state.with_units(spun).with_turn(free_spin_pending=pending)
    judgement.events.append({"type": "spun", "unit": unit.id, "facing": round(spun.facing, 4)})
    judgement.events.append(moved_event(spun))
    return judgement.verdict(after)
