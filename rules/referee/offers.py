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
    """{unit id: [action types]} for every unit of `state`, in catalogue order. What the
    system offers without the table's turn is asked once per position (`is_offered` and
    the board's view of the same position share it); the turn's refusals apply on top."""
    offers = _offered_now(state)
    if table_turn is None:
        return {unit_id: list(kinds) for unit_id, kinds in offers.items()}
    structure = get_system(state.system).turn_structure
    turn = dict(table_turn)
    position = state_to_json(state)
    sides = {unit.id: unit.side for unit in state.units}
    return {
        unit_id: [
            kind
            for kind in kinds
            if structure.refusal(turn, position, sides[unit_id], {"unit": unit_id, "type": kind})
            is None
        ]
        for unit_id, kinds in offers.items()
    }


def _offered_now(state: GameState) -> dict[str, tuple[str, ...]]:
    """{unit id: the system's offers}, whatever the table's turn; kept on the state."""

    def offers() -> dict[str, tuple[str, ...]]:
        system = get_system(state.system)
        return {unit.id: tuple(system.offered(state, unit)) for unit in state.units}

    return state.memo("engine.offered_now", offers)


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
    return action_type in _offered_now(state).get(unit_id, ())


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
