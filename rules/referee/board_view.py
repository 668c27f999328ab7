"""What the board shows beside a position (docs/protocol.md: every snapshot and table
event carries it): each piece's state markers and, once a side is to act, the header
line, the actions each unit may be offered and the unit whose activation runs.

Every hook here reads the position the engine holds (a GameState), read once by the
caller, or kept from the verdict that made it: none reads the table's JSON again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.model.state import GameState
from rules.referee.offers import offered_types
from rules.systems.registry import get_system


def board_view(state: GameState, turn: Mapping[str, Any]) -> dict[str, Any]:
    """{"summary", "actions", "unit_states"} and, where an activation runs, "active_unit"
    for `state` and the table's `turn`. Before the battle begins (no side to act yet)
    there is neither header nor offers.

    Asked once per position and turn: the state keeps it, so that the snapshots of a
    position whose event already carried it (a socket joining, resuming) cost nothing."""
    key = "engine.board_view:" + json.dumps(dict(turn), sort_keys=True, default=repr)
    return dict(state.memo(key, lambda: _view(state, turn)))


def _view(state: GameState, turn: Mapping[str, Any]) -> dict[str, Any]:
    system = get_system(state.system)
    markers = system.markers(state)
    if not turn.get("active_side"):
        return {"summary": "", "actions": {}, "unit_states": markers}
    structure = system.turn_structure
    table_turn = dict(turn)
    view: dict[str, Any] = {
        "summary": structure.summary(table_turn, state),
        "actions": offered_types(state, table_turn),
        "unit_states": markers,
    }
    running = structure.active_unit(table_turn, state)
    if running is not None:
        # The unit whose activation runs, for the board to highlight (only where one does).
        view["active_unit"] = running
    return view
