"""What the board offers an mswars unit now (the action bar and the unit card): only the move
actions whose preconditions it meets (mswars.md sections 4-7), by the engine's own checks."""

from __future__ import annotations

from typing import Any

import pytest

from rules import state_from_json, validate
from rules.referee.offers import available_actions
from tests.rules.mswars.build import area, mech, position

BUILDING = area("B", "elevated", 12, 5, 20, 15, height=3)  # SC 2
P1_TO_ACT = {"turn": 1, "phase": 1, "active_side": "P1", "sides": ["P1", "P2"]}


def offered(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    unit: str = "M1",
    turn: dict[str, Any] | None = None,
) -> set[str]:
    found = available_actions(position(units, terrain, state), unit, turn)
    return {spec.type for spec in found}


def test_a_track_in_the_open_is_offered_a_standard_move_and_a_run_and_nothing_else() -> None:
    """No elevated feature, no carrier, no contact, no skill: Climb, Jump, Unit Exiting,
    Carrier Unloading, Break Away and Manoeuvre have nothing to work on (002 Move Actions)."""
    assert offered([mech(type="track")]) == {"standard_move", "run"}


def test_in_base_contact_with_an_opposing_unit_only_break_away_and_the_free_turn() -> None:
    """002 Move Actions: in contact only Break Away or Manoeuvre; a walker's free turn stays
    open (002 Turning, MSW-D26), sent as a standard move."""
    foe = mech("E", side="P2", position=(11, 10), facing=180)
    assert offered([mech(), foe]) == {"break_away", "standard_move"}
    assert offered([mech(type="track"), foe]) == {"break_away"}
    skilled = mech(skills=["combat_manoeuvres"])
    assert offered([skilled, foe]) == {"break_away", "manoeuvre", "standard_move"}


def test_manoeuvre_needs_the_combat_manoeuvres_skill() -> None:
    """002 Manoeuvre Action; out of contact it is legal too (MSW-D47)."""
    assert "manoeuvre" not in offered([mech()])
    assert "manoeuvre" in offered([mech(skills=["combat_manoeuvres"])])


@pytest.mark.parametrize(
    "unit,climbs",
    [
        (mech(size_class=1, free_hands=True, position=(11.5, 10)), True),
        (mech(size_class=1, free_hands=True, position=(11.5, 10), infantry=True), True),
        (mech(size_class=1, free_hands=True, position=(11.5, 10), type="track"), False),
        (mech(size_class=1, free_hands=False, position=(11.5, 10)), False),
        (mech(size_class=1, free_hands=True, used_weapon=True, position=(11.5, 10)), False),
        (mech(size_class=1, free_hands=True, position=(8, 10)), False),  # not next to it
    ],
)
def test_climb_is_offered_to_a_mecha_or_infantry_with_free_hands_next_to_elevated_terrain(
    unit: dict[str, Any], climbs: bool
) -> None:
    """002 Climb Action, MSW-D23: walker, 4LW or infantry, two free hands, no weapon used,
    in base contact with (and facing) an elevated feature it may climb."""
    assert ("climb" in offered([unit], [BUILDING])) == climbs


def test_jump_is_offered_only_on_top_of_elevated_terrain() -> None:
    """002 Jump Action: the unit starts on top of an elevated feature."""
    assert "jump" in offered([mech(size_class=2, position=(13, 10))], [BUILDING])
    assert "jump" not in offered([mech(size_class=2, position=(10, 10))], [BUILDING])


def test_enter_unit_is_offered_near_a_friendly_carrier_with_room() -> None:
    """002 Enter Unit, MSW-D17, MSW-D38: a friendly carrier with room, within half Move."""
    infantry = mech("I1", infantry=True, move=4, position=(10, 10))
    carrier = mech("C1", type="track", carrier=1, position=(12, 10))
    assert "enter_unit" in offered([infantry, carrier], unit="I1")
    assert "enter_unit" not in offered([infantry, dict(carrier, position=[20, 10])], unit="I1")
    assert "enter_unit" not in offered([infantry, dict(carrier, side="P2")], unit="I1")
    full = [infantry, carrier, mech("I2", infantry=True, aboard="C1")]
    assert "enter_unit" not in offered(full, unit="I1")


