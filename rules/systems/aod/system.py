"""The aod System: vocabularies, input checks and the action dispatcher."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.engine.catalogue import ActionSpec
from rules.engine.consequences import Consequence
from rules.engine.dice import Dice
from rules.engine.reach import Reach, unshaded
from rules.engine.system import System
from rules.engine.verdict import Roll, Verdict
from rules.model.actions import Action
from rules.model.state import GameState, Terrain, Unit
from rules.systems.aod import capture, consequences, formation, transport
from rules.systems.aod.catalogue import ACTIONS, STATE_MARKERS, TERRAIN_KINDS
from rules.systems.aod.free_spin import free_spin
from rules.systems.aod.moves import ordered_move
from rules.systems.aod.offers import offered, preconditions
from rules.systems.aod.options import OPTION_SCHEMA, TERRAIN_TYPES, parse_options
from rules.systems.aod.parse import check_action_params
from rules.systems.aod.position import AodPosition, aod_position
from rules.systems.aod.reach import AodReach, not_shaded
from rules.systems.aod.schema import UNIT_SCHEMA
from rules.systems.aod.turn import check_turn
from rules.systems.aod.turn_structure import AodTurnStructure
from rules.systems.aod.units import UNIT_TYPES, matrix_row
from rules.systems.aod.vent import vent


class AodSystem(AodReach, System):
    key = "aod"
    name = "MechWarrior: Age of Destruction"
    actions = ACTIONS
    terrain_kinds = TERRAIN_KINDS
    state_markers = STATE_MARKERS
    turn_structure = AodTurnStructure()
    terrain_types = frozenset(TERRAIN_TYPES)
    unit_types = UNIT_TYPES
    handlers = {
        "vent": lambda position, unit, action, _dice: vent(position, unit, action),
        "free_spin": lambda position, unit, action, _dice: free_spin(position, unit, action),
        "board": transport.board,
        "disembark": transport.disembark,
        "capture": capture.capture,
        "formation_move": formation.formation_move,
    }
    position_type = AodPosition
    action_keys = frozenset(
        {"target", "altitude", "ranged_attack", "passengers", "unload", "moves", "captive"}
    )
    table_option_checks = (parse_options,)
    table_option_schema = OPTION_SCHEMA
    turn_checks = (check_turn,)

    def parse_action(self, raw: Any, key: str) -> Action:
        action = super().parse_action(raw, key)
        return check_action_params(self, action, raw, key)

    def move(self, position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        """The other orders are one move along a path each, played by the kernel's
        `Play.move` through aod's hooks (moves.py `AodMoves`, one per order)."""
        return ordered_move(position, unit, action, dice)

    def reach(self, state: GameState, unit_id: str, action_type: str = "move") -> Reach:
        """The kernel's (`AodReach`), but for the orders not shaded whoever the unit."""
        if not_shaded(state, unit_id, action_type):
            return unshaded(unit_id, action_type)
        return super().reach(state, unit_id, action_type)

    def offered(self, state: GameState, unit: Unit) -> tuple[str, ...]:
        """The kernel's (`may_take` of each type), with what bars a unit every order
        asked once (aod/offers.py `offered`)."""
        return offered(aod_position(state), unit, self.actions)

    def may_take(self, position: AodPosition, unit: Unit, spec: ActionSpec) -> bool:
        """The order's preconditions, as the judge finds them (aod/offers.py)."""
        return not preconditions(position.state, unit, spec.type)

    def event_consequence(
        self, state: GameState, action: Action, event: Mapping[str, Any]
    ) -> Consequence | None:
        return consequences.event_consequence(event)

    def roll_consequence(self, state: GameState, action: Action, roll: Roll) -> Consequence:
        return consequences.roll_consequence(action.unit, roll)

    def unit_schema(self) -> dict[str, Any]:
        return UNIT_SCHEMA

    def standing_forbidden(self, state: GameState, unit: Unit) -> Callable[[Terrain], bool]:
        """Terrain `unit` may not be set down in, at deployment as anywhere else: blocking
        and prohibited cells of its matrix row (6.3, AOD-D44)."""
        return aod_position(state).forbidden_to((matrix_row(unit),))
