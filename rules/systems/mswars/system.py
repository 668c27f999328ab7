"""The mswars System: vocabularies, input checks and the action dispatcher."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.consequences import Consequence
from rules.engine.judgement import Judgement
from rules.engine.reach import Reach
from rules.engine.system import System
from rules.engine.verdict import Roll, Verdict, Violation
from rules.model.actions import Action, number, point
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Unit
from rules.systems.mswars import consequences
from rules.systems.mswars.catalogue import ACTIONS, STATE_MARKERS, TERRAIN_KINDS, UNIT_SCHEMA
from rules.systems.mswars.moves import MswarsMoves
from rules.systems.mswars.offers import offered_types
from rules.systems.mswars.reach import MswarsReach, climb_reach, exiting_reach
from rules.systems.mswars.tables import MOVE_TYPES, TERRAIN_TYPES
from rules.systems.mswars.terrain import OPTION_SCHEMA, MswarsPosition, parse_options
from rules.systems.mswars.turns import MswarsTurns, check_turn


class MswarsSystem(MswarsReach, MswarsMoves, System):
    key = "mswars"
    name = "M.S. Wars"
    #: The cost table is the terrain table of the seed (002 cost table).
    rule_topics = {"002 cost table": "Terrain costs"}
    cost_unit = "MP"
    actions = ACTIONS
    terrain_kinds = TERRAIN_KINDS
    state_markers = STATE_MARKERS
    turn_structure = MswarsTurns()
    terrain_types = frozenset(TERRAIN_TYPES)
    #: Infantry may also go without a type: they walk (MSW-D2, MSW-D49).
    unit_types = frozenset(MOVE_TYPES)
    position_type = MswarsPosition
    reach_builders = {"climb": climb_reach}
    off_table_ends = frozenset({"enter_unit"})  # ends aboard its carrier (002 Enter Unit)
    action_keys = frozenset({"target", "carrier", "unload", "placement"})
    unit_id_keys = frozenset({"target", "carrier"})
    table_option_checks = (parse_options,)
    table_option_schema = OPTION_SCHEMA
    turn_checks = (check_turn,)

    def check_unit(self, unit: Unit, key: str) -> None:
        if unit.type == "" and not unit.flag("infantry"):
            raise InvalidActionError(
                f"{key}.type", "missing (only infantry may go without a move type, MSW-D49)"
            )
        if unit.type != "":
            super().check_unit(unit, key)

    def parse_action(self, raw: Any, key: str) -> Action:
        action = super().parse_action(raw, key)
        if "unload" in raw:
            if not isinstance(raw["unload"], list):
                raise InvalidActionError(f"{key}.unload", 'expected [{"unit", "position"}]')
            for i, item in enumerate(raw["unload"]):
                _placed(item, f"{key}.unload[{i}]", needs_unit=True)
        if "placement" in raw:
            _placed(raw["placement"], f"{key}.placement", needs_unit=False)
        return action

    def refusal(self, position: MswarsPosition, unit: Unit, action: Action) -> Verdict | None:
        err = position.malformed
        if err is None:
            return None
        return Judgement(position.state).refuse(Violation("malformed", str(err), None, "MSW-D15"))

    def event_consequence(
        self, state: GameState, action: Action, event: Mapping[str, Any]
    ) -> Consequence | None:
        return consequences.event_consequence(event)

    def roll_consequence(self, state: GameState, action: Action, roll: Roll) -> Consequence | None:
        return consequences.roll_consequence(roll)

    def reach(self, state: GameState, unit_id: str, action_type: str = "standard_move") -> Reach:
        if action_type == "unit_exiting":  # by a unit aboard its carrier
            return state.memo(
                f"mswars.reach.{unit_id}.unit_exiting", lambda: exiting_reach(self, state, unit_id)
            )
        return super().reach(
            state, unit_id, "standard_move" if action_type == "move" else action_type
        )

    def unit_schema(self) -> dict[str, Any]:
        return UNIT_SCHEMA

    def offered(self, state: GameState, unit: Unit) -> tuple[str, ...]:
        """The move actions whose preconditions the judge would find met: the checks a
        proposal meets before any path (mswars.md 4-7; mswars/offers.py)."""
        pos = MswarsPosition.of(state)
        if pos.malformed is not None:
            return ()
        found = offered_types(pos, unit)
        return tuple(spec.type for spec in self.actions if spec.type in found)


def _placed(item: Any, key: str, needs_unit: bool) -> None:
    """{"unit", "position", "facing"} of unloading, {"position", "facing"} of exiting."""
    if not isinstance(item, dict):
        raise InvalidActionError(key, "expected an object")
    allowed = {"position", "facing"} | ({"unit"} if needs_unit else set())
    for k in item:
        if k not in allowed:
            raise InvalidActionError(f"{key}.{k}", "unknown key")
    if needs_unit and not isinstance(item.get("unit"), str):
        raise InvalidActionError(f"{key}.unit", "expected a unit id")
    if "position" not in item:
        raise InvalidActionError(f"{key}.position", "missing")
    point(item["position"], f"{key}.position")
    if "facing" in item:
        number(item["facing"], f"{key}.facing")
