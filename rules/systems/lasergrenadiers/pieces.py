"""What a piece is and what it may spend: kinds, allowance A, the rate its turns cost,
its altitude limit (lasergrenadiers.md 2, 5, 7)."""

from __future__ import annotations

import math

from rules.model.state import Unit
from rules.systems.lasergrenadiers.tables import (
    ALTITUDE_LIMITS,
    COLUMN_OF,
    CREW_WEAPON,
    DAMAGED_COLUMNS,
    DAMAGED_TURNING,
    INFANTRY,
    POP_UP_TYPES,
    VEHICLES,
)


def is_vehicle(unit: Unit) -> bool:
    return unit.type in VEHICLES


def is_infantry_or_crew(unit: Unit) -> bool:
    return unit.type in INFANTRY or unit.type == CREW_WEAPON


def damage_level(unit: Unit) -> int:
    """0, 1 or 2; damage applies to vehicles (003 Damaged a)."""
    level = unit.get("damage_levels", 0)
    return int(level) if is_vehicle(unit) and isinstance(level, int) else 0


def damaged_rate(unit: Unit) -> float:
    """min(`current_rate`, cap): the cap is 2/3 of `move` at level 1, 1/3 at level 2; an
    absent `current_rate` is `move` x (3 - level) / 3 (003 Damaged a, LG-D10, LG-D33)."""
    level = damage_level(unit)
    cap = unit.move * (3 - level) / 3
    current = unit.get("current_rate")
    if isinstance(current, bool) or not isinstance(current, int | float):
        return cap
    return min(float(current), cap)


def allowance_of(unit: Unit) -> float:
    """A for the turn: `move`; half without a full crew (003 Crew-served weapon 3); the
    damaged rate for a damaged vehicle."""
    if unit.type == CREW_WEAPON and unit.get("full_crew", True) is False:
        return unit.move / 2
    if damage_level(unit):
        return damaged_rate(unit)
    return unit.move


def round_half_up(x: float) -> int:
    return math.floor(x + 0.5 + 1e-9)


def turn_cost(unit: Unit, fraction: float) -> float:
    """A rotation costing `fraction` of the rate: the original rate, the damaged rate of a
    damaged vehicle (003 Turning 4, 003 Damaged b, LG-D33), the crew-dependent rate, as
    `allowance_of`. Undamaged rates are multiples of 6, so costs are exact; a damaged
    vehicle reads the seed's table (003 Damaged c) and, for a rate or fraction the table
    lacks, rate x fraction with halves rounded up (LG-D17)."""
    rate = allowance_of(unit)
    if fraction <= 0:
        return 0.0
    if not damage_level(unit):
        return rate * fraction
    row = DAMAGED_TURNING.get(int(rate)) if float(rate).is_integer() else None
    for column, share in enumerate(DAMAGED_COLUMNS):
        if row is not None and math.isclose(fraction, share, abs_tol=1e-9):
            return float(row[column])
    return float(round_half_up(rate * fraction))


def column_of(unit: Unit) -> str:
    """The terrain table's column: aircraft use the thruster column (LG-D22)."""
    return "thruster" if unit.flag("aircraft") else COLUMN_OF[unit.type]


def altitude_limit(unit: Unit) -> float | None:
    """Inches above the ground (0: surface; None: no limit) (003 Altitude limits, LG-D22)."""
    return None if unit.flag("aircraft") else ALTITUDE_LIMITS[unit.type]


def may_pop_up(unit: Unit) -> bool:
    """003 Pop-up maneuvers 2, LG-D23."""
    return unit.type in POP_UP_TYPES or unit.flag("aircraft")
