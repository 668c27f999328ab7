"""The rules engine as the web side sees it: the one door to everything system-specific.

The rest of the web code asks questions here ("what is this system called?", "which
actions may this unit take now?", "what does the header say?") and never names a
system, an action or a terrain type of its own (design.md, "Layers").
"""

import json
from typing import Any

from shapely.geometry import Polygon

import rules
from tabletop.services.errors import ServiceError


def _registry() -> dict[str, Any]:
    return rules.SYSTEMS


def system_keys() -> list[str]:
    return sorted(_registry())


def require_system(key: str, field: str = "system") -> Any:
    system = _registry().get(key)
    if system is None:
        raise ServiceError(
            f"Unknown game system {key!r}; choose one of {', '.join(system_names().values())}.",
            field=field,
        )
    return system


# -- names ----------------------------------------------------------------------------


def system_name(key: str) -> str:
    """What players read (the system's name); the key itself only for a system the engine lost."""
    system = _registry().get(key)
    return (system.name or key) if system is not None else key


def system_names() -> dict[str, str]:
    """{key: name} for every registered system, by name."""
    return dict(sorted(((k, system_name(k)) for k in _registry()), key=lambda kv: kv[1]))


# -- rosters ----------------------------------------------------------------------------


def unit_schema(key: str) -> dict[str, Any]:
    """The engine's description of a unit: a JSON Schema document
    ({"properties": {name: {type, enum, ...}}, "required": [...]})."""
    return require_system(key).unit_schema()


def unit_types(key: str) -> list[str]:
    return list(unit_schema(key)["properties"]["type"]["enum"])


def roster_fields(key: str) -> dict[str, dict[str, Any]]:
    """The unit schema's fields a roster sets (the unit type is chosen separately; the
    table sets those marked `readOnly`), each with `required` as the schema says."""
    schema = unit_schema(key)
    return {
        name: {**spec, "required": name in schema.get("required", ())}
        for name, spec in schema["properties"].items()
        if name != "type" and not spec.get("readOnly")
    }


def unit_errors(key: str, unit_type: Any, stats: Any) -> dict[str, str]:
    """Everything the engine's unit schema refuses in a roster unit of `unit_type` with
    `stats`, keyed by field ("unit_type", "move", "base.diameter"); {} if nothing."""
    unit = {**stats, "type": unit_type} if isinstance(stats, dict) else {"type": unit_type}
    problems = rules.unit_problems(key, unit, roster=True)
    errors = {("unit_type" if f == "type" else f): words for f, words in problems.items()}
    if not isinstance(stats, dict):  # then only its type can be checked
        kept = {k: v for k, v in errors.items() if k == "unit_type"}
        return {**kept, "stats": "The unit's stats are a JSON object."}
    if "type" in stats:
        errors["type"] = "The unit type is chosen beside the stats, not among them."
    return errors


def unit_type_choices(key: str) -> list[tuple[str, str]]:
    """(type, what players read) for each unit type, as the roster catalogue names them."""
    return [(entry["type"], entry["label"]) for entry in unit_catalogue(key)]


# -- table options ----------------------------------------------------------------------


def table_option_schema(key: str) -> dict[str, dict[str, Any]]:
    """The table options a GM may set for this system ({option: spec}; the engine's
    `table_option_schema`): what the campaign settings form offers. The engine still
    judges what is set (campaigns._clean_table_options)."""
    return json.loads(json.dumps(dict(require_system(key).table_option_schema)))


# -- maps -------------------------------------------------------------------------------


def terrain_kinds(key: str) -> list[dict[str, Any]]:
    """The terrain types a map of this system may use, with labels and their keys.

    A system that publishes no kinds gets its terrain types with the scenario format's
    common keys, so that its maps can still be drawn."""
    system = require_system(key)
    kinds = [kind.to_json() for kind in system.terrain_kinds]
    if kinds:
        return kinds
    return [
        {
            "type": t,
            "label": t.replace("_", " ").capitalize(),
            "keys": ["height", "size_class"],
            "required": [],
            "help": "",
            "sight": "",
            "style": unstyled_terrain(),
        }
        for t in sorted(system.terrain_types)
    ]


def terrain_style(key: str, terrain_type: str) -> dict[str, str]:
    """How the board and the battle report draw a terrain type ({"fill", "pattern",
    "stroke"}): the style in the system's catalogue, the same table the board reads
    (`terrain_kinds`); the engine's look for a type unstyled or a system the engine lost."""
    system = _registry().get(key)
    if system is None:
        return unstyled_terrain()
    return dict(system.terrain_style(terrain_type).to_json())


