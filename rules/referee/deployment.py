"""At deployment: what keeps a base from being set down at a pose (the board asks while a
player places a unit; the same check the engine makes wherever a base is set down)."""

from __future__ import annotations

from rules.engine.placement import Obstruction, obstructions
from rules.engine.position import Position
from rules.geometry.track import Pose
from rules.model.state import GameState
from rules.systems.registry import get_system


def placement_obstructions(
    state: GameState, unit_id: str, x: float, y: float, facing: float
) -> list[Obstruction]:
    """What keeps `unit_id` from standing at (x, y) facing `facing` in `state`: wholly on
    the table, no other base overlapped, no terrain its system forbids it
    (rules/engine/placement.py); [] where it may stand or the unit is unknown."""
    unit = state.unit(unit_id)
    if unit is None:
        return []
    forbidden = get_system(state.system).standing_forbidden(state, unit)
    return obstructions(
        Position(state), unit.base, Pose(x, y, facing), forbidden=forbidden, ignore={unit_id}
    )
