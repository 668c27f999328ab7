"""Property tests for apskirmish (the aod versions are in tests/rules/test_properties.py,
whose helpers these reuse): verdicts do not depend on where the scene is or how it is
turned; the cost is the front-to-front distance whatever the path's redundant points;
every point reach claims is reached by the straight line validate accepts; validate
never raises for a well-formed action."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from rules import reach, state_from_json, validate
from rules.geometry.front import front_distance
from tests.rules.scenes import drawn_base, drawn_others, drawn_rectangles
from tests.rules.test_properties import CENTRE, EXAMPLES, FAST, RANDOM, overlapping_start, turned

coord = st.floats(-8, 8, allow_nan=False).map(lambda v: round(v, 3))
TERRAIN = ["open", "rough", "obstacle"]
STANCES = ["standing", "crouching", "prone"]


@st.composite
def scenes(draw: Any, action_type: str = "move") -> dict[str, Any]:
    """A small scene around CENTRE on a big table and one straight line."""
    terrain = drawn_rectangles(draw, coord, TERRAIN, sizes=(0.3, 5))
    base = drawn_base(draw, draw(st.booleans()), diameters=(1.0, 1.25, 3.0))
    units = [
        {
            "id": "U",
            "side": "P1",
            "type": "soldier",
            "stance": draw(st.sampled_from(STANCES)),
            "ap": 3,
            "base": base,
            "stats": {"PSQ": 5, "INS": 5},
            "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
            "facing": draw(st.floats(0, 359)),
        }
    ]
    units += drawn_others(draw, coord, ["soldier"], diameter=1.0)
    x, y = units[0]["position"]
    step = st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 3))
    action: dict[str, Any] = {
        "unit": "U",
        "type": action_type,
        "path": [[x + draw(step), y + draw(step)]],
        "on_fail": draw(st.sampled_from(["shorten", "threshold", "stop"])),
    }
    if draw(st.booleans()):
        action["facing"] = draw(st.floats(0, 359))
    return {
        "system": "apskirmish",
        "table": {"width": 120, "height": 120},
        "terrain": terrain,
        "units": units,
        "action": action,
    }


def judge(scene: dict[str, Any], outcome: bool = False) -> Any:
    return validate(state_from_json(scene), scene["action"], outcomes=[outcome])


def rotated(scene: dict[str, Any], angle: float, dx: float, dy: float) -> dict[str, Any]:
    out = turned(scene, angle, dx, dy)
    if "facing" in scene["action"]:
        out["action"] = dict(out["action"], facing=(scene["action"]["facing"] + angle) % 360)
    return out


@FAST
@given(scenes(), st.floats(0, 360), st.floats(-20, 20), st.floats(-20, 20), st.booleans())
def test_verdict_does_not_change_when_the_scene_is_turned_and_moved(
    scene: dict[str, Any], angle: float, dx: float, dy: float, outcome: bool
) -> None:
    """apskirmish.md 3: only distances matter, never where or which way the table lies."""
    a, b = judge(scene, outcome), judge(rotated(scene, angle, dx, dy), outcome)
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)
    assert math.isclose(a.cost, b.cost, abs_tol=1e-6)
    assert math.isclose(a.allowance, b.allowance, abs_tol=1e-9)


@FAST
@given(scenes(), st.booleans())
def test_a_first_point_at_the_start_changes_nothing(scene: dict[str, Any], outcome: bool) -> None:
    """The contract ignores a first point equal to the start: still one straight line."""
    start = scene["units"][0]["position"]
    again = dict(scene, action=dict(scene["action"], path=[list(start)] + scene["action"]["path"]))
    a, b = judge(scene, outcome), judge(again, outcome)
    assert a.to_json() == b.to_json()


@FAST
@given(scenes())
def test_a_legal_move_with_its_roll_passed_costs_the_front_to_front_distance(
    scene: dict[str, Any],
) -> None:
    """004 Standard Movement: measured from the front of the base to the front."""
    verdict = judge(scene, True)
    assume(verdict.legal)
    unit = state_from_json(scene).unit("U")
    moved = verdict.state_after.unit("U")
    assert unit is not None and moved is not None
    expected = front_distance(
        unit.base, (*unit.position, unit.facing), (*moved.position, moved.facing)
    )
    assert math.isclose(verdict.cost, expected, abs_tol=1e-9)
    assert verdict.cost <= verdict.allowance + 1e-3


@settings(
    max_examples=max(EXAMPLES // 2, 12),
    deadline=None,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    scenes(),
    st.sampled_from(["move", "run"]),
    st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=6, max_size=6),
)
def test_every_point_inside_reach_is_accepted_by_validate_along_path_to(
    scene: dict[str, Any], action_type: str, samples: list[tuple[float, float]]
) -> None:
    """Reach is sound: the straight line to any point of the area, with the turn at the
    end path_to gives (a round base turned to face back, APS-D4), is legal (with its
    Terrain roll passed)."""
    scene["units"][0]["stance"] = "standing"
    state = state_from_json(scene)
    assume(not overlapping_start(state))
    area = reach(state, "U", action_type).area
    assume(area.area > 0.01)
    minx, miny, maxx, maxy = area.bounds
    points = [(minx + (maxx - minx) * u, miny + (maxy - miny) * v) for u, v in samples]
    for q in [q for q in points if area.contains(Point(q))]:
        path = reach(state, "U", action_type).path_to(q)
        assert path is not None and len(path) in (2, 3), q
        v = validate(
            state, {"unit": "U", "type": action_type, "path": as_steps(path)}, outcomes=[True]
        )
        assert v.legal, (q, path, [r.message for r in v.reasons])


@FAST
@given(scenes(), st.sampled_from(["move", "run", "traverse", "dodge"]), st.booleans())
def test_validate_never_raises_for_a_well_formed_action(
    scene: dict[str, Any], action_type: str, outcome: bool
) -> None:
    """design.md: validate() never raises for an illegal move; it returns a Verdict."""
    action = dict(scene["action"], type=action_type)
    if action_type == "dodge":
        action["source"] = [CENTRE[0], CENTRE[1] - 20]
    v = validate(state_from_json(scene), action, outcomes=[outcome])
    assert v.legal == (not v.reasons)
    assert all(r.code for r in v.reasons)


def as_steps(path: list[Any]) -> list[Any]:
    """A reach's path (start first) as an action's steps: points and turns."""
    return [dict(q) if isinstance(q, dict) else list(q) for q in path[1:]]


def test_reach_of_a_standing_soldier_in_the_open_is_a_3_inch_disc_round_its_front() -> None:
    # 004 Standard Movement, APS-D15: 3" front to front; with the final facing free
    # (APS-D4) the centre may end 3.5" from where the front started, turned to face back.
    state = state_from_json(
        {
            "system": "apskirmish",
            "table": {"width": 36, "height": 36},
            "units": [
                {
                    "id": "U",
                    "side": "P1",
                    "type": "soldier",
                    "base": {"shape": "circle", "diameter": 1},
                    "position": [18, 18],
                    "facing": 0,
                }
            ],
        }
    )
    found = reach(state, "U")
    assert found.contains((20.95, 18)) and found.contains((18, 15.05))
    assert found.contains((21.95, 18)) and found.path_to((21.95, 18))[-1] == {"turn": 180.0}
    assert not found.contains((22.05, 18)) and not found.contains((14.95, 18))
    assert math.isclose(found.area.area, math.pi * 3.5**2, rel_tol=0.01)
    assert math.isclose(reach(state, "U", "run").area.area, math.pi * 9.5**2, rel_tol=0.01)


def test_reach_passes_a_friend_but_never_ends_on_it_and_stops_at_an_enemy() -> None:
    """004 Base Blocking: every point of the area is a legal straight move."""
    for side in ("P1", "P2"):
        state = state_from_json(
            {
                "system": "apskirmish",
                "table": {"width": 36, "height": 36},
                "units": [
                    {
                        "id": "U",
                        "side": "P1",
                        "type": "soldier",
                        "base": {"shape": "circle", "diameter": 1},
                        "position": [10, 10],
                        "facing": 0,
                    },
                    {
                        "id": "O",
                        "side": side,
                        "type": "soldier",
                        "base": {"shape": "circle", "diameter": 1},
                        "position": [11.5, 10],
                        "facing": 0,
                    },
                ],
            }
        )
        found = reach(state, "U")
        assert found.contains((12.9, 10)) is (side == "P1")
        assert not found.contains((11.5, 10))
        minx, miny, maxx, maxy = found.area.bounds
        grid = [
            (minx + (maxx - minx) * i / 16, miny + (maxy - miny) * k / 16)
            for i in range(17)
            for k in range(17)
        ]
        for q in [q for q in grid if found.area.contains(Point(q))]:
            path = found.path_to(q)
            assert path is not None
            v = validate(state, {"unit": "U", "type": "move", "path": as_steps(path)})
            assert v.legal, (side, q, v.codes)
