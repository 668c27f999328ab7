"""Hostile states: structurally valid but unusual positions, and actions naming units
that are aboard, absent or the acting unit itself, raise nothing but InvalidActionError
(design.md, style 1: malformed input raises it with a clear message; an illegal move is
a verdict; nothing else may ever raise).

test_hostile_input.py puts random JSON where a parser looks; what it rarely builds is a
position every parser accepts but no golden file holds: a unit aboard a unit that is
itself aboard (lasergrenadiers raised KeyError for one unloading itself, c3e9670), aboard
a non-transport, an enemy, itself or a unit that is not there; every unit stacked on one
spot, on a table edge or corner, inside blocking terrain; a table of no size; terrain
duplicated or of no area; turn-state keys naming absent units. Each such position, from
a system's golden files (`tests/rules/golden/<key>/`), is asked every question the board
asks: judge, reach for every action type of the catalogue for every unit, the nearest
alternative, offers, the board's view, sight and placement.

The search is repeatable (`derandomize`); HOSTILE_STATES_N=<examples> and HOSTILE_RANDOM=1
widen it by hand.
"""

from __future__ import annotations

import copy
import functools
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    Action,
    GameState,
    InvalidActionError,
    alternative_answer,
    board_view,
    get_system,
    make_dice,
    placement_obstructions,
    reach_answer,
    sight_ruling,
    state_from_json,
    validate,
)
from rules.referee.questions import offers_answer
from tests.rules.test_hostile_input import DICE, SYSTEM_KEYS, actions_of
from tests.rules.test_hostile_input import HOSTILE as HOSTILE_INPUT
from tests.rules.test_hostile_input import golden_scenarios as readable_scenarios

HOSTILE = settings(HOSTILE_INPUT, max_examples=int(os.environ.get("HOSTILE_STATES_N", 25)))
#: A unit id no position holds.
GHOST = "ghost"
#: Action keys that name one unit, or a list of units or of placements of one.
UNIT_KEYS = ("unit", "target", "carrier")
LIST_KEYS = ("passengers", "unload", "moves", "source")
#: Keys of each system's turn state that name units (golden files' `state`).
TURN_UNIT_KEYS: dict[str, Any] = {
    "ordered": lambda ids: ids,
    "free_spin_pending": lambda ids: ids,
    "started_in_contact": lambda ids: ids,
    "order_log": lambda ids: [[i, "move"] for i in ids],
    "active_unit": lambda ids: ids[0],
    "moved": lambda ids: {i: 1 for i in ids},
    "activated": lambda ids: ids,
    "left_board": lambda ids: ids,
    "free_turn_used": lambda ids: {i: True for i in ids},
    "action_points": lambda ids: {i: 1 for i in ids},
    "actions_taken": lambda ids: {i: [{"phase": 1, "type": "standard_move"}] for i in ids},
}


@functools.cache
def golden_scenarios(key: str) -> tuple[dict[str, Any], ...]:
    """The system's golden scenarios whose position reads and holds two units or more."""
    return tuple(s for s in readable_scenarios(key) if len(s.get("units", [])) >= 2)


@functools.cache
def golden_actions(key: str) -> tuple[Any, ...]:
    """Every golden action of the system, one per type and set of keys: what another scene
    asked, to ask of this one's units."""
    found: dict[tuple[Any, ...], Any] = {}
    for scenario in golden_scenarios(key):
        for action in actions_of(scenario):
            if isinstance(action, dict):
                found.setdefault((action.get("type"), *sorted(action)), action)
    return tuple(found[k] for k in sorted(found, key=repr))


# --- the twists: each makes a structurally valid but unusual position -----------------


def _units(p: dict[str, Any]) -> list[dict[str, Any]]:
    return [u for u in p.get("units", []) if isinstance(u, dict)]


def _size(p: dict[str, Any]) -> tuple[float, float]:
    table = p.get("table") or {}
    return float(table.get("width", 0)), float(table.get("height", 0))


def chain(p: dict[str, Any], i: int) -> None:
    """Each unit aboard the one before it, from the i-th: aboard a unit aboard."""
    units = _units(p)
    for a, b in zip(units[i % len(units) :], units[i % len(units) + 1 :], strict=False):
        b["aboard"] = a["id"]


def aboard_other(p: dict[str, Any], i: int) -> None:
    """One unit aboard another, whatever it is (a non-transport, an enemy, its captor)."""
    units = _units(p)
    unit = units[i % len(units)]
    captor = next((u.get("captive_of") for u in units if u.get("captive_of")), None)
    if captor is not None and i % 2:
        unit = next(u for u in units if u.get("captive_of"))
    unit["aboard"] = captor if captor is not None and i % 2 else units[(i + 1) % len(units)]["id"]


def aboard_itself(p: dict[str, Any], i: int) -> None:
    units = _units(p)
    units[i % len(units)]["aboard"] = units[i % len(units)]["id"]


def aboard_absent(p: dict[str, Any], i: int) -> None:
    units = _units(p)
    units[i % len(units)]["aboard"] = GHOST


