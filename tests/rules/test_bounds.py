"""The engine bounds its own input and work (issue 15; rules/engine/bounds.py,
docs/rules-engine.md "Bounds"): non-finite numbers are `malformed` everywhere; points lie
in the table's box; steps, turns and path length are capped; a verdict is strict JSON.

Every refusal here names the offending key, as all malformed input does (design.md,
style 1). None of these tests times anything: the worst case is measured by
bench/worst_case.py (docs/benchmarks.md).
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules import InvalidActionError, state_from_json, validate
from rules.engine.bounds import MAX_TABLE_SIDE, MAX_TURNING
from rules.engine.numbers import json_number
from rules.model.actions import MAX_STEPS
from tests.rules.cli_run import rules_cli

ROOT = Path(__file__).resolve().parents[2]

#: A 36" x 36" table (the box reaches 36" past every edge), a 'Mech on a rect base.
SCENE: dict[str, Any] = {
    "system": "aod",
    "table": {"width": 36, "height": 36},
    "terrain": [
        {
            "id": "E1",
            "type": "elevated",
            "height": 2,
            "polygon": [[20, 20], [24, 20], [24, 24], [20, 24]],
        },
        {
            "id": "A1",
            "type": "abrupt_elevated",
            "height": 2,
            "polygon": [[28, 2], [32, 2], [32, 6], [28, 6]],
            "access": [[[28, 3], [28, 5]]],
        },
    ],
    "units": [
        {
            "id": "M1",
            "side": "P1",
            "type": "mech",
            "move": 10,
            "base": {"shape": "rect", "width": 1.5, "length": 2},
            "position": [10, 10],
            "facing": 0,
        },
        {
            "id": "I1",
            "side": "P1",
            "type": "infantry",
            "move": 4,
            "base": {"shape": "circle", "diameter": 1},
            "position": [14, 14],
        },
        {
            "id": "I2",
            "side": "P1",
            "type": "infantry",
            "move": 4,
            "base": {"shape": "circle", "diameter": 1},
            "position": [15, 14],
        },
        {
            "id": "I3",
            "side": "P1",
            "type": "infantry",
            "move": 4,
            "base": {"shape": "circle", "diameter": 1},
            "position": [16, 14],
        },
    ],
}


def scene_with(change: Any) -> dict[str, Any]:
    scene = copy.deepcopy(SCENE)
    change(scene)
    return scene


def malformed_key(scene: dict[str, Any], action: Any = None) -> str:
    """The key the engine names when it refuses the position or the action."""
    with pytest.raises(InvalidActionError) as refused:
        state = state_from_json(scene)
        if action is not None:
            validate(state, action, dice=[6] * 4)
    assert refused.value.code == "malformed"
    return refused.value.key


def move(*path: Any, **keys: Any) -> dict[str, Any]:
    return {"unit": "M1", "type": "move", "path": list(path), **keys}


# -- non-finite numbers are malformed everywhere -----------------------------------------

POSITION_NUMBERS = {
    "units[0].position[0]": lambda s, v: s["units"][0].__setitem__("position", [v, 10]),
    "units[0].position[2]": lambda s, v: s["units"][0].__setitem__("position", [10, 10, v]),
    "units[0].facing": lambda s, v: s["units"][0].__setitem__("facing", v),
    "units[0].move": lambda s, v: s["units"][0].__setitem__("move", v),
    "units[0].base.width": lambda s, v: s["units"][0]["base"].__setitem__("width", v),
    "table.width": lambda s, v: s["table"].__setitem__("width", v),
    "terrain[0].polygon[1][0]": lambda s, v: s["terrain"][0]["polygon"][1].__setitem__(0, v),
    "terrain[0].height": lambda s, v: s["terrain"][0].__setitem__("height", v),
    "terrain[1].access[0][1][1]": lambda s, v: s["terrain"][1]["access"][0][1].__setitem__(1, v),
}


@pytest.mark.parametrize(
    "value", [math.nan, math.inf, -math.inf, 10**400], ids=["nan", "inf", "-inf", "int_too_large"]
)
@pytest.mark.parametrize("key", sorted(POSITION_NUMBERS))
def test_a_non_finite_number_in_a_position_is_malformed_naming_its_key(
    key: str, value: float
) -> None:
    """Issue 15: NaN and infinities in a scenario raised tracebacks (an infinite move
    overflowed rounding up, 000 [15]) or passed silently (a NaN facing)."""
    scene = scene_with(lambda s: POSITION_NUMBERS[key](s, value))
    assert malformed_key(scene) == key


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("units[0].W1", lambda s: s["units"][0].__setitem__("W1", math.inf)),
        ("units[0].evade[0]", lambda s: s["units"][0].__setitem__("evade", [math.nan])),
        (
            "table.options.run_multiplier",
            lambda s: s["table"].__setitem__("options", {"run_multiplier": math.nan}),
        ),
        ("state.orders_used", lambda s: s.__setitem__("state", {"orders_used": -math.inf})),
        ("units[0].capacity", lambda s: s["units"][0].__setitem__("capacity", 2**53 + 1)),
    ],
)
def test_a_non_finite_number_under_a_system_key_is_malformed_too(key: str, change: Any) -> None:
    """Issue 15: keys the contract leaves to a system are kept and printed back, so a NaN
    there, under any key, would come out as a bare `NaN`; an integer past 2**53 overflowed
    where a system made it a float (both found by test_hostile_input)."""
    assert malformed_key(scene_with(change)) == key


def test_a_non_finite_number_under_an_action_key_of_a_system_is_malformed() -> None:
    action = move([12, 10], note={"deep": [[[math.nan]]]})
    assert malformed_key(SCENE, action) == "action.note.deep[0][0][0]"


ACTION_NUMBERS = {
    "action.path[0][0]": lambda v: move([v, 10]),
    "action.path[0][2]": lambda v: move([12, 10, v]),
    "action.path[0].turn": lambda v: move({"turn": v}),
    "action.facing": lambda v: move([12, 10], facing=v),
}


@pytest.mark.parametrize("value", [math.nan, math.inf, 10**400], ids=["nan", "inf", "big"])
@pytest.mark.parametrize("key", sorted(ACTION_NUMBERS))
def test_a_non_finite_number_in_an_action_is_malformed_naming_its_key(
    key: str, value: float
) -> None:
    assert malformed_key(SCENE, ACTION_NUMBERS[key](value)) == key


def test_a_verdict_number_is_never_printed_as_bare_nan() -> None:
    """Issue 15: a NaN facing printed as `NaN`, which is not JSON (RFC 8259)."""
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError, match="is not a JSON number"):
            json_number(value)
    assert json_number(8.00001) == 8


def test_check_refuses_a_nan_facing_naming_the_key_and_prints_no_nan(tmp_path: Path) -> None:
    """The command line reads Python's JSON, which accepts `NaN`: the engine refuses it."""
    scene = scene_with(lambda s: s["units"][0].__setitem__("facing", math.nan))
    scene["action"] = move([12, 10])
    path = tmp_path / "nan.json"
    path.write_text(json.dumps(scene))
    done = rules_cli("check", str(path))
    assert done.returncode == 2
    assert "units[0].facing: expected a finite number" in done.stderr
    assert "NaN" not in done.stdout and "Traceback" not in done.stderr


