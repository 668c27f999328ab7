"""aod unit types and what they are for the rules (aod.md section 2)."""

from __future__ import annotations

from rules.model.state import Unit

INFANTRY = frozenset({"infantry"})
VEHICLES = frozenset({"wheeled", "tracked", "hover", "vtol", "aquatic"})
MECHS = frozenset({"mech", "quad_mech", "colossal_mech"})
UNIT_TYPES = INFANTRY | VEHICLES | MECHS

#: Infantry speed modes that name a matrix row (AOD-D39).
INFANTRY_ROW_MODES = frozenset({"wheeled", "tracked", "hover"})


def is_mech(u: Unit) -> bool:
    return u.type in MECHS


def is_vehicle(u: Unit) -> bool:
    return u.type in VEHICLES


def is_infantry(u: Unit) -> bool:
    return u.type == "infantry"


def is_salvage(u: Unit) -> bool:
    return u.flag("salvage")


def is_vtol(u: Unit) -> bool:
    return u.type == "vtol"


def is_cruising(u: Unit) -> bool:
    """A VTOL at cruising; a salvage VTOL is at NOE (000 [18], AOD-D42)."""
    return is_vtol(u) and u.get("altitude") == "cruising" and not is_salvage(u)


def infantry_mode(u: Unit) -> str:
    return str(u.get("infantry_mode", "foot"))


def matrix_row(u: Unit, cruising: bool | None = None) -> str:
    """Row of the movement matrix (6.1) for this unit."""
    if is_infantry(u):
        mode = infantry_mode(u)
        return mode if mode in INFANTRY_ROW_MODES else "infantry"
    if is_vtol(u):
        return "vtol_cruising" if (is_cruising(u) if cruising is None else cruising) else "vtol_noe"
    return u.type


def is_captive(u: Unit) -> bool:
    return u.get("captive_of") is not None


def capacity(u: Unit) -> int:
    c = u.get("capacity", 0)
    return int(c) if isinstance(c, int | float) else 0


def opposing(a: Unit, b: Unit) -> bool:
    """Opposing units: different sides; captives are neither friend nor foe (001 [26])."""
    return a.side != b.side and not is_captive(a) and not is_captive(b)


def can_free_spin(u: Unit) -> bool:
    """Never vehicles or Quad 'Mechs (000 [17])."""
    return is_infantry(u) or u.type in ("mech", "colossal_mech")
