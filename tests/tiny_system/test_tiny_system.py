"""A system installed as a third party's would be (site/: its package and its entry point in
`rules.systems`), named nowhere outside this folder: the engine and the CLI play it (the
live table: test_live_table.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from tests.tiny_system.conftest import HERE, SCENARIO, SITE


def lines_of(paths: list[Path]) -> int:
    return sum(len(p.read_text().splitlines()) for p in paths)


def test_its_size_in_lines() -> None:
    """The issue's 150 lines are the system's: its package, its entry point and its
    scenario. Its tests (the engine, the CLI, the live table: more than 150 lines with
    the system) are counted beside it."""
    files = [p for p in HERE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    system = [p for p in files if SITE in p.parents or p == SCENARIO]
    print(f"\nthe tiny system: {lines_of(system)} lines in {len(system)} files")
    print(f"the tiny system and its tests: {lines_of(files)} lines in {len(files)} files")
    assert lines_of(system) <= 150


def test_the_registry_does_not_know_it_until_it_is_installed() -> None:
    assert "tinyskirmish" not in rules.SYSTEMS
    with pytest.raises(rules.InvalidActionError, match="unknown system 'tinyskirmish'"):
        rules.state_from_json(json.loads(SCENARIO.read_text()))


def test_the_engine_judges_its_moves(installed: rules.System) -> None:
    assert rules.get_system("tinyskirmish") is installed
    state = rules.state_from_json(json.loads(SCENARIO.read_text()))
    through_woods = rules.validate(state, {"unit": "S1", "type": "move", "path": [[6, 12]]})
    assert through_woods.legal and through_woods.cost == 6
    assert rules.state_to_json(through_woods.state_after)["units"][0]["position"] == [6, 12]
    too_far = rules.validate(state, {"unit": "S1", "type": "move", "path": [[2, 22]]})
    assert not too_far.legal
    assert too_far.reasons[0].message == 'S1 needs 10" but has 8"'


def test_the_kernel_shades_its_reach_from_its_tables(installed: rules.System) -> None:
    # TS 1-2 (the scenario's rules): 8" at 1" an inch in the open, 2" in woods, never in
    # lava; the kernel's reach template asks the system for nothing but its tables.
    state = rules.state_from_json(json.loads(SCENARIO.read_text()))
    reach = installed.reach(state, "S1", "move")
    assert reach.complete and reach.allowance == 8
    assert reach.contains((5.5, 12)) and reach.contains((2, 18))
    assert not reach.contains((10, 12)) and not reach.contains((6, 20))
    for end in [(5.5, 12), (2, 18), (1, 5), (6.5, 12.5)]:
        path = reach.path_to(end)
        assert path is not None
        steps = [list(s) if isinstance(s, tuple) else s for s in path[1:]]
        assert rules.validate(state, {"unit": "S1", "type": "move", "path": steps}).legal


def test_the_command_line_plays_its_scenario() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SITE), *sys.path])}
    command = [sys.executable, "-m", "rules", "check", "--expect", str(SCENARIO)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [v["legal"] for v in verdicts] == [True, False, False]
    assert verdicts[1]["reasons"][0]["message"] == "S1 cannot be in L1 (lava)"
