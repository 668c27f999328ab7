"""The base class of a game system. A system overrides hooks; the engine calls them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rules.engine.actions import Action, parse_action
from rules.engine.catalogue import ActionSpec, TerrainKind
from rules.engine.dice import Dice
from rules.engine.errors import InvalidActionError
from rules.engine.model import GameState, Terrain, Unit
from rules.engine.turns import TurnStructure
from rules.engine.verdict import Verdict

if TYPE_CHECKING:
    from rules.engine.reach import Reach


#: Keys that document an action (golden files, bug reports); the rules ignore them.
DOC_KEYS = frozenset({"cite", "why", "note", "comment", "description"})


class System:
    """One game system. Subclasses set the vocabularies and override the hooks."""

    key: ClassVar[str] = ""
    #: What players read ("M.S. Wars"), never the key.
    name: ClassVar[str] = ""
    #: The action catalogue, in the order the board offers it.
    actions: ClassVar[tuple[ActionSpec, ...]] = ()
    #: The terrain schema the map editor offers.
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = ()
    #: Who may act now, what a turn or phase change resets, the header line.
    turn_structure: ClassVar[TurnStructure] = TurnStructure()
    #: What `move` and costs count: "in" (inches) or "MP" (movement points).
    cost_unit: ClassVar[str] = "in"
    terrain_types: ClassVar[frozenset[str]] = frozenset()
    unit_types: ClassVar[frozenset[str]] = frozenset()
    action_types: ClassVar[frozenset[str]] = frozenset()
    #: Keys an action of this system may carry (beyond unit/type/path/facing).
    action_keys: ClassVar[frozenset[str]] = frozenset()

    # -- input checks (raise InvalidActionError naming the key) -----------------
    def check_terrain(self, terrain: Terrain, key: str) -> None:
        if terrain.type not in self.terrain_types:
            raise InvalidActionError(f"{key}.type", f"unknown terrain type {terrain.type!r} "
                                     f"for {self.key}")

    def check_unit(self, unit: Unit, key: str) -> None:
        if unit.type not in self.unit_types:
            raise InvalidActionError(f"{key}.type", f"unknown unit type {unit.type!r} "
                                     f"for {self.key}")

    def check_table_options(self, options: Mapping[str, Any], key: str) -> None:
        """Systems reject unknown or ill-typed table options."""

    def check_turn(self, turn: Mapping[str, Any], key: str) -> None:
        """Systems reject ill-typed turn-state keys."""

    def parse_action(self, raw: Any, key: str) -> Action:
        base = frozenset({"unit", "type", "path", "facing"}) | DOC_KEYS
        action = parse_action(raw, key, base | self.action_keys)
        if action.type not in self.action_types:
            raise InvalidActionError(f"{key}.type", f"unknown action type {action.type!r} "
                                     f"for {self.key}")
        return action

    # -- the rules ---------------------------------------------------------------
    def validate(self, state: GameState, action: Action, dice: Dice) -> Verdict:
        raise NotImplementedError

    def reach(self, state: GameState, unit_id: str, action_type: str = "move") -> Reach:
        raise NotImplementedError

    def unit_schema(self) -> dict[str, Any]:
        """What a roster unit of this system may contain (JSON-schema-like dict)."""
        return {"system": self.key, "fields": {}}