def all_aboard(p: dict[str, Any], i: int) -> None:
    """Every unit aboard another: the first aboard the last, a ring with none on the table."""
    units = _units(p)
    for n, unit in enumerate(units):
        unit["aboard"] = units[n - 1]["id"]


def all_aboard_one(p: dict[str, Any], i: int) -> None:
    units = _units(p)
    carrier = units[i % len(units)]
    for unit in units:
        if unit is not carrier:
            unit["aboard"] = carrier["id"]


def captive_of_any(p: dict[str, Any], i: int) -> None:
    """A unit captive of another (aod's `captive_of`, 001 [26]): a friend, itself, one
    aboard or one not there (a system without captives refuses the key cleanly)."""
    units = _units(p)
    names = [u["id"] for u in units] + [GHOST]
    units[i % len(units)]["captive_of"] = names[(i * 3 + 1) % len(names)]


def stacked(p: dict[str, Any], i: int) -> None:
    units = _units(p)
    spot = units[i % len(units)].get("position")
    for unit in units:
        unit["position"] = copy.deepcopy(spot)


def at_edge(p: dict[str, Any], i: int) -> None:
    """A unit on a corner, an edge, or its centre past one."""
    w, h = _size(p)
    spots: list[list[float]] = [
        [0, 0],
        [w, h],
        [w, 0],
        [0, h],
        [w / 2, 0],
        [w + 1, h / 2],
        [-1, -1],
        [w, h / 2],
    ]
    units = _units(p)
    unit = units[i % len(units)]
    z: list[Any] = unit["position"][2:] if isinstance(unit.get("position"), list) else []
    unit["position"] = [*spots[i % len(spots)], *z]


def no_table(p: dict[str, Any], i: int) -> None:
    table = dict(p.get("table") or {})
    table[("width", "height")[i % 2]] = 0
    if i % 3 == 0:
        table["width"] = table["height"] = 0
    p["table"] = table


def tiny_table(p: dict[str, Any], i: int) -> None:
    """A table smaller than the bases on it."""
    p["table"] = {**(p.get("table") or {}), "width": 0.5 + i % 2, "height": 0.5}


def terrain_off_table(p: dict[str, Any], i: int) -> None:
    """A terrain piece moved past a table edge, wholly or across it."""
    terrain = [t for t in p.get("terrain") or [] if isinstance(t, dict) and "polygon" in t]
    if not terrain:
        return
    w, h = _size(p)
    piece = terrain[i % len(terrain)]
    low, high = min(c[0] for c in piece["polygon"]), max(c[0] for c in piece["polygon"])
    dx = -high - 1 if i % 2 else w - (low + high) / 2
    piece["polygon"] = [[c[0] + dx, *c[1:]] for c in piece["polygon"]]


def duplicate_terrain(p: dict[str, Any], i: int) -> None:
    """Each terrain piece twice, the copy under a new id: the same ground laid twice."""
    terrain = p.get("terrain") or []
    twins = copy.deepcopy(terrain)
    for n, piece in enumerate(twins):
        if isinstance(piece, dict) and "id" in piece:
            piece["id"] = f"{piece['id']}-twin{n}"
    p["terrain"] = terrain + twins


def flat_terrain(p: dict[str, Any], i: int) -> None:
    """A terrain piece of no area: a point, or a line (its corners on one line)."""
    terrain = [t for t in p.get("terrain") or [] if isinstance(t, dict) and "polygon" in t]
    if not terrain:
        return
    piece = terrain[i % len(terrain)]
    x, y = piece["polygon"][0][:2]
    if i % 2:
        piece["polygon"] = [[x, y], [x, y], [x, y]]
    else:
        piece["polygon"] = [[x, y], [x + 1, y], [x + 2, y]]


def inside_terrain(p: dict[str, Any], i: int) -> None:
    """A unit standing on the middle of a terrain piece (blocking, water, a building)."""
    terrain = [t for t in p.get("terrain") or [] if isinstance(t, dict) and "polygon" in t]
    if not terrain:
        return
    piece = terrain[i % len(terrain)]
    xs = [c[0] for c in piece["polygon"]]
    ys = [c[1] for c in piece["polygon"]]
    units = _units(p)
    unit = units[i % len(units)]
    unit["position"] = [sum(xs) / len(xs), sum(ys) / len(ys)]


def absent_in_turn(p: dict[str, Any], i: int) -> None:
    """Turn-state keys naming units that are not there, or are aboard."""
    ids = [GHOST] + [u["id"] for u in _units(p) if u.get("aboard")][:1]
    ids = ids[i % len(ids) :] + ids[: i % len(ids)]
    state = dict(p.get("state") or {})
    known = [k for k in TURN_UNIT_KEYS if k in state] or list(TURN_UNIT_KEYS)
    name = known[i % len(known)]
    state[name] = TURN_UNIT_KEYS[name](ids)
    p["state"] = state


