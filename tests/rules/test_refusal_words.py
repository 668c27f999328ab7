"""Refusals in a player's words (issue 20, ui.md "What the player reads"): the message says
what is wrong with no citation in it; the rule's name and its citation travel beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules import load_scenario, state_from_json, validate
from rules.engine.rule_names import section_of
from rules.referee.check import run_scenario

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.rglob("*.json"))
#: A seed reference ("000 [33]", "003 Turning 3") or a decision id ("AOD-D14").
CITATION = re.compile(r"\b\d{3} (\[|[A-Z])|\b[A-Z]{2,3}-D\d+")
#: Reasons that break no rule of the game (contract): no rule's name is owed.
NOT_RULES = ("malformed", "unknown_unit")


def reasons_of(path: Path) -> list[dict[str, object]]:
    scenario = load_scenario(json.loads(path.read_text()))
    return [
        r.to_json()
        for o in run_scenario(scenario)
        if o.verdict is not None
        for r in o.verdict.reasons
    ]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_every_golden_refusal_reads_message_first_and_names_its_rule(path: Path) -> None:
    for reason in reasons_of(path):
        message = str(reason["message"])
        assert not CITATION.search(message), message
        if reason["code"] in NOT_RULES:
            continue
        assert reason.get("cite"), reason
        assert str(reason.get("rule", "")).endswith(" rules"), reason


def test_a_seed_section_names_the_rule_and_a_page_does_not() -> None:
    assert section_of("003 Turning 3") == "Turning"
    assert section_of("003 Terrain 10b") == "Terrain"
    assert section_of("002 Rules: Movement") == "Movement"
    assert section_of("000 [33]") is None
    assert section_of("AOD-D14") is None


def jetpack_turning_back() -> dict[str, object]:
    """A jetpack squad (rate 24) that turns about and goes 2": turning is charged from the
    allowance (003 Turning 3), so the turn, not the line, is what it cannot pay."""
    return {
        "system": "lasergrenadiers",
        "table": {"width": 48, "height": 48},
        "terrain": [],
        "units": [
            {
                "id": "J1",
                "name": "Jetpack squad",
                "side": "P1",
                "type": "jetpack",
                "move": 24,
                "base": {"shape": "circle", "diameter": 1},
                "position": [20, 20],
                "facing": 0,
            }
        ],
        "state": {"moved": {"J1": 20}},
    }


def test_a_refused_move_says_how_much_of_the_cost_is_turning() -> None:
    state = state_from_json(jetpack_turning_back())
    verdict = validate(state, {"unit": "J1", "type": "move", "path": [{"turn": 180}, [18, 20]]})
    [reason] = verdict.reasons
    assert reason.code == "speed_exceeded"
    turned = re.fullmatch(
        r"Jetpack squad needs ([\d.]+)\": ([\d.]+)\" of path and "
        r"([\d.]+)\" to turn 180°; it has 4\" left of 24\" this turn",
        reason.message,
    )
    assert turned, reason.message
    total, path, turning = (float(g) for g in turned.groups())
    assert path == pytest.approx(2.0, abs=0.05)
    assert turning > path
    assert total == pytest.approx(verdict.cost, abs=0.05)
    assert reason.rule == "Turning, LaserGrenadiers rules"
    assert reason.cite == "003 Turning 3"


def test_a_refused_straight_move_is_not_split() -> None:
    state = state_from_json(jetpack_turning_back())
    verdict = validate(state, {"unit": "J1", "type": "move", "path": [[26, 20]]})
    [reason] = verdict.reasons
    assert reason.message == 'Jetpack squad needs 6" but has 4" left of 24" this turn'


def two_sides(system: str, actor: dict[str, object], other: dict[str, object]) -> dict:
    return {
        "system": system,
        "table": {"width": 36, "height": 36},
        "terrain": [],
        "units": [
            {
                "id": "A1",
                "side": "P1",
                "base": {"shape": "circle", "diameter": 1.5},
                "position": [10, 10],
                "facing": 0,
                **actor,
            },
            {
                "id": "B1",
                "side": "P2",
                "base": {"shape": "circle", "diameter": 1.5},
                "position": [20, 10],
                "facing": 180,
                **other,
            },
        ],
    }


#: Actions that name another piece, sent without it, as a board that lost the pick would.
WITHOUT_THEIR_PIECE = [
    # 002 Charge Move Action: a charge is at an opposing unit.
    (
        two_sides(
            "mswars",
            {"type": "walker", "move": 8, "size_class": 2},
            {"type": "walker", "move": 8, "size_class": 2},
        ),
        {"unit": "A1", "type": "charge", "path": [[18, 10]]},
    ),
    # 002 Enter Unit: the unit enters a named carrier.
    (
        two_sides(
            "mswars",
            {"type": "walker", "move": 8, "size_class": 2, "infantry": True},
            {"type": "walker", "move": 8, "size_class": 2},
        ),
        {"unit": "A1", "type": "enter_unit"},
    ),
    # 003 Overrun: a vehicle runs over a named piece.
    (
        two_sides("lasergrenadiers", {"type": "tracked", "move": 12}, {"type": "foot", "move": 4}),
        {"unit": "A1", "type": "overrun", "path": [[22, 10]]},
    ),
    # 001 [26]: a capture names its target.
    (
        two_sides("aod", {"type": "infantry", "move": 6}, {"type": "mech", "move": 8}),
        {"unit": "A1", "type": "capture"},
    ),
    # 001 [27-28]: a charge names its target.
    (
        two_sides("aod", {"type": "mech", "move": 8}, {"type": "mech", "move": 8}),
        {"unit": "A1", "type": "charge", "path": [[18.25, 10]]},
    ),
]


@pytest.mark.parametrize(
    ("position", "action"),
    WITHOUT_THEIR_PIECE,
    ids=[f"{p['system']}-{a['type']}" for p, a in WITHOUT_THEIR_PIECE],
)
def test_an_action_missing_the_piece_it_names_is_refused_in_words_not_none(
    position: dict, action: dict
) -> None:
    verdict = validate(state_from_json(position), action)
    assert not verdict.legal
    for reason in verdict.reasons:
        # Neither Python's None nor a quoted id ('B1'): what the player reads is words.
        assert not re.search(r"\bNone\b|'\w+'", reason.message), reason.message