def terrain_styles(position: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{terrain type: style} for every type on a scenario-shaped position's map, as its
    system styles it (`terrain_style`): what the battle report draws with."""
    key = str(position.get("system", ""))
    types = {str(feature.get("type", "")) for feature in position.get("terrain", [])}
    return {t: terrain_style(key, t) for t in sorted(types)}


def unstyled_terrain() -> dict[str, str]:
    """The engine's look for a terrain type its system does not style, on the board and
    in the report alike."""
    return dict(rules.UNSTYLED_TERRAIN.to_json())


def terrain_types(key: str) -> list[str]:
    return [kind["type"] for kind in terrain_kinds(key)]


# -- the board --------------------------------------------------------------------------


def catalogue(key: str) -> list[dict[str, Any]]:
    """The system's actions as the board offers them, in order (labels, keys, path shape)."""
    return [spec.to_json() for spec in require_system(key).actions]


def cost_unit(key: str) -> str:
    return str(require_system(key).cost_unit)


def board_config(key: str) -> dict[str, Any]:
    """What the board page needs to know of its system before the first frame."""
    unit = cost_unit(key)
    return {
        "systemName": system_name(key),
        "actions": catalogue(key),
        "costUnit": unit,
        # What the board prints after a cost: 8.5" or 8.5 MP (an action may count its own).
        "costSuffix": rules.COST_UNITS.get(unit, f" {unit}"),
        "costSuffixes": dict(rules.COST_UNITS),
        "terrainKinds": terrain_kinds(key),
        # How the board draws a terrain type its system's kinds do not style.
        "terrainUnstyled": unstyled_terrain(),
        # The notes of its own a verdict carries ([{key, label, help}]), for the unit card.
        "verdictNotes": [note.to_json() for note in require_system(key).verdict_notes],
        # Phases change what a player's "end" ends: their part of the phase.
        "phased": bool(require_system(key).turn_structure.phased),
        # What ending a player's part is called in this system ("End activation").
        "endLabel": str(require_system(key).turn_structure.end_label()),
    }


def available_actions(state: dict[str, Any], turn: dict[str, Any] | None) -> dict[str, list[str]]:
    """{unit id: [action types]}: what each unit may be offered now, the engine's offers
    (rules/referee/questions.py: the preconditions its referee checks, then whose turn it
    is); {} for a position the engine cannot read."""
    if state.get("system", "") not in _registry():
        return {}
    return rules.offered_in_position(state, turn)


def engine_state(state: dict[str, Any]) -> rules.GameState | None:
    """The engine's reading of a scenario-shaped position, or None for one it cannot read
    (a system it lost)."""
    if state.get("system", "") not in _registry():
        return None
    try:
        return rules.state_from_json(state)
    except rules.InvalidActionError:
        return None


def table_view(
    state: dict[str, Any], turn: dict[str, Any], game: rules.GameState | None = None
) -> dict[str, Any]:
    """What a snapshot and every table event carry beside the position (docs/protocol.md):
    the pieces' states and, once a side is to act, the header line, the actions each unit
    may be offered and the unit whose activation runs (rules.board_view). `game`: the
    same position as the engine already holds it (an act's verdict), else it is read
    once here."""
    game = game or engine_state(state)
    if game is None:
        return {"summary": "", "actions": {}, "unit_states": {}}
    return rules.board_view(game, turn)


def state_markers(state: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """{unit id: [{"key", "label", "help"}]}: the system's states each piece shows (its
    catalogue's `state_markers`: activated, shut down, a speed band), for the board, the
    unit card and the report; {} for a position the engine cannot read."""
    return dict(table_view(state, {})["unit_states"])


# -- turns ------------------------------------------------------------------------------


def _turn_structure(state: dict[str, Any]) -> Any:
    return require_system(state.get("system", "")).turn_structure


def begin(state: dict[str, Any], sides: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the table's turn, the position) when the battle goes live."""
    turn, position = _turn_structure(state).begin(list(sides), state)
    return turn, position


def refusal(
    state: dict[str, Any], turn: dict[str, Any], side: str, action: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Why `side` may not act now (the turn structure, judged before the engine), or None:
    the engine's Violation, its rule named by the system (`rule`, `cite`), as every
    refusal (tabletop.events.reason)."""
    system = require_system(state.get("system", ""))
    refused = system.turn_structure.refusal(turn, state, side, action)
    if refused is None:
        return None
    return dict(system.named_violation(refused).to_json())


def acted(state: dict[str, Any], turn: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The table's turn after a committed action (the turn structure's word: the piece
    whose activation it began, where the system has activations; else unchanged)."""
    return dict(_turn_structure(state).acted(turn, state, action))


def phased(state: dict[str, Any]) -> bool:
    return bool(_turn_structure(state).phased)


def end_part(
    state: dict[str, Any], turn: dict[str, Any], *, whole_turn: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(turn, position) after the active side ends its part, or the GM the whole turn."""
    new_turn, position = _turn_structure(state).end_part(turn, state, whole_turn=whole_turn)
    return new_turn, position


def summary(state: dict[str, Any], turn: dict[str, Any]) -> str:
    """The header's line ("Turn 2 · Phase 1 · P1 to act · 3 AP left"); "" without a turn."""
    return str(table_view(state, turn)["summary"])


# -- deployment -------------------------------------------------------------------------


def deployment_zones(
    key: str, width: float, height: float, sides: list[str], depth: float
) -> dict[str, list[list[float]]]:
    return require_system(key).deployment_zones(width, height, sides, depth)


def base_footprint(key: str, base: dict[str, Any], position: list[float], facing: float) -> Polygon:
    return require_system(key).base_footprint(base, position, facing)


# -- positions --------------------------------------------------------------------------


def position_error(position: dict[str, Any]) -> tuple[str, str] | None:
    """The engine's objection to a scenario-shaped position as (key, message), or None."""
    try:
        rules.state_from_json(position)
    except ValueError as error:  # the engine's InvalidActionError is a ValueError
        return getattr(error, "key", ""), getattr(error, "detail", str(error))
    return None


# -- records: the engine's own file format (scenario-format.md) ---------------------------


def replay_verdict(position: dict[str, Any], action: dict[str, Any], dice: list[int]) -> dict:
    """The engine's verdict on `action` in `position` with the dice forced to what the
    table rolled: a ruling judged again, exactly as `python -m rules check` will judge it.
    Raises ServiceError (field `action`) for an action the engine cannot read."""
    try:
        game = rules.state_from_json(position)
        return rules.validate(game, rules.action_from_json(action, game), dice=dice).to_json()
    except rules.DiceExhaustedError as error:
        raise ServiceError(f"The ruling needs a roll the table did not make: {error}") from None
    except rules.InvalidActionError as error:
        raise ServiceError(str(error), field="action", code="malformed") from None


def scenario_file(
    position: dict[str, Any],
    action: dict[str, Any] | None = None,
    expect: dict[str, Any] | None = None,
    dice: list[int] | None = None,
) -> dict[str, Any]:
    """A scenario file (the engine's `scenario_to_json`): the position alone, or the position,
    one action and the verdict it must get (`expect`), with the dice that decided it."""
    game = rules.state_from_json(position)
    if action is None:
        return rules.state_to_json(game)
    scenario = rules.Scenario(
        state=game,
        actions=(rules.action_from_json(action, game),),
        expects=() if expect is None else (expect,),
        dice=None if dice is None else tuple(dice),
        single_action=True,
        single_expect=True,
    )
    return rules.scenario_to_json(scenario)


# -- the roster catalogue -----------------------------------------------------------------


def unit_catalogue(key: str) -> list[dict[str, Any]]:
    """What the roster builder offers: each unit type of the system with the stats the
    engine's unit schema gives by default ({"type", "label", "stats"}). A field's default
    is its `default`; a move also takes the type's `suggested` rate where the system
    publishes one. Fields only for other types (`for`) are left out."""
    fields = unit_schema(key)["properties"]
    # A system may name its types for players ("labels" beside the enum); else the key, as words.
    type_labels = fields["type"].get("labels", {})
    entries = []
    for unit_type in unit_types(key):
        stats: dict[str, Any] = {}
        for name, spec in fields.items():
            if name == "type" or unit_type not in spec.get("for", [unit_type]):
                continue
            suggested = spec.get("suggested", {})
            if isinstance(suggested, dict) and unit_type in suggested:
                stats[name] = suggested[unit_type]
            elif "default" in spec:
                stats[name] = spec["default"]
        label = type_labels.get(unit_type) or unit_type.replace("_", " ").capitalize()
        entries.append({"type": unit_type, "label": label, "stats": stats})
    return entries


# -- deployment: may a base be set down here? ------------------------------------------------


def placement_obstructions(
    position: dict[str, Any], unit_id: str, point: list[float], facing: float
) -> list[dict[str, str]]:
    """What keeps `unit_id` from being set down at `point`, `facing` in `position`: the
    engine's placement check (rules/referee/deployment.py: wholly on the table, no other
    base overlapped, no terrain the system forbids it). Each as {"kind": "off_table" |
    "base" | "terrain", "what": unit or feature id, "label": a terrain feature's kind in
    the system's words}; [] where it may stand."""
    game = rules.state_from_json(position)
    system = require_system(game.system)
    features = {feature.id: feature for feature in game.terrain}
    found = rules.placement_obstructions(
        game, unit_id, float(point[0]), float(point[1]), float(facing)
    )
    return [
        {
            "kind": o.kind,
            "what": o.what,
            "label": system.terrain_label(features[o.what]) if o.what in features else "",
        }
        for o in found
    ]
