"""Each system's unit schema is a JSON Schema document, read by the `jsonschema` library
when the engine reads a position (issue 24: one unit-schema language, one library, in the
engine and the roster forms alike). A unit's bad field is refused naming the unit's key
and the field, in a player's words, not in the library's."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules import SYSTEMS, InvalidActionError, get_system, unit_problems
from tests.rules.scenes import scene, unit

#: Keys each system's own parsing (check_unit) did not refuse before the schema was read by
#: the engine, although the roster form refused them: (system, unit type, extra keys, the
#: field refused, words). Each cites where its system's notes give the limit.
ENGINE_NOW_REFUSES = [
    # aod.md "Unit keys": order tokens carried (0-2) (AOD-D15).
    ("aod", "mech", {"order_tokens": 3}, "order_tokens", "Must be at most 2."),
    # aod.md "Unit types": `vtol` has `altitude` "noe" or "cruising" (AOD-D11).
    ("aod", "mech", {"altitude": "noe"}, "altitude", "Only for vtol units."),
    # apskirmish.md 1: stats such as Physique (PSQ), graded (whole, not negative).
    ("apskirmish", "soldier", {"stats": {"PSQ": -1}}, "stats.PSQ", "Must be at least 0."),
    ("apskirmish", "soldier", {"stats": {"INS": 1.5}}, "stats.INS", "Enter a whole number."),
    # Any system: a unit's name is short text (the roster form's limit).
    ("lasergrenadiers", "foot", {"name": "x" * 201}, "name", "At most 200 characters."),
]


def position_with(system: str, unit_type: str, extra: dict[str, Any]) -> None:
    scene([unit("U1", type=unit_type, **extra)], system=system)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_unit_schema_is_a_json_schema_document(key: str) -> None:
    schema = get_system(key).unit_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"type", "move", "base"} <= set(schema["properties"])


@pytest.mark.parametrize(("system", "unit_type", "extra", "field", "words"), ENGINE_NOW_REFUSES)
def test_a_unit_field_the_schema_refuses_is_malformed_naming_unit_and_field(
    system: str, unit_type: str, extra: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(InvalidActionError) as refused:
        position_with(system, unit_type, extra)
    assert refused.value.key == f"units[0].{field}"
    assert refused.value.detail == words


def test_mswars_skills_must_be_a_list_of_words() -> None:
    """mswars.md 2: `skills` is a list (e.g. "combat_manoeuvres"); the item is named."""
    with pytest.raises(InvalidActionError) as refused:
        position_with("mswars", "walker", {"skills": ["combat_manoeuvres", 3]})
    assert (refused.value.key, refused.value.detail) == ("units[0].skills", "Item 2: Must be text.")


def test_mswars_infantry_may_go_without_a_move_type_others_may_not() -> None:
    """MSW-D49: the schema's condition says what mswars' own check says."""
    infantry = {"move": 4, "base": {"shape": "circle", "diameter": 1}, "infantry": True}
    assert unit_problems("mswars", infantry) == {}
    assert unit_problems("mswars", {**infantry, "infantry": False}) == {"type": "Required."}


def test_a_table_may_carry_state_a_roster_may_not() -> None:
    """aod's `captive_of` is set by the table (readOnly): a position may hold it, a roster not;
    a key the schema does not name is the same."""
    mech = {"type": "mech", "move": 8, "base": {"shape": "circle", "diameter": 1.75}}
    held = {**mech, "captive_of": "M2", "anything": 1}
    assert unit_problems("aod", held) == {}
    assert unit_problems("aod", held, roster=True) == {
        "captive_of": "aod units have no field 'captive_of'.",
        "anything": "aod units have no field 'anything'.",
    }


@pytest.mark.parametrize(
    ("base", "field", "words"),
    [
        ({"shape": "hexagon"}, "base.shape", "Choose one of: circle, rect."),
        ({"shape": "rect", "width": 1}, "base.length", "A rect base needs a length."),
        (
            {"shape": "circle", "diameter": 1, "width": 1},
            "base.width",
            "A circle base has no width.",
        ),
        ({"shape": "circle", "diameter": 0}, "base.diameter", "Must be more than 0."),
        ("round", "base", "Must be an object."),
    ],
)
def test_a_bad_base_is_said_in_a_players_words_not_the_librarys(
    base: Any, field: str, words: str
) -> None:
    assert unit_problems("aod", {"type": "mech", "move": 8, "base": base}) == {field: words}


def test_mswars_table_state_is_not_a_roster_field() -> None:
    """mswars.md section 2: `fallen`, `pinned` and `charge_target` are keys the system adds
    as the battle goes (a fall `002 Rules: Movement`, Pinning MSW-D11, the last charge): a
    position may hold them, a roster (and so the roster form) may not."""
    mech = {"type": "walker", "move": 8, "base": {"shape": "circle", "diameter": 1.75}}
    state = {"fallen": "straighten", "pinned": True, "charge_target": "E1"}
    assert unit_problems("mswars", {**mech, **state}) == {}
    assert set(unit_problems("mswars", {**mech, **state}, roster=True)) == set(state)


def test_a_unit_read_again_is_not_checked_again_by_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The library takes about a millisecond a unit, and a position's units are read
    again with every move: the same unit's answer is kept (rules/engine/unit_schema.py)."""
    from rules.engine import unit_schema

    asked: list[Any] = []
    library = unit_schema._problems
    monkeypatch.setattr(
        unit_schema, "_problems", lambda schema, unit: asked.append(unit) or library(schema, unit)
    )
    mech = {"type": "mech", "move": 6, "base": {"shape": "circle", "diameter": 1.0}}
    first = unit_problems("aod", {**mech, "order_tokens": 3})
    again = unit_problems("aod", {**mech, "order_tokens": 3})
    assert first == again == {"order_tokens": "Must be at most 2."}
    assert len(asked) == 1


@pytest.mark.parametrize(
    ("refused", "accepted"),
    [
        # Look-alikes a kept answer must not mix up: each is its own value to the library.
        ({"order_tokens": 2.0}, {"order_tokens": 2}),  # counts are whole (AOD-D15)
        ({"order_tokens": True}, {"order_tokens": 1}),
        ({"move": float("nan")}, {"move": 6}),
    ],
)
def test_a_kept_answer_is_never_given_for_a_look_alike(
    refused: dict[str, Any], accepted: dict[str, Any]
) -> None:
    mech = {"type": "mech", "move": 6, "base": {"shape": "circle", "diameter": 1.0}}
    for _ in range(2):  # the kept answers as well as the library's
        assert unit_problems("aod", {**mech, **accepted}) == {}
        assert list(unit_problems("aod", {**mech, **refused})) == list(refused)