TWISTS = (
    chain,
    aboard_other,
    aboard_itself,
    aboard_absent,
    all_aboard,
    all_aboard_one,
    captive_of_any,
    stacked,
    at_edge,
    no_table,
    tiny_table,
    terrain_off_table,
    duplicate_terrain,
    flat_terrain,
    inside_terrain,
    absent_in_turn,
)


def renamed(action: Any, names: dict[str, str]) -> Any:
    """`action` with the unit ids its unit keys name swapped by `names` (its own lists of
    placements and members too)."""
    if not isinstance(action, dict):
        return action
    out = dict(action)
    for key in UNIT_KEYS:
        if isinstance(out.get(key), str) and key in names:
            out[key] = names[key]
    for key in LIST_KEYS:
        if isinstance(out.get(key), list):
            out[key] = [
                renamed(part, {"unit": names["member"]} if "member" in names else {})
                if isinstance(part, dict)
                else part
                for part in out[key]
            ]
    return out


@st.composite
def hostile_states(draw: st.DrawFn, key: str) -> tuple[dict[str, Any], list[Any]]:
    """A golden position with one to three twists, and its golden actions with the units
    they name swapped for an aboard one, an absent one or the acting unit itself."""
    scenario = draw(st.sampled_from(golden_scenarios(key)))
    position = copy.deepcopy(
        {k: scenario[k] for k in ("system", "table", "terrain", "units", "state") if k in scenario}
    )
    for _ in range(draw(st.integers(1, 3))):
        draw(st.sampled_from(TWISTS))(position, draw(st.integers(0, 7)))
    ids = [u["id"] for u in _units(position)]
    aboard = [u["id"] for u in _units(position) if u.get("aboard")]
    choices = st.sampled_from([GHOST, *ids, *aboard])
    actions = []
    borrowed = draw(st.lists(st.sampled_from(golden_actions(key)), max_size=2))
    for action in actions_of(scenario) + borrowed:
        names = {}
        for key_ in (*UNIT_KEYS, "member"):
            if draw(st.booleans()):
                names[key_] = draw(choices)
        actions.append(renamed(action, names))
    return position, actions


# --- the questions the board asks ----------------------------------------------------


def clean(call: Any, *args: Any) -> Any:
    """`call(*args)`, or None where it refuses with the clean error."""
    try:
        return call(*args)
    except InvalidActionError as err:
        assert str(err)
        return None


def asked_everything(raw_position: dict[str, Any], raw_actions: list[Any]) -> None:
    state = clean(state_from_json, raw_position)
    if state is None:
        return
    system = get_system(state.system)
    sides = sorted({u.side for u in state.units})
    clean(offers_answer, state)
    for side in sides:
        turn = {"active_side": side, "turn": 1, "sides": sides}
        clean(offers_answer, state, turn)
        clean(board_view, state, turn)
    for unit in state.units:
        for spec in system.actions:
            clean(reach_answer, state, Action(unit=unit.id, type=spec.type))
        clean(placement_obstructions, state, unit.id, *unit.position[:2], unit.facing)
    if len(state.units) >= 2:
        clean(sight_ruling, state, state.units[0].id, state.units[1].id)
    for raw in raw_actions:
        judged(system, state, raw)


def judged(system: Any, state: GameState, raw: Any) -> None:
    action = clean(system.parse_action, raw, "action")
    if action is None:
        return
    verdict = clean(validate, state, action, make_dice(DICE))
    clean(reach_answer, state, action)
    clean(alternative_answer, state, action, bool(verdict and verdict.legal))


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_unusual_positions_raise_nothing_but_the_clean_error(key: str) -> None:
    """Structurally valid but unusual positions, asked every board question, raise
    nothing but InvalidActionError (design.md, style 1)."""

    @HOSTILE
    @given(hostile_states(key))
    def check(example: tuple[dict[str, Any], list[Any]]) -> None:
        asked_everything(*example)

    check()


# --- what the search found, each as a plain example ----------------------------------


def test_aod_captor_reach_with_its_captive_aboard_a_unit_shades_nowhere() -> None:
    """001 [27], AOD-D33: a captor of a 'Mech must end its move in base contact with the
    captive where it stands; a captive aboard a unit stands nowhere on the table, so there
    is no contact to end in. The reach raised KeyError (contact_bands read the base of a
    unit not on the table)."""
    infantry = {"side": "P1", "type": "infantry", "move": 6, "facing": 0}
    mech = {"side": "P2", "type": "mech", "move": 5, "facing": 0}
    base = {"base": {"shape": "circle", "diameter": 2.0}}
    state = state_from_json(
        {
            "system": "aod",
            "table": {"width": 36, "height": 36},
            "terrain": [],
            "units": [
                {"id": "I1", **infantry, **base, "position": [10, 10]},
                {"id": "M8", **mech, **base, "position": [12, 10], "captive_of": "I1"}
                | {"aboard": "I1"},
            ],
        }
    )
    answer = reach_answer(state, Action(unit="I1", type="move"))
    assert answer["area"] == {"type": "GeometryCollection", "geometries": []}
