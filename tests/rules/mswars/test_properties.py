"""Property tests for mswars (the aod versions are in tests/rules/test_properties.py, whose
helpers these reuse): verdicts do not depend on where the scene is or how it is turned;
splitting a straight segment at a collinear point never changes the cost; every point
reach claims is reached by a path validate accepts."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import reach, state_from_json, validate
from tests.rules.test_properties import (
    CENTRE,
    EXAMPLES,
    FAST,
    GRID,
    RANDOM,
    overlapping_start,
    reach_is_sound,
    same_verdict_turned_and_moved,
    split_last_segment,
)

coord = st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))
TERRAIN = ["rough", "difficult", "very_difficult", "shallow_water", "deep_water", "woodland",
           "river", "desert", "elevated"]
TYPES = ["walker", "four_legged_walker", "track", "wheel", "hover"]
#: Directions relative to the facing a step may take (diagonal ones are refused).
HEADINGS = [0.0, 180.0, 90.0, -90.0, 30.0]


@st.composite
def scenes(draw: Any) -> dict[str, Any]:
    """A small mswars scene around CENTRE on a big table, and a path of turns and moves
    along the unit's axes (the moves mswars allows)."""
    terrain = []
    for i in range(draw(st.integers(0, 3))):
        x, y = draw(coord), draw(coord)
        w, h = draw(st.floats(1, 6)), draw(st.floats(1, 6))
        t: dict[str, Any] = {"id": f"T{i}", "type": draw(st.sampled_from(TERRAIN)),
                             "polygon": [[CENTRE[0] + x, CENTRE[1] + y],
                                         [CENTRE[0] + x + w, CENTRE[1] + y],
                                         [CENTRE[0] + x + w, CENTRE[1] + y + h],
                                         [CENTRE[0] + x, CENTRE[1] + y + h]]}
        if t["type"] == "elevated":
            t["height"] = draw(st.sampled_from([1.0, 3.0, 6.0]))
        terrain.append(t)
    rect = draw(st.booleans())
    base = ({"shape": "rect", "width": 1.0, "length": 2.0} if rect
            else {"shape": "circle", "diameter": draw(st.sampled_from([1.0, 1.25, 2.0]))})
    facing = draw(st.floats(0, 359))
    units = [{"id": "U", "side": "P1", "type": draw(st.sampled_from(TYPES)), "move": 10,
              "size_class": draw(st.integers(0, 5)), "infantry": draw(st.booleans()),
              "base": base, "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
              "facing": facing}]
    for i in range(draw(st.integers(0, 2))):
        units.append({"id": f"O{i}", "side": draw(st.sampled_from(["P1", "P2"])),
                      "type": draw(st.sampled_from(TYPES)), "move": 6,
                      "size_class": draw(st.integers(0, 5)),
                      "base": {"shape": "circle", "diameter": 1.25},
                      "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
                      "facing": 0})
    path: list[Any] = []
    x, y = units[0]["position"]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            turn = draw(st.floats(-170, 170).map(lambda v: round(v, 2)))
            path.append({"turn": turn})
            facing += turn
        heading = math.radians(facing + draw(st.sampled_from(HEADINGS)))
        step = draw(st.floats(0.5, 4))
        x, y = x + step * math.cos(heading), y + step * math.sin(heading)
        path.append([x, y])
    return {"system": "mswars", "table": {"width": 120, "height": 120}, "terrain": terrain,
            "units": units, "action": {"unit": "U", "type": "standard_move", "path": path}}


def judge(scene: dict[str, Any]) -> Any:
    return validate(state_from_json(scene), scene["action"], dice=[6] * 12, outcomes=[])


@FAST
@given(scenes(), st.floats(0, 360), st.floats(-20, 20), st.floats(-20, 20))
def test_verdict_does_not_change_when_the_scene_is_turned_and_moved(
        scene: dict[str, Any], angle: float, dx: float, dy: float) -> None:
    """mswars.md 4-5: only distances and angles relative to the facing matter."""
    same_verdict_turned_and_moved(judge, scene, angle, dx, dy)


