"""What each unit may be offered now: the action types whose preconditions hold.

scenario-format.md, "Other commands" (offers): a legal action's type is always offered;
a type the engine would refuse whatever its path is not. Each system answers through
`System.offered`, from the same precondition checks its judge makes before it looks at
the path (one truth: the board never offers what the referee then refuses). With the
table's turn, the turn structure's `refusal` (whose turn, whose activation) applies too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.catalogue import ActionSpec
from rules.engine.scenario import state_to_json
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.referee.positions import state_from_json
from rules.systems.registry import get_system


def offered_types(
    state: GameState, table_turn: Mapping[str, Any] | None = None
) -> dict[str, list[str]]:
    """{unit id: [action types]} for every unit of `state`, in catalogue order."""
    system = get_system(state.system)
    structure = system.turn_structure
    turn = None if table_turn is None else dict(table_turn)
    position = None if turn is None else state_to_json(state)
    out: dict[str, list[str]] = {}
    for unit in state.units:
        kinds = list(system.offered(state, unit))
        if turn is not None and position is not None:
            kinds = [
                kind
                for kind in kinds
                if structure.refusal(turn, position, unit.side, {"unit": unit.id, "type": kind})
                is None
            ]
        out[unit.id] = kinds
    return out


def offered_in_position(
    position: Mapping[str, Any], table_turn: Mapping[str, Any] | None = None
) -> dict[str, list[str]]:
    """`offered_types` for a scenario-shaped position (the CLI's, a test's); {} for a
    position the engine cannot read. The live table asks with the position it already
    holds (board_view.py), never its JSON again."""
    try:
        state = state_from_json(position)
    except (InvalidActionError, KeyError):
        return {}
    return offered_types(state, table_turn)


def is_offered(state: GameState, unit_id: str, action_type: str) -> bool:
    """Whether `unit_id` is offered `action_type` now, asked once per position. Reach and
    the nearest alternative read it, so that the board never shades nor proposes a move
    of a type the referee would refuse whatever its path (issue 20, "One truth")."""
    offers = state.memo("engine.offered_now", lambda: offered_types(state))
    return action_type in offers.get(unit_id, ())


def available_actions(
    position: Mapping[str, Any], unit_id: str, turn: Mapping[str, Any] | None = None
) -> tuple[ActionSpec, ...]:
    """The catalogue actions `unit_id` may take now (scenario-shaped `position`, the
    table's `turn`): what `offered_types` says, as specs. Nothing for a position the
    engine cannot read."""
    kinds = offered_in_position(position, turn).get(unit_id, ())
    if not kinds:
        return ()
    return tuple(spec for spec in get_system(position["system"]).actions if spec.type in kinds)
