"""The public facade the web server uses (docs/rules-engine.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import (
    SYSTEMS,
    InvalidActionError,
    action_from_json,
    get_system,
    load_scenario,
    reach,
    scenario_to_json,
    state_from_json,
    state_to_json,
    validate,
)
from tests.rules.scenes import scene, square, unit

GOLDEN = Path(__file__).parent / "golden" / "aod"


def test_aod_is_registered_with_its_unit_schema() -> None:
    assert "aod" in SYSTEMS
    schema = get_system("aod").unit_schema()
    assert schema["system"] == "aod"
    assert "mech" in schema["properties"]["type"]["enum"]
    assert schema["properties"]["capacity"]["type"] == "integer"


def test_an_unknown_system_is_malformed_naming_the_key() -> None:
    with pytest.raises(InvalidActionError) as err:
        state_from_json({"system": "chess", "table": {"width": 8, "height": 8}})
    assert err.value.key == "system"


def test_a_legal_move_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    s = scene([unit("M1", move=8, position=(10, 10))])
    v = validate(s, {"unit": "M1", "type": "move", "path": [[14, 10]], "facing": 90})
    assert v.legal and v.cost == 4 and v.allowance == 8
    assert v.state_after.unit("M1").position == (14.0, 10.0)
    assert v.state_after.unit("M1").facing == 90
    assert s.unit("M1").position == (10.0, 10.0)
    assert v.to_json()["events"][0]["type"] == "moved"


def test_an_illegal_move_returns_the_unchanged_state_and_located_reasons() -> None:
    s = scene([unit("M1", move=3, position=(10, 10))])
    v = validate(s, {"unit": "M1", "type": "move", "path": [[14, 10]]})
    assert not v.legal and v.state_after is s
    reason = v.to_json()["reasons"][0]
    assert reason["code"] == "speed_exceeded"
    assert reason["at"] == [13, 10]
    assert reason["cite"]


def test_malformed_actions_raise_invalid_action_error_naming_the_key() -> None:
    with pytest.raises(InvalidActionError) as err:
        action_from_json({"unit": "M1", "type": "move", "path": [[1, "x"]]})
    assert err.value.key == "action.path[0][1]"


def test_state_json_round_trips() -> None:
    s = scene(
        [unit("M1", jump_jets=True), unit("T", type="tracked", capacity=2, position=(20, 20))],
        [square("H1", "hindering", 1, 1, 3, 3)],
        state={"orders_used": 1},
        options={"run_multiplier": 1.5},
    )
    assert state_to_json(state_from_json(state_to_json(s))) == state_to_json(s)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json"))[:40], ids=lambda p: p.name)
def test_golden_scenarios_survive_writing_and_reading(path: Path) -> None:
    raw = json.loads(path.read_text())
    again = scenario_to_json(load_scenario(raw))
    assert scenario_to_json(load_scenario(again)) == again


def test_terrain_matrix_option_changes_what_a_unit_may_enter() -> None:
    """AOD-D1: the matrix is data; a GM may let 'Mechs wade deep water (hindering)."""
    units = [unit("M1", move=8, position=(5, 10))]
    water = [square("D1", "deep_water", 8, 5, 12, 15)]
    assert validate(
        scene(units, water), {"unit": "M1", "type": "move", "path": [[10, 10]]}
    ).codes == ["prohibited_terrain"]
    wading = scene(units, water, options={"terrain_matrix": {"mech": {"deep_water": "hind"}}})
    assert (
        "must_stop_hindering"
        in validate(wading, {"unit": "M1", "type": "move", "path": [[10, 10]]}).codes
    )


def test_unknown_table_option_is_malformed() -> None:
    with pytest.raises(InvalidActionError) as err:
        scene([unit("M1")], options={"fog": True})
    assert err.value.key == "table.options.fog"


def test_reach_area_contains_reachable_points_and_gives_legal_paths() -> None:
    s = scene(
        [unit("M1", move=14, position=(10, 10), diameter=1.5)],
        [square("B1", "blocking", 12, 6, 13, 14)],
    )
    r = reach(s, "M1")
    assert r.allowance == 14
    assert r.contains((8, 10)) and not r.contains((20, 10)) and not r.contains((30, 10))
    assert not r.contains((12.5, 10))  # inside the blocking feature
    path = r.path_to((14.5, 10))  # behind the wall: around it
    assert path is not None and len(path) > 2
    v = validate(s, {"unit": "M1", "type": "move", "path": [list(p) for p in path[1:]]})
    assert v.legal, v.reasons


def test_random_dice_are_reported_in_the_verdict() -> None:
    """Without forced dice the engine rolls with `secrets` and reports the roll."""
    s = scene([unit("M1", position=(10, 10)), unit("E", side="P2", position=(11, 10))])
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]})
    assert len(v.rolls) == 1 and v.rolls[0].what == "breakaway"
    assert 1 <= v.rolls[0].result <= 6


def test_changed_says_when_state_after_must_be_stored() -> None:
    """Legal verdicts and the failed breakaway (AOD-D23) change the game; others do not."""
    s = scene([unit("M1", move=6, position=(10, 10)), unit("E", side="P2", position=(11, 10))])
    failed = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]}, dice=[1])
    assert not failed.legal and failed.changed
    moved = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]}, dice=[6])
    assert moved.legal and moved.changed
    refused = validate(s, {"unit": "M1", "type": "move", "path": [[10, 30]]})
    assert not refused.legal and not refused.changed


def test_reach_lets_a_mech_cross_infantry_but_not_end_on_it() -> None:
    """'Mech paths may cross infantry bases (000 [17], AOD-D7), not end on them."""
    wall = [
        unit(f"I{y}", side="P2", type="infantry", move=4, position=(12, y), diameter=1.0)
        for y in range(4, 17)
    ]
    s = scene([unit("M1", move=6, position=(10, 10), diameter=1.0), *wall])
    r = reach(s, "M1")
    assert r.contains((14, 10)) and not r.contains((12, 10))
    path = r.path_to((14, 10))
    assert path is not None and len(path) == 2  # straight through the infantry line
    assert validate(s, {"unit": "M1", "type": "move", "path": [list(path[-1])]}).legal
