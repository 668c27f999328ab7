"""What each unit may be offered now: the action types whose preconditions hold.

scenario-format.md, "Other commands" (offers): a legal action's type is always offered;
a type the engine would refuse whatever its path is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.model import GameState
from rules.engine.registry import get_system
from rules.engine.scenario import state_to_json


def offered_types(state: GameState,
                  table_turn: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """{unit id: [action types]} for every unit of `state`, in catalogue order."""
    system = get_system(state.system)
    position = state_to_json(state)
    turn = None if table_turn is None else dict(table_turn)
    return {unit.id: [spec.type for spec in system.available_actions(position, unit.id, turn)]
            for unit in state.units}
