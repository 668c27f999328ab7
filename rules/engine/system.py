"""The base class of a game system. A system overrides hooks; the engine calls them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from shapely.geometry import Polygon

from rules.engine.catalogue import ABOARD, ActionSpec, StateMarker, TerrainKind, VerdictNote
from rules.engine.consequences import Consequence, roll_words
from rules.engine.dice import Dice
from rules.engine.judgement import Judgement
from rules.engine.markers import Markers, markers_in
from rules.engine.play import Play
from rules.engine.rule_names import named, named_verdict
from rules.engine.scenario import parse_base
from rules.engine.terrain_style import UNSTYLED, TerrainStyle
from rules.engine.turns import TurnStructure
from rules.engine.unit_schema import base_field, check_unit_fields, unit_schema
from rules.engine.verdict import Roll, Verdict, Violation
from rules.geometry.bases import body_at
from rules.model.actions import Action, parse_action
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Terrain, Unit

#: Keys that document an action (golden files, bug reports); the rules ignore them.
DOC_KEYS = frozenset({"cite", "why", "note", "comment", "description"})


class System(Play):
    """One game system. Subclasses set the vocabularies and tables and override the hooks
    where their rules differ (rules/engine/play.py: how the engine plays an action)."""

    key: ClassVar[str] = ""
    #: What players read ("M.S. Wars"), never the key.
    name: ClassVar[str] = ""
    #: The action catalogue, in the order the board offers it.
    actions: ClassVar[tuple[ActionSpec, ...]] = ()
    #: The terrain schema the map editor offers.
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = ()
    #: The system's states a piece shows (rules/engine/markers.py), in the order drawn.
    state_markers: ClassVar[tuple[StateMarker, ...]] = (ABOARD,)
    #: The notes of its own its verdicts carry (`Verdict.notes`), by key, for the board.
    verdict_notes: ClassVar[tuple[VerdictNote, ...]] = ()
    #: Who may act now, what a turn or phase change resets, the header line.
    turn_structure: ClassVar[TurnStructure] = TurnStructure()
    #: What `move` and costs count: "in" (inches) or "MP" (movement points).
    cost_unit: ClassVar[str] = "in"
    terrain_types: ClassVar[frozenset[str]] = frozenset()
    unit_types: ClassVar[frozenset[str]] = frozenset()
    action_types: ClassVar[frozenset[str]] = frozenset()
    #: Keys an action of this system may carry (beyond unit/type/path/facing).
    action_keys: ClassVar[frozenset[str]] = frozenset()
    #: Whether every unit must give `move` (apskirmish: the stance table applies without it).
    unit_move_required: ClassVar[bool] = True
    #: The largest face a scenario's forced `dice` may give (apskirmish rolls d10s).
    die_faces: ClassVar[int] = 6
    #: Action keys whose value must be a unit id (a target, a carrier).
    unit_id_keys: ClassVar[frozenset[str]] = frozenset()
    #: What checks a table's options, in order: each raises InvalidActionError naming the
    #: key (usually the system's own options parser).
    table_option_checks: ClassVar[tuple[Callable[[Mapping[str, Any], str], object], ...]] = ()
    #: The table options a GM may set, for the set-up form (rules/engine/table_options.py):
    #: {option: {"type": "number" | "integer" | "boolean" | "string" (with "enum") | "grid" |
    #: "pairs", "label", "description", "default", bounds...}}; `table_option_checks` still
    #: judges what is set.
    table_option_schema: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: What checks a table's turn state, likewise.
    turn_checks: ClassVar[tuple[Callable[[Mapping[str, Any], str], object], ...]] = ()
    #: The system's own names for cited references whose seed names no section (a page,
    #: a decision): {"AOD-D28": "Aquatic units"} (rules/engine/rule_names.py).
    rule_topics: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A system that names no `action_types` takes its catalogue's."""
        super().__init_subclass__(**kwargs)
        if "action_types" not in cls.__dict__:
            cls.action_types = frozenset(spec.type for spec in cls.actions)

    # -- input checks (raise InvalidActionError naming the key) -----------------
    def check_terrain(self, terrain: Terrain, key: str) -> None:
        if terrain.type not in self.terrain_types:
            raise InvalidActionError(
                f"{key}.type", f"unknown terrain type {terrain.type!r} for {self.key}"
            )

    def check_unit(self, unit: Unit, key: str) -> None:
        if unit.type == "":
            raise InvalidActionError(f"{key}.type", "missing")
        if unit.type not in self.unit_types:
            raise InvalidActionError(
                f"{key}.type", f"unknown unit type {unit.type!r} for {self.key}"
            )

    def check_table_options(self, options: Mapping[str, Any], key: str) -> None:
        """Systems reject unknown or ill-typed table options (`table_option_checks`)."""
        for check in self.table_option_checks:
            check(options, key)

    def check_turn(self, turn: Mapping[str, Any], key: str) -> None:
        """Systems reject ill-typed turn-state keys (`turn_checks`)."""
        for check in self.turn_checks:
            check(turn, key)

    def parse_action(self, raw: Any, key: str) -> Action:
        base = frozenset({"unit", "type", "path", "facing"}) | DOC_KEYS
        action = parse_action(raw, key, base | self.action_keys)
        if action.type not in self.action_types:
            raise InvalidActionError(
                f"{key}.type", f"unknown action type {action.type!r} for {self.key}"
            )
        for name in sorted(self.unit_id_keys):
            if name in raw and not isinstance(raw[name], str):
                raise InvalidActionError(f"{key}.{name}", "expected a unit id")
        return action

    # -- the rules ---------------------------------------------------------------
    def validate(self, state: GameState, action: Action, dice: Dice) -> Verdict:
        """What every system checks first, then `judge`: the state must be this system's
        (else InvalidActionError), and the unit must be in it (else `unknown_unit`)."""
        if state.system != self.key:
            raise InvalidActionError("system", f"state is for {state.system!r}, not {self.key}")
        if action.type not in self.action_types:
            raise InvalidActionError("action.type", f"unknown {self.key} action {action.type!r}")
        unit = state.unit(action.unit)
        if unit is None:
            return self.named(self.unknown_unit(state, action))
        return self.named(self.judge(state, unit, action, dice))

    def named(self, verdict: Verdict) -> Verdict:
        """The verdict with each reason's rule named for a player ("Turning, LaserGrenadiers
        rules"; rules/engine/rule_names.py)."""
        return named_verdict(self.name, verdict, self.rule_topics)

    def named_violation(self, violation: Violation) -> Violation:
        """One refusal (a turn structure's) with its rule named, as `named`."""
        return named(self.name, violation, self.rule_topics)

    def unknown_unit(self, state: GameState, action: Action) -> Verdict:
        """Hook: the verdict on an action by a unit the state does not hold (contract)."""
        return Judgement(state).refuse(Violation("unknown_unit", f"no unit {action.unit!r}", None))

    def standing_forbidden(self, state: GameState, unit: Unit) -> Callable[[Terrain], bool] | None:
        """Hook: the terrain `unit` may not be set down in (at deployment, as the board asks
        while a player places it: rules/referee/deployment.py), or None where only the
        table's edge and the other bases keep it out (default)."""
        return None

    # -- what a piece shows of its state ----------------------------------------
    def markers(self, state: GameState) -> Markers:
        """Hook: each piece's state markers in a position: those the catalogue declares
        (`state_markers`); a system adds what it works out (a band)."""
        return markers_in(self.state_markers, state)

    # -- what an action does besides moving, in words (rules/engine/consequences.py) --
    def event_consequence(
        self, state: GameState, action: Action, event: Mapping[str, Any]
    ) -> Consequence | None:
        """Hook: one of the verdict's events in a player's words, or None (default: the
        events say nothing beyond the move; a piece taken off the table is said anyway)."""
        return None

    def roll_consequence(self, state: GameState, action: Action, roll: Roll) -> Consequence | None:
        """Hook: a roll a commit would make and what it needs (a preview never rolls);
        None where an event's words say it already."""
        return Consequence("roll", roll_words(roll))

    def note_consequence(
        self, state: GameState, action: Action, note: VerdictNote, value: Any
    ) -> Consequence | None:
        """Hook: one of the verdict's notes (`verdict_notes`) in words, its kind the note's
        key; default: its label and value."""
        return Consequence(note.key, f"{note.label}: {str(value).replace('_', ' ')}")

    def sight(self, feature: Terrain) -> str:
        """What `feature` does to a line of sight drawn across it: "blocks", "hinders" or
        "" (nothing). Default: what its terrain kind says (`TerrainKind.sight`); a system
        whose sight depends on more (a feature's height) overrides this.
        `rules/referee/sight_ruling.py` draws the line and asks this of each feature."""
        kind = next((k for k in self.terrain_kinds if k.type == feature.type), None)
        return kind.sight if kind is not None and kind.sight in ("blocks", "hinders") else ""

    def terrain_style(self, terrain_type: str) -> TerrainStyle:
        """How the board and the battle report draw a terrain type: its kind's style in the
        catalogue, else the engine's look for a type the system does not style."""
        kind = next((k for k in self.terrain_kinds if k.type == terrain_type), None)
        return kind.style if kind is not None else UNSTYLED

    def terrain_label(self, feature: Terrain) -> str:
        """A feature's kind in a player's words ("Hindering terrain"), from the catalogue."""
        kind = next((k for k in self.terrain_kinds if k.type == feature.type), None)
        return kind.label if kind is not None else feature.type.replace("_", " ").capitalize()

    def unit_schema(self) -> dict[str, Any]:
        """What a unit of this system may contain: a JSON Schema document
        (rules/engine/unit_schema.py), read by the engine and the roster editor alike.
        Default: the scenario format's common keys (scenario-format.md UNIT), so that a
        system that states none of its own can still have rosters: a type among its
        `unit_types`, a move, a base (a system states its keys by overriding this)."""
        kinds: dict[str, Any] = {"type": "string"}
        if self.unit_types:
            kinds["enum"] = sorted(self.unit_types)
        common = {
            "type": kinds,
            "move": {"type": "number", "minimum": 0, "description": "movement allowance"},
            "base": base_field({"shape": "circle", "diameter": 1.0}),
        }
        return unit_schema(self.key, common)

    def check_parsed_unit(self, unit: Unit, key: str) -> None:
        """A parsed unit checked by the system (`check_unit`), then against its unit schema:
        the check the roster editor makes (rules/engine/unit_schema.py)."""
        self.check_unit(unit, key)
        as_json = {**unit.props, "base": unit.base.to_json()}
        if unit.type:
            as_json["type"] = unit.type
        if unit.move_given:
            as_json["move"] = unit.move
        check_unit_fields(self.unit_schema(), as_json, key)

    # -- what the board offers (the engine still judges every proposal) -----------
    def offered(self, state: GameState, unit: Unit) -> tuple[str, ...]:
        """The action types `unit` may take now, in catalogue order: those whose
        preconditions hold (scenario-format.md, "Other commands": offers; `may_take`)."""
        position = self.position_of(state)
        return tuple(spec.type for spec in self.actions if self.may_take(position, unit, spec))

    def may_take(self, position: Any, unit: Unit, spec: ActionSpec) -> bool:
        """Hook: whether `unit` meets the preconditions of `spec` now. A system overrides
        this with the checks its judge makes before it looks at the path, so that the
        board offers exactly what the referee would not refuse whatever the path.

        Default (a system that states no preconditions): not for a unit aboard or off the
        table; else the catalogue's plain eligibility (`ActionSpec.offered_to`) and the
        turn structure's bookkeeping (`unit_may_take`)."""
        if not unit.on_table:
            return False
        return spec.offered_to({"type": unit.type, **unit.props}) and (
            self.turn_structure.unit_may_take(position.state, unit.id, spec.type)
        )

    def may_take_type(self, position: Any, unit: Unit, action_type: str) -> bool:
        """Whether `unit` may take `action_type` now (`may_take` of its catalogue entry):
        the reach of a type the board does not offer is nowhere."""
        spec = next((s for s in self.actions if s.type == action_type), None)
        return spec is not None and self.may_take(position, unit, spec)

    def deployment_zones(
        self, width: float, height: float, sides: Sequence[str], depth: float
    ) -> dict[str, list[list[float]]]:
        """Each side's deployment zone, `depth` inches deep along a table edge.

        Default: the first side along the south edge, the second along the north, the
        third west, the fourth east; more sides share the edges in turn, each edge split
        evenly between them. West and east zones leave the corners to south and north."""
        return edge_zones(width, height, sides, depth)

    def base_footprint(
        self, base: Mapping[str, Any], position: Sequence[float], facing: float
    ) -> Polygon:
        """The area a base (scenario BASE json) covers at a pose, for deployment checks."""
        shape = parse_base(base, "base")
        return body_at(shape, float(position[0]), float(position[1]), facing).polygon()


#: The table edges the default deployment zones use, in the order sides take them.
EDGES = ("south", "north", "west", "east")


def edge_zones(
    width: float, height: float, sides: Sequence[str], depth: float
) -> dict[str, list[list[float]]]:
    """Zones `depth` deep along the table's edges for any number of sides (see above)."""
    depth = min(depth, height / 2, width / 2)
    by_edge: dict[str, list[str]] = {edge: [] for edge in EDGES}
    for index, side in enumerate(sides):
        by_edge[EDGES[index % len(EDGES)]].append(side)
    ends_taken = bool(by_edge["south"] or by_edge["north"])
    zones = {}
    for edge, names in by_edge.items():
        for part, side in enumerate(names):
            share = 1 / len(names)
            if edge in ("south", "north"):
                x0, x1 = width * part * share, width * (part + 1) * share
                y0, y1 = (0.0, depth) if edge == "south" else (height - depth, height)
            else:
                low = depth if ends_taken else 0.0
                span = height - 2 * low
                y0, y1 = low + span * part * share, low + span * (part + 1) * share
                x0, x1 = (0.0, depth) if edge == "west" else (width - depth, width)
            zones[side] = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return zones