@FAST
@given(scenes(), st.floats(0.05, 0.95))
def test_splitting_a_segment_at_a_collinear_point_never_changes_the_cost(
        scene: dict[str, Any], f: float) -> None:
    """MSW-D21: cost is continuous, the sum over segments of rate x length x factor."""
    a, b = judge(scene), judge(split_last_segment(scene, f))
    assert math.isclose(a.cost, b.cost, abs_tol=1e-9)
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)


@settings(max_examples=max(EXAMPLES // 2, 12), deadline=None, derandomize=not RANDOM,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenes(), st.sampled_from(["standard_move", "run"]),
       st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=6, max_size=6))
def test_every_point_inside_reach_is_accepted_by_validate_along_path_to(
        scene: dict[str, Any], action_type: str, samples: list[tuple[float, float]]) -> None:
    """Reach is sound: path_to(point) for any point of the area validates as legal."""
    state = state_from_json(scene)
    assume(not overlapping_start(state))
    assume(reach(state, "U", action_type).area.area > 0.01)
    reach_is_sound(state, action_type, samples, dice=[])


def test_reach_is_not_empty_for_a_walker_in_the_open() -> None:
    """A walker with Move 6 in the open reaches 6" ahead and, with its free turn, 6" to
    its side; behind it costs 2 of the 6 to turn about (180 - 90 free = 90 = 2")."""
    state = state_from_json({"system": "mswars", "table": {"width": 36, "height": 36},
                             "units": [{"id": "U", "side": "P1", "type": "walker", "move": 6,
                                        "base": {"shape": "circle", "diameter": 1},
                                        "position": [18, 18], "facing": 0}]})
    found = reach(state, "U")
    assert found.contains((23.9, 18)) and found.contains((18, 23.9))
    assert found.contains((14.1, 18)) and not found.contains((13.9, 18))
    assert found.area.area > 50


def test_reach_from_base_contact_leaves_the_touching_base_legally() -> None:
    """A base touching the mover where it starts may be left, never gone back into: every
    point of Break Away's reach (and of a Standard Move's, touching a friend) is legal."""
    for side, action_type in (("P2", "break_away"), ("P1", "standard_move")):
        state = state_from_json({
            "system": "mswars", "table": {"width": 36, "height": 36},
            "units": [{"id": "U", "side": "P1", "type": "walker", "move": 6,
                       "base": {"shape": "circle", "diameter": 1}, "position": [10, 10],
                       "facing": 0},
                      {"id": "E", "side": side, "type": "walker", "move": 6,
                       "base": {"shape": "circle", "diameter": 1}, "position": [11, 10],
                       "facing": 180}]})
        assert reach(state, "U", action_type).area.area > 20
        assert reach_is_sound(state, action_type, GRID) > 50


ACTION_TYPES = ["standard_move", "run", "climb", "break_away", "jump", "manoeuvre",
                "enter_unit", "carrier_unloading", "unit_exiting", "charge"]


@FAST
@given(scenes(), st.sampled_from(ACTION_TYPES), st.sampled_from([None, "O0", "O1", "U", "T0"]))
def test_validate_never_raises_for_a_well_formed_action(
        scene: dict[str, Any], action_type: str, target: str | None) -> None:
    """design.md: validate() never raises for an illegal move; it returns a Verdict with a
    code for every reason."""
    action = dict(scene["action"], type=action_type)
    if target is not None:
        action["target"] = target
        action["carrier"] = target
    if action_type == "carrier_unloading":
        action["unload"] = [{"unit": u["id"], "position": u["position"]}
                            for u in scene["units"][1:]]
    v = validate(state_from_json(scene), action, dice=[6] * 12, outcomes=[True] * 4)
    assert v.legal == (not v.reasons)
    assert all(r.code for r in v.reasons)
