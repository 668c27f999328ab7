"""`python -m rules reach|alternative FILE`: one JSON line per action, for the position
before it (scenario-format.md, "Other commands")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shapely.geometry import Point, shape

from tests.rules.cli_run import rules_cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
DIAGONAL = (
    GOLDEN
    / "mswars"
    / "05_a_diagonal_drag_is_refused_and_the_same_end_with_the_free_turn_first_is_legal.json"
)
CARRIER = (
    GOLDEN
    / "lasergrenadiers"
    / "04_a_carrier_in_base_contact_with_its_troopers_drives_straight_ahead.json"
)


def ask(question: str, path: Path) -> list[dict[str, Any]]:
    done = rules_cli(question, str(path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_reach_of_a_carrier_touching_its_troopers_covers_its_move_straight_ahead() -> None:
    # lasergrenadiers.md 4: it may not turn into them, but drives straight off (issue 20).
    [answer] = ask("reach", CARRIER)
    assert answer["unit"] == "C1" and answer["type"] == "move" and answer["complete"]
    area = shape(answer["area"])
    assert area.area > 0 and area.distance(Point(23.5, 18.0)) < 0.1


def test_reach_shades_the_diagonal_end_the_turn_first_makes_legal() -> None:
    # MSW-D5, MSW-D7: the free turn is part of the proposal, so the end is shaded.
    first, second = ask("reach", DIAGONAL)
    assert shape(first["area"]).distance(Point(14, 14)) < 0.1
    assert second["type"] == "standard_move"


def test_alternative_to_a_diagonal_drag_is_the_same_end_with_the_turn() -> None:
    refused, legal = ask("alternative", DIAGONAL)
    assert refused["legal"] is False
    offer = refused["alternative"]
    assert offer["action"]["path"] == [{"turn": 45.0}, [14.0, 14.0]]
    assert offer["end"] == [14.0, 14.0] and offer["off_by"] == 0.0
    assert legal == {"legal": True, "alternative": None}


def test_alternative_over_the_whole_golden_set_never_fails() -> None:
    done = rules_cli("alternative", str(GOLDEN / "mswars"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert all(
        "alternative" in json.loads(line) or "error" in json.loads(line)
        for line in done.stdout.splitlines()
    )
