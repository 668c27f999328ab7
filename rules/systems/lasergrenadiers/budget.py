"""The active piece's allowance left and speed band, read from a scenario-shaped position
for the board's header (LG-D31)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.judgement import who
from rules.engine.scenario import SystemLookup, position_from_json
from rules.model.errors import InvalidActionError
from rules.systems.lasergrenadiers.accounting import moved, remaining, speed_band


def piece_budget(
    find: SystemLookup, position: dict[str, Any], unit_id: str
) -> tuple[str, float, str] | None:
    """(name, inches left, speed band) of a piece, or None when the position is unreadable
    (read by the system `find` returns)."""
    try:
        state = position_from_json(position, find)
    except InvalidActionError:
        return None
    unit = state.unit(unit_id)
    if unit is None:
        return None
    return who(unit), max(remaining(state, unit), 0.0), speed_band(unit, moved(state, unit.id))


def speed_bands(find: SystemLookup, position: Mapping[str, Any]) -> dict[str, str]:
    """{unit id: speed band} of the pieces that spent allowance this turn (LG-D11: turning
    included), read from a scenario-shaped position; {} when it is unreadable."""
    spent = (position.get("state") or {}).get("moved") or {}
    if not spent:
        return {}
    try:
        state = position_from_json(dict(position), find)
    except InvalidActionError:
        return {}
    return {
        unit.id: speed_band(unit, moved(state, unit.id))
        for unit in state.units
        if moved(state, unit.id) > 0
    }
