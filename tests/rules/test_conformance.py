"""Every registered game system keeps the engine's contract, whatever its rules.

Run once per system in `rules.SYSTEMS`, so a system joins by being registered. The
position is built from the system's own vocabularies (its unit schema, its terrain
kinds, its action catalogue), never from knowledge of its rules: the web side and the
map editor meet a system only through these (design.md, "Layers"; scenario-format.md).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from rules import SYSTEMS, System, Verdict, state_from_json, state_to_json
from rules.engine.catalogue import ActionSpec
from rules.engine.dice import make_dice

KEYS = sorted(SYSTEMS)
SIDES = ["P1", "P2"]
WIDTH, HEIGHT = 24.0, 24.0
START = (8.0, 8.0)
#: Contract keys of a UNIT; the schema's other required fields are filled from the schema.
UNIT_KEYS = frozenset({"id", "side", "type", "move", "base", "position", "facing", "aboard"})


def system_of(key: str) -> System:
    return SYSTEMS[key]


def sample_value(field: dict[str, Any]) -> Any:
    """A value a roster field of the schema accepts (its first choice, its minimum)."""
    if field.get("enum"):
        return field["enum"][0]
    kind = field.get("type")
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        return max(field.get("minimum", 1), 1)
    return "x"


def unit_json(
    system: System, uid: str, side: str, unit_type: str, position: tuple[float, float]
) -> dict[str, Any]:
    schema = system.unit_schema()
    fields = schema.get("properties", {})
    out: dict[str, Any] = {
        "id": uid,
        "side": side,
        "type": unit_type,
        "move": 6,
        "base": {"shape": "circle", "diameter": 1.0},
        "position": [position[0], position[1]],
        "facing": 0.0,
    }
    for name, field in fields.items():
        if name not in UNIT_KEYS and name in schema.get("required", ()):
            out[name] = sample_value(field)
    return out


def terrain_json(system: System) -> dict[str, Any]:
    """One feature of the first terrain kind that needs no key, in a far corner."""
    kind = next(k for k in system.terrain_kinds if not k.required)
    return {"id": "T1", "type": kind.type, "polygon": [[18, 18], [22, 18], [22, 22], [18, 22]]}


def position_json(system: System, unit_type: str) -> dict[str, Any]:
    """A 2-unit board: the mover of `unit_type` and one unit of the other side far off."""
    units = [
        unit_json(system, "U1", SIDES[0], unit_type, START),
        unit_json(system, "U2", SIDES[1], unit_type, (16.0, 3.0)),
    ]
    return {
        "system": system.key,
        "table": {"width": WIDTH, "height": HEIGHT, "options": {}},
        "terrain": [terrain_json(system)],
        "units": units,
        "state": {},
    }


def drag_actions(system: System) -> list[ActionSpec]:
    return [spec for spec in system.actions if spec.drag]


def offered(spec: ActionSpec, unit: dict[str, Any]) -> bool:
    offered_to = getattr(spec, "offered_to", None)
    return True if offered_to is None else bool(offered_to(unit))


def action_json(spec: ActionSpec, path: list[list[float]]) -> dict[str, Any]:
    action: dict[str, Any] = {"unit": "U1", "type": spec.type, "path": path}
    if "target" in spec.keys:
        action["target"] = "U2"
    return action


def is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def first_unit_type(system: System) -> str:
    return sorted(system.unit_types)[0]


# -- metadata -----------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_system_has_a_name_players_read_not_its_key(key: str) -> None:
    system = system_of(key)
    assert system.key == key
    assert isinstance(system.name, str) and system.name.strip()
    assert system.name != key


@pytest.mark.parametrize("key", KEYS)
def test_the_action_catalogue_offers_every_action_type_with_a_label(key: str) -> None:
    system = system_of(key)
    assert system.actions
    assert all(spec.label.strip() for spec in system.actions)
    assert system.action_types <= {spec.type for spec in system.actions}
    assert drag_actions(system), "the board needs at least one action a drag makes"


@pytest.mark.parametrize("key", KEYS)
def test_the_terrain_kinds_cover_every_terrain_type(key: str) -> None:
    system = system_of(key)
    assert system.terrain_types <= {kind.type for kind in system.terrain_kinds}
    assert all(kind.label.strip() for kind in system.terrain_kinds)


@pytest.mark.parametrize("key", KEYS)
def test_the_unit_schema_offers_exactly_the_unit_types(key: str) -> None:
    system = system_of(key)
    field = system.unit_schema()["properties"]["type"]
    assert set(field["enum"]) == set(system.unit_types)
    assert len(field["enum"]) == len(system.unit_types)


# -- a position, actions, reach --------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_position_built_from_the_vocabularies_reads_back_unchanged(key: str) -> None:
    system = system_of(key)
    raw = position_json(system, first_unit_type(system))
    state = state_from_json(raw)
    assert state_to_json(state) == raw
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


@pytest.mark.parametrize("key", KEYS)
def test_every_drag_action_gives_a_verdict_with_numbers_that_serialises(key: str) -> None:
    system = system_of(key)
    raw = position_json(system, first_unit_type(system))
    state = state_from_json(raw)
    tried = 0
    for spec in drag_actions(system):
        if not offered(spec, raw["units"][0]):
            continue
        for path in (
            [[START[0] + 1, START[1]]],
            [[START[0], START[1] + 0.5], [START[0] + 0.5, START[1] + 0.5]],
        ):
            action = system.parse_action(action_json(spec, path), "action")
            verdict = system.validate(state, action, make_dice(unresolved=True))
            assert isinstance(verdict, Verdict), spec.type
            assert is_number(verdict.cost) and is_number(verdict.allowance), spec.type
            json.dumps(verdict.to_json())
            if verdict.state_after is not None:
                after = verdict.state_after
                assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after
            tried += 1
    assert tried, "no drag action is offered to the first unit type"


@pytest.mark.parametrize("key", KEYS)
def test_a_point_inside_reach_is_reached_by_a_path_validate_accepts(key: str) -> None:
    """The reach area is where the unit can end this action (a conservative subset), so
    the path it gives to a point well inside must be legal. The mover is the first unit
    type whose reach has an interior (a unit may be stuck where it stands)."""
    system = system_of(key)
    spec = drag_actions(system)[0]
    checked = []
    for unit_type in sorted(system.unit_types):
        raw = position_json(system, unit_type)
        if not offered(spec, raw["units"][0]):
            continue
        state = state_from_json(raw)
        area = system.reach(state, "U1", spec.type).area
        inner = area.buffer(-0.05)
        if inner.is_empty:
            continue
        point = inner.representative_point()
        path = system.reach(state, "U1", spec.type).path_to((point.x, point.y))
        assert path is not None and len(path) >= 2, unit_type
        assert math.dist(path[-1], (point.x, point.y)) < 1e-6
        # Points as [x, y]; a system that prices turning gives its turns as path steps.
        steps = [step if isinstance(step, dict) else list(step) for step in path[1:]]
        action = action_json(spec, steps)
        verdict = system.validate(
            state, system.parse_action(action, "action"), make_dice(unresolved=True)
        )
        assert verdict.legal, (unit_type, verdict.to_json())
        checked.append(unit_type)
        break
    assert checked, f"no unit type reaches anywhere with {spec.type}"


# -- turns ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_the_turn_structure_begins_a_battle_and_reaches_the_next_turn(key: str) -> None:
    system = system_of(key)
    structure = system.turn_structure
    position = position_json(system, first_unit_type(system))
    turn, position = structure.begin(list(SIDES), position)
    assert turn["turn"] == 1 and turn["active_side"] in SIDES
    summaries = [structure.summary(turn, state_from_json(position))]
    for _ in range(20):
        turn, position = structure.end_part(turn, position)
        summaries.append(structure.summary(turn, state_from_json(position)))
        assert turn["active_side"] in SIDES
        if turn["turn"] > 1:
            break
    assert turn["turn"] == 2
    assert len(summaries) >= 3, "both sides act before the turn ends"
    assert all(isinstance(s, str) and s.strip() for s in summaries)
    json.dumps(turn)
    json.dumps(position)
