"""Water effects the engine reports: submerging (000 [33]) and the heat that
'Mechs lose standing in water (001 HEAT LOSS [22], reported as events only)."""

from __future__ import annotations

from typing import Any

from rules.model.state import Terrain, Unit
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import is_mech

WATER = ("shallow_water", "deep_water")


def water_at(position: AodPosition, x: float, y: float) -> Terrain | None:
    """The water feature the centre dot occupies (deep water wins over shallow)."""
    if not position.has_water:
        return None
    found = position.occupied(x, y, WATER)
    found.sort(key=lambda t: t.type != "deep_water")
    return found[0] if found else None


def water_events(position: AodPosition, before: Unit, after: Unit) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    end = water_at(position, *after.position)
    if end is not None and end.type == "deep_water" and after.type in ("aquatic", "colossal_mech"):
        out.append({"type": "submerged", "unit": after.id, "terrain": end.id})
    start = water_at(position, *before.position)
    if is_mech(after) and start is not None and end is not None:
        clicks = 2 if end.type == "deep_water" or after.type == "quad_mech" else 1
        note = "if it also started and ends the turn there (001 [22])"
        heat = {"type": "water_heat", "unit": after.id, "clicks": -clicks, "terrain": end.id}
        out.append({**heat, "note": note})
    return out


def same_water(position: AodPosition, a: Unit, b: Unit) -> bool:
    """Close combat against a unit in water needs the attacker in the same water (000 [33])."""
    wb = water_at(position, *b.position)
    if wb is None:
        return True
    wa = water_at(position, *a.position)
    return wa is not None and wa.id == wb.id
