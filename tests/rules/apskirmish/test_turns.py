"""Rounds and activations (apskirmish.md 6b, APS-D22, APS-D23): the turn structure the
live table runs."""

from __future__ import annotations

from typing import Any

from rules import SYSTEMS, state_from_json
from tests.rules.apskirmish.build import soldier

TURNS = SYSTEMS["apskirmish"].turn_structure


def position(*units: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "system": "apskirmish",
        "table": {"width": 24, "height": 24, "options": options or {}},
        "terrain": [],
        "units": list(units),
        "state": {},
    }


def two_a_side() -> dict[str, Any]:
    return position(
        soldier("A1", name="Kell", ap_max=4),
        soldier("A2", (12, 10)),
        soldier("B1", (10, 20), side="P2"),
        soldier("B2", (12, 20), side="P2"),
    )


def unit(pos: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in pos["units"] if u["id"] == uid)


def test_the_battle_begins_in_round_1_with_every_soldiers_ap() -> None:
    """APS-D22: `ap_max` from the roster, else `ap_per_round`, else 3."""
    turn, pos = TURNS.begin(["P1", "P2"], two_a_side())
    assert turn["turn"] == 1 and turn["active_side"] == "P1"
    assert unit(pos, "A1")["ap"] == 4 and unit(pos, "A2")["ap"] == 3
    assert all(u["activated"] is False for u in pos["units"])
    _, other = TURNS.begin(["P1", "P2"], position(soldier("A1"), options={"ap_per_round": 5}))
    assert unit(other, "A1")["ap"] == 5


def test_the_header_shows_the_round_the_side_and_the_active_soldiers_ap() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], two_a_side())
    assert (
        TURNS.summary(turn, state_from_json(pos)) == "Round 1 · P1 to act · 2 soldiers to activate"
    )
    turn = TURNS.acted(turn, pos, {"unit": "A1", "type": "move"})
    unit(pos, "A1").update(ap=2, activated=True)
    assert TURNS.summary(turn, state_from_json(pos)) == "Round 1 · P1 to act · Kell: 2 AP left"


def test_during_an_activation_only_its_soldier_acts_but_anyone_may_dodge() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], two_a_side())
    turn = TURNS.acted(turn, pos, {"unit": "A1", "type": "move"})
    assert TURNS.refusal(turn, pos, "P1", {"unit": "A1", "type": "move"}) is None
    refused = TURNS.refusal(turn, pos, "P1", {"unit": "A2", "type": "move"})
    assert refused is not None and refused.code == "not_your_turn"
    other_side = TURNS.refusal(turn, pos, "P2", {"unit": "B1", "type": "run"})
    assert other_side is not None and other_side.code == "not_your_turn"
    assert TURNS.refusal(turn, pos, "P2", {"unit": "B1", "type": "dodge"}) is None


def test_ending_an_activation_hands_over_and_the_round_ends_when_nobody_is_left() -> None:
    """APS-D23: sides alternate one soldier each; at the round's end AP come back,
    `activated` is false and Running tokens are cleared."""
    turn, pos = TURNS.begin(["P1", "P2"], two_a_side())
    turn = TURNS.acted(turn, pos, {"unit": "A1", "type": "run"})
    unit(pos, "A1").update(ap=0, activated=True, running=True)
    sides = []
    for _ in range(4):
        turn, pos = TURNS.end_part(turn, pos)
        sides.append((turn["turn"], turn["active_side"]))
    assert sides == [(1, "P2"), (1, "P1"), (1, "P2"), (2, "P1")]
    a1 = unit(pos, "A1")
    assert a1["ap"] == 4 and a1["activated"] is False and "running" not in a1
    assert "active_unit" not in turn and pos["state"]["active_unit"] is None


def test_a_side_with_nobody_left_to_activate_passes() -> None:
    pos = position(
        soldier("A1"), soldier("B1", (10, 20), side="P2"), soldier("B2", (12, 20), side="P2")
    )
    turn, pos = TURNS.begin(["P1", "P2"], pos)
    seen = []
    for _ in range(3):
        turn, pos = TURNS.end_part(turn, pos)
        seen.append((turn["turn"], turn["active_side"]))
    assert seen == [(1, "P2"), (1, "P2"), (2, "P1")]


def test_an_activated_soldier_is_not_offered_an_activation_but_may_dodge() -> None:
    pos = position(soldier("A1", activated=True), soldier("A2", (12, 10)))
    assert not TURNS.unit_may_take(state_from_json(pos), "A1", "move")
    assert TURNS.unit_may_take(state_from_json(pos), "A1", "dodge")
    assert TURNS.unit_may_take(state_from_json(pos), "A2", "move")


def test_on_the_live_table_the_engine_makes_the_soldier_that_acts_the_active_one() -> None:
    """APS-D23 with APS-D3: from the battle's start the position keeps `active_unit`
    (None between activations); a soldier's move makes it the active one, so that the
    engine refuses another soldier's move until the activation ends."""
    from rules import state_from_json, validate

    turn, pos = TURNS.begin(["P1", "P2"], two_a_side())
    state = state_from_json(pos)
    moved = validate(state, {"unit": "A1", "type": "move", "path": [[11, 10]]})
    assert moved.legal and moved.state_after.turn["active_unit"] == "A1"
    other = validate(moved.state_after, {"unit": "A2", "type": "move", "path": [[12, 11]]})
    assert other.codes == ["not_your_turn"]
    dodge = validate(
        moved.state_after, {"unit": "B1", "type": "dodge", "source": [10, 25]}, outcomes=[True]
    )
    assert dodge.legal and dodge.state_after.turn["active_unit"] == "A1"
