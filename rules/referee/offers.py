"""What each unit may be offered now: the action types whose preconditions hold.

scenario-format.md, "Other commands" (offers): a legal action's type is always offered;
a type the engine would refuse whatever its path is not. Each system answers through
`System.offered`, from the same precondition checks its judge makes before it looks at
the path (one truth: the board never offers what the referee then refuses). With the
table's turn, the turn structure's `refusal` (whose turn, whose activation) applies too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.engine.catalogue import ActionSpec
from rules.engine.scenario import state_to_json
from rules.engine.turns import TurnStructure
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Unit
from rules.referee.positions import state_from_json
from rules.systems.registry import get_system


def offered_types(
    state: GameState, table_turn: Mapping[str, Any] | None = None
) -> dict[str, list[str]]:
    """{unit id: [action types]} for every unit of `state`, in catalogue order. What the
    system offers a unit without the table's turn is asked once per position and unit
    (`is_offered` and the board's view of the same position share it); the turn's
    refusals apply on top. The turn is asked first: a unit it refuses every type (the
    side not to act) is offered nothing whatever the system says, so the system is not
    asked about it; a side the turn refuses everything (`refuses_every_action`) is not
    asked about type by type either."""
    system = get_system(state.system)
    if table_turn is None:
        return {unit.id: list(_offered_to(state, unit)) for unit in state.units}
    structure = system.turn_structure
    turn = dict(table_turn)
    position = state_to_json(state)
    kinds = [spec.type for spec in system.actions]
    out: dict[str, list[str]] = {}
    refuses_every_action = {
        side: structure.refuses_every_action(turn, position, side)
        for side in {unit.side for unit in state.units}
    }
    for unit in state.units:
        out[unit.id] = []
        if refuses_every_action[unit.side]:
            continue
        allowed = _turn_allows(structure, turn, position, unit)
        if any(allowed(kind) for kind in kinds):
            out[unit.id] = [kind for kind in _offered_to(state, unit) if allowed(kind)]
    return out


def _turn_allows(
    structure: TurnStructure, turn: dict[str, Any], position: dict[str, Any], unit: Unit
) -> Callable[[str], bool]:
    """Whether the table's turn lets `unit` take an action of a type, asked once a type."""
    answers: dict[str, bool] = {}

    def allowed(kind: str) -> bool:
        if kind not in answers:
            action = {"unit": unit.id, "type": kind}
            answers[kind] = structure.refusal(turn, position, unit.side, action) is None
        return answers[kind]

    return allowed


def _offered_to(state: GameState, unit: Unit) -> tuple[str, ...]:
    """The system's offers to `unit`, whatever the table's turn; kept on the state."""
    return state.memo(
        f"engine.offered.{unit.id}", lambda: tuple(get_system(state.system).offered(state, unit))
    )


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
    of a type the referee would refuse whatever its path."""
    unit = state.unit(unit_id)
    return unit is not None and action_type in _offered_to(state, unit)


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
