"""The lasergrenadiers System: vocabularies, input checks and the action dispatcher
(seed 003; lasergrenadiers.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.catalogue import ActionSpec, VerdictNote
from rules.engine.consequences import Consequence
from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement
from rules.engine.markers import Markers
from rules.engine.system import System
from rules.engine.verdict import Verdict
from rules.model.actions import Action, number, point
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Terrain, Unit
from rules.systems.lasergrenadiers import consequences, moves, offers
from rules.systems.lasergrenadiers.accounting import banded, moved, speed_band
from rules.systems.lasergrenadiers.catalogue import (
    ACTIONS,
    SPEED_BAND,
    STATE_MARKERS,
    TERRAIN_CITES,
    TERRAIN_KINDS,
    UNIT_SCHEMA,
    VERDICT_NOTES,
)
from rules.systems.lasergrenadiers.moves import LgMove, overrun_target
from rules.systems.lasergrenadiers.options import OPTION_SCHEMA, parse_options
from rules.systems.lasergrenadiers.reach import LgReach
from rules.systems.lasergrenadiers.tables import UNIT_TYPES
from rules.systems.lasergrenadiers.terrain import LgPosition
from rules.systems.lasergrenadiers.transport import load, unload
from rules.systems.lasergrenadiers.turns import LgTurns, check_turn

#: Unit keys and the types each must have (scenario-format.md, lasergrenadiers section).
TERRAIN_KEYS: dict[str, tuple[type, ...]] = {
    "uphill": (int, float),
    "wet": (bool,),
    "vehicle_access": (bool,),
    "rubble": (bool,),
}


def _typed(value: Any, kinds: tuple[type, ...], key: str) -> None:
    if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
        raise InvalidActionError(key, f"expected {kinds[0].__name__}")


class LaserGrenadiersSystem(LgReach, System):
    key = "lasergrenadiers"
    name = "LaserGrenadiers"
    actions = ACTIONS
    terrain_kinds = TERRAIN_KINDS
    state_markers = STATE_MARKERS
    verdict_notes = VERDICT_NOTES
    turn_structure = LgTurns()
    terrain_types = frozenset(TERRAIN_CITES)
    unit_types = frozenset(UNIT_TYPES)
    handlers = {
        "load": lambda pos, unit, action, _dice: load(pos, unit, action),
        "unload": lambda pos, unit, action, _dice: unload(pos, unit, action),
    }
    position_type = LgPosition
    #: A boarding piece ends aboard; a vehicle loading or unloading does not move
    #: (003 Transport 1, LG-D26, LG-D34): no area.
    off_table_ends = frozenset({"load", "unload"})
    action_keys = frozenset(key for spec in ACTIONS for key in spec.keys)
    unit_id_keys = frozenset({"target", "carrier"})
    table_option_checks = (parse_options,)
    table_option_schema = OPTION_SCHEMA
    turn_checks = (check_turn,)

    def check_terrain(self, terrain: Terrain, key: str) -> None:
        super().check_terrain(terrain, key)
        for name, kinds in TERRAIN_KEYS.items():
            value = terrain.props.get(name)
            if value is not None:
                _typed(value, kinds, f"{key}.{name}")
        if terrain.type == "slope" and "uphill" not in terrain.props:
            raise InvalidActionError(f"{key}.uphill", "a slope needs its uphill bearing (LG-D5)")

    def parse_action(self, raw: Any, key: str) -> Action:
        action = super().parse_action(raw, key)
        items = raw.get("passengers", [])
        if not isinstance(items, list):
            raise InvalidActionError(f"{key}.passengers", "expected a list")
        for i, item in enumerate(items):
            k = f"{key}.passengers[{i}]"
            if action.type == "load":  # ids of pieces in contact (lasergrenadiers.md 9)
                if not isinstance(item, str):
                    raise InvalidActionError(k, "expected a unit id")
            elif (
                not isinstance(item, dict)
                or not isinstance(item.get("unit"), str)
                or "position" not in item
                or set(item) - {"unit", "position", "facing"}
            ):
                raise InvalidActionError(k, 'expected {"unit", "position", "facing"}')
            else:
                point(item["position"], f"{k}.position")
                number(item.get("facing", 0.0), f"{k}.facing")
        return action

    def unknown_unit(self, state: GameState, action: Action) -> Verdict:
        """No such piece, or one that has left the board for good (003 Leaving the board)."""
        judgement = PathJudgement(state)
        if action.unit in state.turn.get("left_board", []):
            moves.never_returns(judgement, action.unit)
        else:
            judgement.add("unknown_unit", f"no unit {action.unit!r}", None, "")
        return banded(judgement.verdict())

    def refusal(self, position: LgPosition, unit: Unit, action: Action) -> Verdict | None:
        """A piece that left the board, or one aboard that does not unload, does nothing
        (moves.can_act); nor an overrun without a target on the table."""
        judgement = PathJudgement(position.state)
        moves.can_act(position, judgement, unit, action)
        if action.type == "overrun":
            overrun_target(position, judgement, unit, action)
        return None if judgement.legal else banded(judgement.verdict())

    def move(self, position: LgPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        """`move`, `overrun` and `enter_board` along a path (003 Movement; moves.py)."""
        return LgMove().move(position, unit, action, dice)

    def may_take(self, position: LgPosition, unit: Unit, spec: ActionSpec) -> bool:
        """The judge's checks before the path (offers.py)."""
        return offers.may_take(position, unit, spec.type)

    def event_consequence(
        self, state: GameState, action: Action, event: Mapping[str, Any]
    ) -> Consequence | None:
        return consequences.event_consequence(state, event)

    def markers(self, state: GameState) -> Markers:
        """The catalogue's markers, and each piece's speed band once it has spent allowance
        this turn (LG-D11: turning included): the band fire at it uses (003 Movement and
        fire; lasergrenadiers.md 8)."""
        out = super().markers(state)
        for unit in state.units:
            spent = moved(state, unit.id)
            if spent > 0:
                band = {"label": f"{speed_band(unit, spent)} speed", "help": SPEED_BAND.help}
                out.setdefault(unit.id, []).append({"key": SPEED_BAND.key, **band})
        return out

    def note_consequence(
        self, state: GameState, action: Action, note: VerdictNote, value: Any
    ) -> Consequence | None:
        return consequences.speed_band_consequence(str(value))

    def unit_schema(self) -> dict[str, Any]:
        return UNIT_SCHEMA
