"""Hostile input (issue 15): whatever JSON a client sends, as an action or inside a
scenario, every registered system parses, judges and reaches it raising nothing but its
clean error, `InvalidActionError` (design.md, style 1: malformed input raises it with a
clear message; an illegal move is a verdict).

The examples start from each system's golden files (`tests/rules/golden/<key>/`), so
a new system in `rules.SYSTEMS` joins these tests with its golden files and nothing
else: random JSON replaces a part of a golden action or position, or stands for the whole
action. The search is repeatable (`derandomize`); HOSTILE_N=<examples> and
HOSTILE_RANDOM=1 widen it by hand.
"""

from __future__ import annotations

import functools
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    SYSTEMS,
    InvalidActionError,
    System,
    get_system,
    make_dice,
    state_from_json,
    state_to_json,
)
from rules.engine.bounds import check_action

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = int(os.environ.get("HOSTILE_N", 150))
HOSTILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("HOSTILE_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SYSTEM_KEYS = sorted(SYSTEMS)
#: Enough forced dice for any action; a scenario may still run out (dice_exhausted).
DICE = [4, 2, 6, 1, 3, 5] * 4

#: Keys of the contract every system reads; random objects use them, so that a random
#: value lands where a parser looks.
CONTRACT_KEYS = (
    "unit",
    "type",
    "path",
    "facing",
    "turn",
    "position",
    "target",
    "id",
    "side",
    "move",
    "base",
    "shape",
    "diameter",
    "width",
    "length",
    "polygon",
    "height",
    "size_class",
    "access",
    "aboard",
    "options",
)

Words = tuple[str, ...]
numbers = (
    st.integers()
    | st.integers(min_value=-(2**1100), max_value=2**1100)
    | st.floats()
    | st.sampled_from(
        [0, -1, 1e300, -1e300, 1e-300, 360.0001, 2**64, math.nan, math.inf, -math.inf]
    )
)
scalars = st.none() | st.booleans() | numbers | st.text(max_size=6)


@functools.cache
def golden_scenarios(key: str) -> tuple[dict[str, Any], ...]:
    """The system's golden scenarios whose position reads (a few test malformed ones)."""
    out = []
    for path in sorted((GOLDEN / key).glob("*.json")):
        raw = json.loads(path.read_text())
        try:
            state_from_json(raw)
        except InvalidActionError:
            continue
        out.append(raw)
    return tuple(out)


def actions_of(scenario: dict[str, Any]) -> list[Any]:
    return [scenario["action"]] if "action" in scenario else list(scenario.get("actions", []))


def vocabulary(system: System, scenario: dict[str, Any]) -> Words:
    """Words a parser compares with: the system's keys and types, the scene's unit ids."""
    return tuple(
        sorted(
            {
                *CONTRACT_KEYS,
                *system.action_keys,
                *system.action_types,
                *system.unit_types,
                *system.terrain_types,
                *(str(u.get("id")) for u in scenario.get("units", []) if isinstance(u, dict)),
            }
        )
    )


@functools.cache  # one strategy per vocabulary: building one is slow
def json_values(words: Words) -> st.SearchStrategy[Any]:
    """Any JSON (and the non-JSON floats Python's parser reads: NaN, Infinity)."""
    leaves = scalars | st.sampled_from(words)
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(words) | st.text(max_size=4), inner, max_size=4)
        ),
        max_leaves=12,
    )


