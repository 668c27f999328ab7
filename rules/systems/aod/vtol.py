"""VTOL levels and ranged attacks during a move (000 VTOLS, aod.md section 10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine.verdict import Violation
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.aod.units import is_salvage, is_vtol

LEVEL_CHANGE = 2.0  # 000 [17]
RANGED_ATTACK = 12.0  # 000 [23]
RANGED_ATTACK_MIN_SPEED = 13  # "must have 13 speed" (AOD-D10)


@dataclass(frozen=True)
class VtolPlan:
    start_level: str
    end_level: str
    ranged_attack: bool

    @property
    def surcharge(self) -> float:
        return (LEVEL_CHANGE if self.start_level != self.end_level else 0.0) + (
            RANGED_ATTACK if self.ranged_attack else 0.0
        )

    @property
    def cruising_during_path(self) -> bool:
        """The climb happens at the start, the descent at the end (AOD-D26)."""
        return "cruising" in (self.start_level, self.end_level)

    def events(self, unit_id: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if self.start_level != self.end_level:
            out.append({"type": "altitude_changed", "unit": unit_id, "altitude": self.end_level})
        if self.ranged_attack:
            out.append({"type": "ranged_attack", "unit": unit_id})
        return out


def level_of(u: Unit) -> str:
    if is_salvage(u):
        return "noe"  # must immediately descend (000 [18], AOD-D42)
    return "cruising" if u.get("altitude") == "cruising" else "noe"


def plan(unit: Unit, action: Action) -> tuple[VtolPlan, list[Violation]]:
    alt = action.get("altitude")
    ranged = bool(action.get("ranged_attack", False))
    start = level_of(unit)
    problems: list[Violation] = []
    if not is_vtol(unit):
        if alt is not None or ranged:
            problems.append(
                _no(unit, "is not a VTOL: no altitude change or move-and-shoot", "000 [17]")
            )
        return VtolPlan(start, start, False), problems
    end = start if alt is None else str(alt)
    if end == "cruising" and is_salvage(unit):
        problems.append(_no(unit, "is a salvage VTOL and must stay at NOE", "000 [18], AOD-D42"))
    if ranged and unit.move < RANGED_ATTACK_MIN_SPEED:
        why = f"needs speed 13 to move and make a ranged attack, has {unit.move:g}"
        problems.append(_no(unit, why, "000 [23], AOD-D10"))
    return VtolPlan(start, end, ranged), problems


def _no(unit: Unit, why: str, cite: str) -> Violation:
    return Violation("order_not_allowed", f"{unit.id} {why}", unit.position, cite)


def with_level(unit: Unit, p: VtolPlan) -> Unit:
    if not is_vtol(unit) or p.start_level == p.end_level:
        return unit
    return unit.with_props(altitude=p.end_level)