# -- the table and the box around it -------------------------------------------------------


def test_a_table_side_beyond_the_maximum_is_malformed() -> None:
    scene = scene_with(lambda s: s["table"].__setitem__("height", MAX_TABLE_SIDE + 1))
    assert malformed_key(scene) == "table.height"


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("units[0].position[1]", lambda s: s["units"][0].__setitem__("position", [10, 72.01])),
        ("units[0].position[0]", lambda s: s["units"][0].__setitem__("position", [-36.5, 10])),
        ("units[0].position[2]", lambda s: s["units"][0].__setitem__("position", [10, 10, 37])),
        ("terrain[0].polygon[2][0]", lambda s: s["terrain"][0]["polygon"][2].__setitem__(0, 1e300)),
        ("terrain[0].height", lambda s: s["terrain"][0].__setitem__("height", 1e9)),
    ],
)
def test_a_point_far_beyond_the_table_in_a_position_is_malformed(key: str, change: Any) -> None:
    """The box: the table grown by its longer side (36") all round; z and heights within
    36" up or down."""
    assert malformed_key(scene_with(change)) == key


def test_a_unit_aboard_keeps_no_position_to_bound() -> None:
    """A unit aboard is off the table and its position is ignored (scenario format)."""
    scene = scene_with(
        lambda s: s["units"].append(
            {
                "id": "P1",
                "side": "P1",
                "type": "infantry",
                "move": 4,
                "aboard": "M1",
                "base": {"shape": "circle", "diameter": 1},
                "position": [5000, 5000],
            }
        )
    )
    scene["units"][0]["capacity"] = 1
    assert state_from_json(scene).unit("P1") is not None