def places(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree, as the keys and indexes that lead to it."""
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += places(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += places(v, (*at, i))
    return out


def replaced(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    """A copy of `value` with the part at `at` replaced by `new`."""
    if not at:
        return new
    head, rest = at[0], at[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(value[head], rest, new)
    return copy


@st.composite
def mutated(draw: st.DrawFn, value: Any, words: Words) -> Any:
    """`value` with one to three parts replaced by random JSON or given a new key."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.sampled_from(places(value)))
        part = functools.reduce(lambda v, k: v[k], at, value)
        if isinstance(part, dict) and draw(st.booleans()):
            new = {**part, draw(st.sampled_from(words)): draw(json_values(words))}
        else:
            new = draw(json_values(words))
        value = replaced(value, at, new)
    return value


@st.composite
def built_actions(draw: st.DrawFn, system: System, words: Words, depth: int = 1) -> dict[str, Any]:
    """An action of the system's own keys with random values; a key may hold a list of
    such actions (a formation's `moves`, an unloading's placements)."""
    keys = ["path", "facing", "type", *sorted(system.action_keys)]
    action: dict[str, Any] = {
        "unit": draw(st.sampled_from(words) | scalars),
        "type": draw(st.sampled_from(sorted(system.action_types))),
    }
    for name in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        if depth > 0 and draw(st.booleans()):
            action[name] = draw(st.lists(built_actions(system, words, depth - 1), max_size=3))
        else:
            action[name] = draw(json_values(words))
    return action


@st.composite
def hostile_actions(draw: st.DrawFn, key: str) -> tuple[dict[str, Any], Any]:
    """A golden position and an action: a golden one mutated, one built from the system's
    own keys with random values, or any JSON at all."""
    system = get_system(key)
    scenario = draw(st.sampled_from(golden_scenarios(key)))
    words = vocabulary(system, scenario)
    kind = draw(st.sampled_from(["mutated", "built", "any"]))
    golden = actions_of(scenario)
    if kind == "mutated" and golden:
        return scenario, draw(mutated(draw(st.sampled_from(golden)), words))
    if kind == "built":
        return scenario, draw(built_actions(system, words))
    return scenario, draw(json_values(words))


@st.composite
def hostile_positions(draw: st.DrawFn, key: str) -> tuple[Any, list[Any]]:
    """A golden position (system, table, terrain, units, state) with one part replaced by
    random JSON, and the golden scenario's actions."""
    system = get_system(key)
    scenario = draw(st.sampled_from(golden_scenarios(key)))
    position = {
        k: scenario[k] for k in ("system", "table", "terrain", "units", "state") if k in scenario
    }
    return draw(mutated(position, vocabulary(system, scenario))), actions_of(scenario)


def judged(system: System, raw_position: Any, raw_action: Any) -> None:
    """What the table does with a frame: read the position, parse the action, check it
    against the engine's bounds, judge it; then ask where its unit may go."""
    state = state_from_json(raw_position)
    try:
        action = system.parse_action(raw_action, "action")
        check_action(action, state)
        verdict = system.validate(state, action, make_dice(DICE))
        # What the table stores and sends is JSON (RFC 8259): never a bare NaN.
        json.dumps(verdict.to_json(), allow_nan=False)
        json.dumps(state_to_json(verdict.state_after or state), allow_nan=False)
    finally:
        unit = raw_action.get("unit") if isinstance(raw_action, dict) else None
        reached(system, state, unit, raw_action)


def reached(system: System, state: Any, unit: Any, raw_action: Any) -> None:
    if not isinstance(unit, str):
        return
    action_type = raw_action.get("type")
    try:
        system.reach(state, unit, action_type if isinstance(action_type, str) else "move")
    except InvalidActionError:
        pass
    except NotImplementedError:
        # The referee answers "no area" for a system without reach (referee.reach_area).
        assert type(system).reach is System.reach, "reach raised NotImplementedError"


def only_clean_errors(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except InvalidActionError as err:
        assert err.code in ("malformed", "dice_exhausted")
        assert str(err)


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_every_system_has_golden_positions_to_start_from(key: str) -> None:
    """The examples below start from the golden files: a system without any is untested."""
    assert golden_scenarios(key)


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_random_json_actions_raise_nothing_but_the_clean_error(key: str) -> None:
    """Issue 15: every system's action parser, its judge and its reach accept any JSON
    without raising anything but InvalidActionError (design.md, style 1)."""
    system = get_system(key)

    @HOSTILE
    @given(hostile_actions(key))
    def check(example: tuple[dict[str, Any], Any]) -> None:
        position, action = example
        only_clean_errors(judged, system, position, action)

    check()


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_random_json_in_a_position_raises_nothing_but_the_clean_error(key: str) -> None:
    """Issue 15: a scenario with random JSON in its table, terrain, units or turn state
    is read, judged and reached raising nothing but InvalidActionError."""
    system = get_system(key)

    @HOSTILE
    @given(hostile_positions(key))
    def check(example: tuple[Any, list[Any]]) -> None:
        position, actions = example
        for action in actions or [{"unit": "", "type": ""}]:
            only_clean_errors(judged, system, position, action)

    check()


#: Values of the wrong kind, out of range or not JSON at all, for the sweep below.
HOSTILE_VALUES: tuple[Any, ...] = (
    None,
    True,
    -1,
    10**400,
    1e300,
    math.nan,
    math.inf,
    "x",
    [],
    [[]],
    [1, 2, 3, 4],
    {},
    {"turn": 1e9},
)


def one_golden_action_per_type(key: str) -> list[tuple[dict[str, Any], Any]]:
    """For each action type of the system, its first golden action with the position."""
    found: dict[str, tuple[dict[str, Any], Any]] = {}
    for scenario in golden_scenarios(key):
        for action in actions_of(scenario):
            if isinstance(action, dict) and isinstance(action.get("type"), str):
                found.setdefault(action["type"], (scenario, action))
    return [found[t] for t in sorted(found)]


def swapped(action: Any, words: Words) -> list[Any]:
    """The action with each part in turn swapped for each hostile value, and each of its
    objects in turn given each action key with each hostile value."""
    out = []
    for at in places(action):
        out += [replaced(action, at, value) for value in HOSTILE_VALUES]
        part = functools.reduce(lambda v, k: v[k], at, action)
        if isinstance(part, dict):
            out += [
                replaced(action, at, {**part, word: value})
                for word in words
                for value in HOSTILE_VALUES
                if word not in part
            ]
    return out


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_any_part_of_a_golden_action_swapped_for_hostile_json_is_refused_cleanly(key: str) -> None:
    """Issue 15: a formation move whose `moves[].type` was a list crashed aod's parser and
    leaked the exception. Every part of one golden action per action type, in turn, is
    swapped for a value of the wrong kind (or given a key it should not have): parsing and
    judging raise nothing but InvalidActionError."""
    system = get_system(key)
    action_words = ("unit", "type", "path", "facing", *sorted(system.action_keys))
    for position, action in one_golden_action_per_type(key):
        for hostile in swapped(action, action_words):
            only_clean_errors(judged_without_reach, system, position, hostile)


def judged_without_reach(system: System, raw_position: Any, raw_action: Any) -> None:
    state = state_from_json(raw_position)
    action = system.parse_action(raw_action, "action")
    check_action(action, state)
    verdict = system.validate(state, action, make_dice(DICE))
    json.dumps(verdict.to_json(), allow_nan=False)
