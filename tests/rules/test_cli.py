"""`python -m rules check`: one verdict line per action; exit 1 on mismatch, 2 on malformed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.rules.cli_run import rules_cli

ROOT = Path(__file__).resolve().parents[2]

SCENE: dict[str, Any] = {
    "system": "aod",
    "table": {"width": 36, "height": 36},
    "terrain": [
        {"id": "H1", "type": "hindering", "polygon": [[10.5, 8], [14, 8], [14, 12], [10.5, 12]]}
    ],
    "units": [
        {
            "id": "M1",
            "side": "P1",
            "type": "mech",
            "move": 7,
            "base": {"shape": "circle", "diameter": 1.75},
            "position": [10, 10],
            "facing": 180,
        }
    ],
    "action": {"unit": "M1", "type": "move", "path": [[5.5, 10]]},
    "expect": {"legal": False, "reason": "half_speed_exceeded"},
}


def run(tmp_path: Path, scene: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "scene.json"
    f.write_text(json.dumps(scene))
    return rules_cli("check", *args, str(f))


def test_check_prints_one_verdict_per_action(tmp_path: Path) -> None:
    scene = {k: v for k, v in SCENE.items() if k not in ("action", "expect")}
    scene["actions"] = [SCENE["action"], {"unit": "M1", "type": "move", "path": [[6.5, 10]]}]
    done = run(tmp_path, scene)
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert [v["legal"] for v in verdicts] == [False, True]
    assert verdicts[0]["reasons"][0]["code"] == "half_speed_exceeded"


def test_check_expect_exits_0_when_the_verdict_matches(tmp_path: Path) -> None:
    assert run(tmp_path, SCENE, "--expect").returncode == 0


def test_check_expect_exits_1_and_says_what_differed(tmp_path: Path) -> None:
    scene = dict(SCENE, expect={"legal": True})
    done = run(tmp_path, scene, "--expect")
    assert done.returncode == 1
    assert "action 0" in done.stderr and "legal" in done.stderr


def test_unknown_top_level_key_exits_2_naming_it(tmp_path: Path) -> None:
    done = run(tmp_path, dict(SCENE, colour="red"), "--expect")
    assert done.returncode == 2
    assert "colour" in done.stderr


def test_unknown_expect_key_exits_2_naming_it(tmp_path: Path) -> None:
    """scenario-format.md, EXPECT: "Unknown EXPECT keys are an error, so that a typo never
    passes silently" (a misspelt `cost` would otherwise compare nothing and pass)."""
    typo = dict(SCENE, expect={"legal": False, "reason": "half_speed_exceeded", "costt": 99})
    done = run(tmp_path, typo, "--expect")
    assert done.returncode == 2
    assert "expect.costt" in done.stderr and done.stdout == ""
    listed = {k: v for k, v in SCENE.items() if k not in ("action", "expect")}
    listed["actions"] = [SCENE["action"], SCENE["action"]]
    listed["expect"] = [{"legal": False}, {"legal": False, "speed_bnd": "fast"}]
    done = run(tmp_path, listed, "--expect")
    assert done.returncode == 2 and "expect[1].speed_bnd" in done.stderr


def test_a_verdict_note_of_another_system_is_an_unknown_expect_key(tmp_path: Path) -> None:
    """scenario-format.md, EXPECT: `speed_band` is lasergrenadiers' (its golden files
    compare it); in an aod file it could only pass unchecked, so it is refused."""
    scene = dict(SCENE, expect={"legal": False, "speed_band": "fast"})
    done = run(tmp_path, scene, "--expect")
    assert done.returncode == 2 and "expect.speed_band" in done.stderr


def test_malformed_unit_exits_2_naming_the_key(tmp_path: Path) -> None:
    units = [dict(SCENE["units"][0], base={"shape": "circle", "diameter": "big"})]
    done = run(tmp_path, dict(SCENE, units=units))
    assert done.returncode == 2
    assert "units[0].base.diameter" in done.stderr


def test_malformed_action_is_refused_with_code_malformed_naming_the_key(tmp_path: Path) -> None:
    """The position is fine, the action is not: its verdict says `malformed` (contract)."""
    action = {"unit": "M1", "type": "move", "path": [[5.5, 10], {"spin": 90}]}
    done = run(
        tmp_path,
        dict(SCENE, action=action, expect={"legal": False, "reason": "malformed"}),
        "--expect",
    )
    verdict = json.loads(done.stdout)
    assert done.returncode == 0
    assert verdict["reasons"][0]["code"] == "malformed"
    assert "action.path[1]" in verdict["reasons"][0]["message"]


def test_exhausted_forced_dice_is_an_error_not_a_random_roll(tmp_path: Path) -> None:
    """`"dice": []` states that no roll may happen (contract)."""
    units = SCENE["units"] + [
        {
            "id": "X",
            "side": "P2",
            "type": "mech",
            "move": 5,
            "base": {"shape": "circle", "diameter": 1.75},
            "position": [10, 11.75],
            "facing": 0,
        }
    ]
    scene = {k: v for k, v in SCENE.items() if k != "expect"}
    scene.update(
        units=units, terrain=[], dice=[], action={"unit": "M1", "type": "move", "path": [[10, 5]]}
    )
    done = run(tmp_path, scene)
    assert done.returncode == 2
    assert "dice_exhausted" in done.stdout + done.stderr
