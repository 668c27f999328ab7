"""The board's event log words what the engine decided (static/js/board/panels/log.js),
run under Node: a standalone free turn is no "standard move (0.0 MP)" (MSW-D26)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ACTIONS_JS = Path(__file__).resolve().parents[2] / "static/js/board/actions.js"
LOG_JS = Path(__file__).resolve().parents[2] / "static/js/board/panels/log.js"


def logged(frame: dict[str, Any]) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node is needed to run the board's log module")
    script = (
        f"import {{ describe }} from {json.dumps(LOG_JS.as_uri())};\n"
        f"import {{ ActionChoice }} from {json.dumps(ACTIONS_JS.as_uri())};\n"
        # The board's own catalogue reader (actions.js), with one action and MP costs.
        "const catalogue = { actions: [{ type: 'standard_move', label: 'Standard Move' }],"
        " costSuffix: ' MP' };\n"
        "const board = { actions: new ActionChoice(catalogue, null) };\n"
        f"console.log(describe({json.dumps(frame)}, (id) => id, board));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout.strip()


def act(events: list[dict[str, Any]], cost: float) -> dict[str, Any]:
    return {
        "kind": "act",
        "actor": "P1",
        "action": {"unit": "W1", "type": "standard_move"},
        "verdict": {"legal": True, "cost": cost, "events": events},
    }


def test_a_free_turn_is_logged_as_a_turn_in_place_and_a_move_with_its_cost() -> None:
    moved = {"type": "moved", "unit": "W1", "to": [10, 10], "facing": 90}
    assert logged(act([{**moved, "free_turn": True}], 0)) == "P1: W1 turned in place (free turn)"
    assert logged(act([moved], 2)) == "P1: W1 standard move (2.0 MP)"