def test_a_path_point_far_beyond_the_table_is_malformed() -> None:
    """Issue 15: a path to 1e300 ran for minutes; it is refused before any work."""
    assert malformed_key(SCENE, move([1e300, 10])) == "action.path[0][0]"
    assert malformed_key(SCENE, move([12, 10], [12, -36.01])) == "action.path[1][1]"


def test_a_path_point_just_off_the_table_is_judged_off_table_not_malformed() -> None:
    """Leaving the table is a verdict (scenario format: `off_table`), inside the box."""
    verdict = validate(state_from_json(SCENE), move([10, -5]), dice=[6] * 4)
    assert not verdict.legal
    assert "off_table" in verdict.codes


# -- steps, turns and the length of a path --------------------------------------------------


def test_more_path_steps_than_the_cap_are_malformed() -> None:
    """Issue 15: 20,000 turn steps ran for minutes; the cap is the protocol's 64 steps."""
    assert malformed_key(SCENE, move(*[{"turn": 1}] * 20_000)) == "action.path"
    assert malformed_key(SCENE, move(*[{"turn": 1}] * (MAX_STEPS + 1))) == "action.path"


def test_a_path_of_exactly_the_cap_is_judged() -> None:
    path = [[10 + 0.05 * (i + 1), 10] for i in range(MAX_STEPS)]
    verdict = validate(state_from_json(SCENE), move(*path), dice=[6] * 4)
    assert verdict.legal
    assert verdict.cost == pytest.approx(3.2)


def test_a_turn_step_of_more_than_a_full_turn_is_malformed() -> None:
    """Issue 15: a turn of 1e9 degrees ran for minutes (a rect base's rotation is swept
    in 0.005" corner steps, AOD-D17)."""
    assert malformed_key(SCENE, move({"turn": 1e9})) == "action.path[0].turn"
    assert malformed_key(SCENE, move({"turn": -360.5})) == "action.path[0].turn"


def test_a_full_turn_is_judged() -> None:
    verdict = validate(state_from_json(SCENE), move({"turn": -360}, [12, 10]), dice=[6] * 4)
    assert verdict.legal


def test_a_rect_base_turning_more_than_the_cap_in_all_is_malformed() -> None:
    turns = [{"turn": 180}, {"turn": -180}, {"turn": 90}]
    assert sum(abs(t["turn"]) for t in turns) > MAX_TURNING
    assert malformed_key(SCENE, move(*turns)) == "action.path"


def test_a_circle_base_may_turn_more_than_the_cap_in_all() -> None:
    """A circle's rotation sweeps nothing: only its steps bound the work."""
    action = {"unit": "I1", "type": "move", "path": [{"turn": 360}, {"turn": -360}]}
    assert validate(state_from_json(SCENE), action, dice=[6] * 4).legal


