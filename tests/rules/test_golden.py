"""Golden scenarios (tests/rules/golden/<system>/*.json), run with the same code as
`python -m rules check --expect`, like python-chess's perft files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import load_scenario, state_from_json, state_to_json
from rules.referee.check import run_scenario

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_golden_scenario_gives_the_expected_verdicts(path: Path) -> None:
    scenario = load_scenario(json.loads(path.read_text()))
    mismatches = [f"action {o.index}: {m}" for o in run_scenario(scenario) for m in o.mismatches]
    assert not mismatches, "\n".join(mismatches)


def test_there_are_golden_files_for_aod() -> None:
    assert len(list((GOLDEN / "aod").glob("*.json"))) >= 80


def test_cli_check_expect_passes_on_the_aod_golden_folder() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "check", "--expect", str(GOLDEN / "aod")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines and all("legal" in line for line in lines)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_a_position_after_an_action_reads_back_as_the_same_position(path: Path) -> None:
    """The table stores `state_to_json(verdict.state_after)` and keeps the engine's own
    state_after as the parsed position of the next sequence number; both must agree."""
    scenario = load_scenario(json.loads(path.read_text()))
    for outcome in run_scenario(scenario):
        after = outcome.verdict.state_after if outcome.verdict else None
        if after is not None:
            assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after