def test_carrier_unloading_only_with_units_aboard_and_unit_exiting_only_aboard() -> None:
    """002 Carrier Unloading Action, 002 Unit Exiting Action."""
    carrier = mech("C1", type="track", carrier=2, position=(12, 10))
    rider = mech("I1", infantry=True, aboard="C1", position=(12, 10))
    assert "carrier_unloading" not in offered([carrier], unit="C1")
    assert "carrier_unloading" in offered([carrier, rider], unit="C1")
    assert offered([carrier, rider], unit="I1") == {"unit_exiting"}
    assert "unit_exiting" not in offered([carrier, rider], unit="C1")


def test_a_static_unit_is_offered_nothing_that_moves() -> None:
    """002 Turning: static units never move or turn; a static carrier may still unload
    without moving (MSW-D48)."""
    assert offered([mech(type="static")]) == set()
    carrier = mech(type="static", carrier=1)
    assert offered([carrier, mech("I1", infantry=True, aboard="M1")]) == {"carrier_unloading"}


def test_a_fallen_unit_is_offered_only_the_straightening_move() -> None:
    """002 Falling, MSW-D46: a unit that fell this turn does nothing; next turn its one move
    action is the straightening Standard Move."""
    assert offered([mech(fallen="this_turn")]) == set()
    assert offered([mech(fallen="straighten", type="track")]) == {"standard_move"}


def test_with_no_move_action_left_only_the_standalone_free_turn() -> None:
    """002 Rules: Movement: one move action a phase; the free turn stays (MSW-D26) and goes
    once it is used (MSW-D7)."""
    moved = {"actions_taken": {"M1": [{"phase": 1, "type": "standard_move"}]}}
    assert offered([mech()], state=moved) == {"standard_move"}
    assert offered([mech(type="track")], state=moved) == set()
    turned = {**moved, "free_turn_used": {"M1": True}}
    assert offered([mech()], state=turned) == set()
    assert offered([mech(action_points=0)], state={"action_points": {"M1": 0}}) == {"standard_move"}


def test_run_and_charge_are_not_offered_where_the_phase_rules_forbid_them() -> None:
    """002 Move Actions: Run: a phase-2 run only if the unit made no move action in phase 1;
    after a phase-1 run, no move action in phase 2."""
    foe = mech("E", side="P2", position=(15, 10), facing=180)
    assert {"run", "charge"} <= offered([mech(), foe], state={"phase": 1})
    walked = {"phase": 2, "actions_taken": {"M1": [{"phase": 1, "type": "standard_move"}]}}
    assert not {"run", "charge"} & offered([mech(), foe], state=walked)
    assert "standard_move" in offered([mech(type="track"), foe], state=walked)
    ran = {"phase": 2, "actions_taken": {"M1": [{"phase": 1, "type": "run"}]}}
    assert offered([mech(type="track"), foe], state=ran) == set()


def test_charge_needs_an_opposing_unit_within_twice_move() -> None:
    """002 Charge Move Action: it must end in base contact with an opposing target."""
    assert "charge" not in offered([mech()])
    assert "charge" in offered([mech(), mech("E", side="P2", position=(20, 10))])
    assert "charge" not in offered([mech(), mech("F", side="P1", position=(20, 10))])


def test_a_side_not_to_act_is_offered_nothing() -> None:
    """MSW-D40: sides act in turn within each phase."""
    assert offered([mech(side="P2")], turn=P1_TO_ACT) == set()
    assert offered([mech()], turn=P1_TO_ACT) == {"standard_move", "run"}


def test_every_offered_path_free_action_of_a_standing_unit_is_one_the_engine_accepts() -> None:
    """What the board offers and what the engine judges agree: an offered Climb, unloading
    or free turn passes validate."""
    units = [mech(size_class=1, free_hands=True, position=(11.5, 10))]
    state = state_from_json(position(units, [BUILDING]))
    assert "climb" in offered(units, [BUILDING])
    assert validate(state, {"unit": "M1", "type": "climb"}).legal