def test_a_final_facing_counts_toward_the_turning_cap() -> None:
    """The final facing turns the short way (AOD-D21): 180 more degrees here."""
    turns = [{"turn": 90}, {"turn": 180}]
    assert validate(state_from_json(SCENE), move(*turns), dice=[6] * 4).legal
    assert malformed_key(SCENE, move(*turns, facing=90)) == "action.path"


def test_a_path_longer_than_the_table_width_plus_height_is_malformed() -> None:
    """No path a player can mean goes farther than corner to corner along two edges: 72"
    here, from the unit's own position on."""
    zigzag = [[30, 10], [2, 10], [30, 10]]  # 20 + 28 + 28 = 76"
    assert malformed_key(SCENE, move(*zigzag)) == "action.path"


def test_a_path_across_the_table_is_judged_not_malformed() -> None:
    verdict = validate(state_from_json(SCENE), move([34, 34]), dice=[6] * 4)
    assert "speed_exceeded" in verdict.codes


# -- formations: their members' paths count together -------------------------------------


def formation(*members: dict[str, Any]) -> dict[str, Any]:
    return {"unit": "I1", "type": "formation_move", "moves": list(members)}


def test_a_formations_member_steps_count_toward_the_cap_together() -> None:
    """Each member's path alone is within the cap; together they are not."""
    steps = [{"turn": 1}] * (MAX_STEPS // 2 + 1)
    action = formation({"unit": "I1", "path": steps}, {"unit": "I2", "path": steps})
    assert malformed_key(SCENE, action) == "action.moves[1].path"


def test_a_formation_member_whose_type_is_a_list_is_malformed() -> None:
    """Issue 15: `moves[].type` as a list crashed aod's parser with a TypeError whose
    text leaked to the player."""
    action = formation({"unit": "I1", "type": ["move"], "path": [[14, 15]]})
    assert malformed_key(SCENE, action) == "action.moves[0].type"


def test_a_formation_member_cannot_carry_a_formation() -> None:
    """A member carrying `moves` would nest formations without end (000 [29])."""
    inner = {"unit": "I2", "type": "formation_move", "moves": []}
    assert malformed_key(SCENE, formation(inner)) == "action.moves[0]"


def test_check_judges_an_action_beyond_the_bounds_as_malformed(tmp_path: Path) -> None:
    """The command line shares the bounds: the verdict is `malformed`, naming the key,
    and the next action is judged from the unchanged position."""
    scene = copy.deepcopy(SCENE)
    scene["actions"] = [move({"turn": 1e9}), move([12, 10], [1e300, 10]), move([12, 10])]
    path = tmp_path / "far.json"
    path.write_text(json.dumps(scene))
    done = rules_cli("check", str(path))
    turn, far, step = (json.loads(line) for line in done.stdout.splitlines())
    assert [turn["reasons"][0]["code"], far["reasons"][0]["code"]] == ["malformed"] * 2
    assert turn["reasons"][0]["message"].startswith("actions[0].path[0].turn: ")
    assert far["reasons"][0]["message"].startswith("actions[1].path[1][0]: ")
    assert step["legal"] is True


@pytest.mark.parametrize(
    "text",
    [
        '{"system": "aod", "table": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"system": "aod", "dice": [' + "9" * 5000 + "]}",
    ],
    ids=["nested_too_deeply", "integer_of_5000_digits"],
)
def test_check_reports_json_it_cannot_read_without_a_traceback(tmp_path: Path, text: str) -> None:
    """JSON nested deeper than Python's parser goes, or an integer longer than it reads,
    is reported as unreadable (exit 2), like any bad JSON."""
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "rules", "check", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "cannot read JSON" in done.stderr and "Traceback" not in done.stderr
