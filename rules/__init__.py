"""The pure rules engine: frozen state in, Verdict out. No Django, no Channels, no I/O.

The facade the web server uses (documented in docs/rules-engine.md):

    state = state_from_json(scenario_dict)            # GameState
    action = action_from_json({"unit": "M1", "type": "move", "path": [[14, 10]]}, state)
    verdict = validate(state, action)    # .legal .cost .reasons ... .state_after .changed
    area = reach(state, "M1").area                      # shapely geometry
    with deadline(0.04):                                # a live table's bound in time:
        found = reach(state, "M1")                      # cut short, .complete is False

and the board's questions the live table asks (`reach_answer`, `alternative_answer`,
`offered_in_position`, `board_view`, `sight_ruling`, `placement_obstructions`): the web
side imports nothing else of rules/ (tests/web/test_engine_facade.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine.bounds import check_action
from rules.engine.catalogue import COST_UNITS
from rules.engine.consequences import Consequence, with_consequences
from rules.engine.dice import Dice, make_dice
from rules.engine.reach import Reach
from rules.engine.scenario import Scenario, scenario_to_json, state_to_json
from rules.engine.system import System
from rules.engine.terrain_style import UNSTYLED as UNSTYLED_TERRAIN
from rules.engine.unit_schema import roster_schema
from rules.engine.unit_schema import unit_problems as schema_problems
from rules.engine.verdict import Roll, Verdict, Violation
from rules.geometry.deadline import deadline
from rules.model.actions import Action, Turn, Waypoint
from rules.model.errors import DiceExhaustedError, InvalidActionError
from rules.model.state import BaseShape, GameState, Table, Terrain, Unit
from rules.referee.board_view import board_view
from rules.referee.deployment import placement_obstructions
from rules.referee.offers import offered_in_position
from rules.referee.positions import load_scenario, state_from_json
from rules.referee.questions import alternative_answer, reach_answer
from rules.referee.sight_ruling import sight_ruling
from rules.systems.registry import SYSTEMS, get_system

__all__ = [
    "COST_UNITS",
    "SYSTEMS",
    "UNSTYLED_TERRAIN",
    "Action",
    "BaseShape",
    "Consequence",
    "Dice",
    "DiceExhaustedError",
    "GameState",
    "InvalidActionError",
    "Reach",
    "Roll",
    "Scenario",
    "System",
    "Table",
    "Terrain",
    "Turn",
    "Unit",
    "Verdict",
    "Violation",
    "Waypoint",
    "action_from_json",
    "alternative_answer",
    "board_view",
    "deadline",
    "get_system",
    "load_scenario",
    "make_dice",
    "offered_in_position",
    "placement_obstructions",
    "reach",
    "reach_answer",
    "scenario_to_json",
    "sight_ruling",
    "state_from_json",
    "state_to_json",
    "unit_problems",
    "validate",
]


def action_from_json(raw: Any, system: str | GameState = "aod") -> Action:
    """Parse one ACTION object for a system (raises InvalidActionError naming the key)."""
    key = system.system if isinstance(system, GameState) else system
    return get_system(key).parse_action(raw, "action")


def unit_problems(system: str, unit: Any, *, roster: bool = False) -> dict[str, str]:
    """What `system`'s unit schema refuses in `unit` (a unit's JSON: its type and keys),
    keyed by field ("move", "base.diameter"), in a player's words; {} if nothing. With
    `roster`: what a roster may hold (no key the schema does not name, none the table
    sets). Reading a position makes the same check (System.check_parsed_unit)."""
    schema = get_system(system).unit_schema()
    return schema_problems(roster_schema(schema) if roster else schema, unit)


def validate(
    state: GameState,
    action: Action | dict[str, Any],
    dice: Dice | Sequence[int] | None = None,
    outcomes: Sequence[bool] | None = None,
) -> Verdict:
    """Judge one action. Never raises for an illegal move (see Verdict.reasons); raises
    InvalidActionError for one beyond the engine's bounds (rules/engine/bounds.py).

    `dice`: a Dice, a list of forced d6 results, or None for `secrets` rolls that the
    verdict reports. `outcomes`: forced pass/fail results (capture, DFA).
    """
    system = get_system(state.system)
    if isinstance(action, dict):
        action = system.parse_action(action, "action")
    check_action(action, state)  # the engine's bounds on its work (rules/engine/bounds.py)
    if not isinstance(dice, Dice):
        dice = make_dice(
            None if dice is None else list(dice), None if outcomes is None else list(outcomes)
        )
    return with_consequences(system, state, action, system.validate(state, action, dice))


def reach(state: GameState, unit_id: str, action_type: str = "move") -> Reach:
    """Where `unit_id` can end this order (conservative), with `.path_to(point)`."""
    return get_system(state.system).reach(state, unit_id, action_type)
