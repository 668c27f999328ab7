"""A system's own notes on a verdict (issue 24: "the speed band is a LaserGrenadiers note,
not a Verdict field"): declared in its catalogue (`System.verdict_notes`), carried in
`Verdict.notes`, written beside the shared fields (scenario-format.md, lasergrenadiers:
"verdict adds `speed_band`") and compared where an EXPECT names them."""

from dataclasses import fields

import pytest

from rules import SYSTEMS, Verdict, action_from_json, get_system, validate
from rules.engine.catalogue import VerdictNote
from rules.referee.check import compare
from tests.rules.scenes import scene, unit


def grav_tank_moves(inches: float) -> Verdict:
    state = scene(
        [unit("T1", type="grav", move=36, diameter=2, position=(10, 10))],
        width=48,
        height=48,
        system="lasergrenadiers",
    )
    raw = {"unit": "T1", "type": "move", "path": [[10 + inches, 10]]}
    return validate(state, action_from_json(raw, state))


def test_the_shared_verdict_has_no_field_of_one_system() -> None:
    assert "speed_band" not in {f.name for f in fields(Verdict)}


def test_lasergrenadiers_declares_the_speed_band_and_no_other_seed_system_a_note() -> None:
    declared = {key: [n.key for n in s.verdict_notes] for key, s in SYSTEMS.items()}
    assert declared["lasergrenadiers"] == ["speed_band"]
    assert all(not declared[key] for key in ("aod", "apskirmish", "mswars"))


def test_a_lasergrenadiers_verdict_says_its_speed_band_beside_the_shared_fields() -> None:
    # 003 Movement and fire 1-2: 30" of a 36" rate is over two thirds, fast (lasergrenadiers.md 8).
    verdict = grav_tank_moves(30)
    assert verdict.notes == {"speed_band": "fast"}
    said = verdict.to_json()
    assert said["speed_band"] == "fast"
    assert [c["kind"] for c in said["consequences"]] == ["speed_band"]


def test_a_verdict_of_a_system_with_no_notes_says_none() -> None:
    state = scene([unit("M1", move=8, position=(10, 10))], state={"orders_available": 3})
    verdict = validate(state, {"unit": "M1", "type": "move", "path": [[14, 10]]})
    assert verdict.legal and dict(verdict.notes) == {}
    assert "speed_band" not in verdict.to_json()


def test_an_expected_note_is_compared_and_a_wrong_one_reported() -> None:
    verdict = grav_tank_moves(6)  # 6" of 36": slow
    notes = tuple(n.key for n in get_system("lasergrenadiers").verdict_notes)
    assert compare(verdict, {"legal": True, "speed_band": "slow"}, "T1", notes) == []
    assert compare(verdict, {"speed_band": "fast"}, "T1", notes) == [
        "speed_band: expected 'fast', got 'slow'"
    ]


def test_a_note_may_not_take_the_name_of_a_shared_field() -> None:
    with pytest.raises(ValueError, match="cost"):
        VerdictNote("cost", "Cost")
