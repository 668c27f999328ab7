"""Property tests for lasergrenadiers (the aod versions are in tests/rules/test_properties.py,
whose helpers these reuse): verdicts do not depend on where the scene is or how it is
turned; splitting a straight segment at a collinear point never changes the cost; every
point reach claims is reached by a path validate accepts."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import reach, state_from_json, validate
from tests.rules.scenes import drawn_base, drawn_heading_path, drawn_others, drawn_rectangles
from tests.rules.test_properties import (
    CENTRE,
    EXAMPLES,
    FAST,
    RANDOM,
    overlapping_start,
    reach_is_sound,
    split_last_segment,
    turned,
)

coord = st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))
TERRAIN = [
    "soft",
    "slope",
    "river",
    "bridge",
    "road",
    "vegetation",
    "low_obstacle",
    "high_wall",
    "building",
    "ladder",
]
TYPES = ["foot", "jetpack", "crew_weapon", "grav", "hover", "tracked", "walker", "wheeled"]
#: Directions relative to the facing a step may take (diagonals included, LG-D12).
HEADINGS = [0.0, 180.0, 90.0, -90.0, 30.0, 150.0]


@st.composite
def scenes(draw: Any) -> dict[str, Any]:
    """A small scene around CENTRE on a big table and a path of turns and moves."""
    terrain = drawn_rectangles(
        draw,
        coord,
        TERRAIN,
        extras={"slope": {"uphill": st.sampled_from([0.0, 45.0, 100.0, 200.0])}},
    )
    base = drawn_base(draw, draw(st.booleans()))
    facing = draw(st.floats(0, 359))
    units = [
        {
            "id": "U",
            "side": "P1",
            "type": draw(st.sampled_from(TYPES)),
            "move": 12,
            "dual_drivers": draw(st.booleans()),
            "base": base,
            "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
            "facing": facing,
        }
    ]
    if draw(st.booleans()):
        units[0].update(damage_levels=draw(st.integers(1, 2)))
    units += drawn_others(draw, coord, TYPES, move=6)
    path = drawn_heading_path(draw, units[0]["position"], facing, HEADINGS)
    return {
        "system": "lasergrenadiers",
        "table": {"width": 120, "height": 120},
        "terrain": terrain,
        "units": units,
        "action": {"unit": "U", "type": "move", "path": path},
    }


def rotated(scene: dict[str, Any], angle: float, dx: float, dy: float) -> dict[str, Any]:
    """`turned`, with each slope's uphill bearing turned as well."""
    out = turned(scene, angle, dx, dy)
    out["terrain"] = [
        dict(t, uphill=(t["uphill"] + angle) % 360) if "uphill" in t else t for t in out["terrain"]
    ]
    return out


def judge(scene: dict[str, Any]) -> Any:
    return validate(state_from_json(scene), scene["action"], dice=[])


@FAST
@given(scenes(), st.floats(0, 360), st.floats(-20, 20), st.floats(-20, 20))
def test_verdict_does_not_change_when_the_scene_is_turned_and_moved(
    scene: dict[str, Any], angle: float, dx: float, dy: float
) -> None:
    """lasergrenadiers.md 3-6: only distances and angles relative to the facing (and to a
    slope's uphill bearing) matter."""
    a, b = judge(scene), judge(rotated(scene, angle, dx, dy))
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)
    assert math.isclose(a.cost, b.cost, abs_tol=1e-6)
    assert a.notes == b.notes


@FAST
@given(scenes(), st.floats(0.05, 0.95))
def test_splitting_a_segment_at_a_collinear_point_never_changes_the_cost(
    scene: dict[str, Any], f: float
) -> None:
    """LG-D4: cost is the sum over segments of length x factor / multiplier."""
    a, b = judge(scene), judge(split_last_segment(scene, f))
    assert math.isclose(a.cost, b.cost, abs_tol=1e-9)
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)


@settings(
    max_examples=max(EXAMPLES // 2, 12),
    deadline=None,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(scenes(), st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=6, max_size=6))
def test_every_point_inside_reach_is_accepted_by_validate_along_path_to(
    scene: dict[str, Any], samples: list[tuple[float, float]]
) -> None:
    """Reach is sound: path_to(point) for any point of the area validates as legal."""
    state = state_from_json(scene)
    assume(not overlapping_start(state))
    assume(reach(state, "U").area.area > 0.01)
    reach_is_sound(state, "move", samples, dice=[])


def test_reach_of_a_grav_tank_in_the_open_is_its_rate_less_the_turn() -> None:
    """A grav tank of 36" facing east: 60 degrees off its facing costs a third (12") of
    the rate, so it reaches 24" there and no further (LG-D1); straight ahead (within 1
    degree, no turn) its full 36", backward 18" (reverse x2)."""
    state = state_from_json(
        {
            "system": "lasergrenadiers",
            "table": {"width": 96, "height": 96},
            "units": [
                {
                    "id": "U",
                    "side": "P1",
                    "type": "grav",
                    "move": 36,
                    "base": {"shape": "circle", "diameter": 2},
                    "position": [48, 48],
                    "facing": 0,
                }
            ],
        }
    )
    found = reach(state, "U")
    a = math.radians(60)
    assert found.contains((48 + 23.8 * math.cos(a), 48 + 23.8 * math.sin(a)))
    assert not found.contains((48 + 24.2 * math.cos(a), 48 + 24.2 * math.sin(a)))
    assert found.contains((83.9, 48)) and not found.contains((84.1, 48))
    assert found.contains((30.1, 48)) and not found.contains((29.9, 48))
    path = found.path_to((83.9, 48.2))
    assert path is not None and len(path) == 2  # no turn
    assert validate(state, {"unit": "U", "type": "move", "path": [list(path[1])]}).legal
