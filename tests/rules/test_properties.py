"""Property tests (hypothesis), for every system with random scenes here: verdicts do not
depend on where the scene is or how it is turned; splitting a segment never changes the
cost; every point of reach is reachable (from base contact too). aod's scenes are built
here, mswars's in tests/rules/mswars/scenes.py."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from rules import reach, state_from_json, validate
from rules.geometry.bases import body_at
from tests.rules import scenes as builders
from tests.rules.mswars import scenes as mswars_scenes
from tests.rules.scenes import CENTRE, drawn_base, drawn_others, drawn_rectangles

#: PROP_N / PROP_RANDOM=1 widen the search by hand; the suite stays small and repeatable.
EXAMPLES = int(os.environ.get("PROP_N", 30))
RANDOM = bool(os.environ.get("PROP_RANDOM"))
FAST = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

coord = st.floats(-12, 12, allow_nan=False).map(lambda v: round(v, 3))
TERRAIN = ["hindering", "blocking", "shallow_water", "deep_water", "elevated"]
TYPES = ["mech", "infantry", "wheeled", "hover", "quad_mech"]


@st.composite
def scenes(draw: Any) -> dict[str, Any]:
    """A small scene around CENTRE on a big table (so that turning it keeps it on)."""
    terrain = drawn_rectangles(draw, coord, TERRAIN)
    rect = draw(st.booleans())
    base = drawn_base(draw, rect)
    units = [
        {
            "id": "U",
            "side": "P1",
            "type": draw(st.sampled_from(TYPES)),
            "move": 10,
            "base": base,
            "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
            "facing": draw(st.floats(0, 359)),
        }
    ]
    units += drawn_others(draw, coord, TYPES, move=6)
    path: list[Any] = []
    x, y = units[0]["position"]
    step = st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 3))
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()) and rect:
            path.append({"turn": draw(st.floats(-90, 90))})
        x, y = x + draw(step), y + draw(step)
        path.append([x, y])
    return {
        "system": "aod",
        "table": {"width": 120, "height": 120},
        "terrain": terrain,
        "units": units,
        "action": {"unit": "U", "type": "move", "path": path},
    }


def turned(scene: dict[str, Any], angle: float, dx: float, dy: float) -> dict[str, Any]:
    """The same scene rotated about CENTRE by `angle` degrees, then moved by (dx, dy)."""
    a = math.radians(angle)

    def p(q: list[float]) -> list[float]:
        x, y = q[0] - CENTRE[0], q[1] - CENTRE[1]
        return [
            CENTRE[0] + x * math.cos(a) - y * math.sin(a) + dx,
            CENTRE[1] + x * math.sin(a) + y * math.cos(a) + dy,
        ]

    out = dict(scene)
    out["terrain"] = [dict(t, polygon=[p(q) for q in t["polygon"]]) for t in scene["terrain"]]
    out["units"] = [
        dict(u, position=p(u["position"]), facing=(u["facing"] + angle) % 360)
        for u in scene["units"]
    ]
    path = [s if isinstance(s, dict) else p(s) for s in scene["action"]["path"]]
    out["action"] = dict(scene["action"], path=path)
    return out


def overlapping_start(state: Any) -> bool:
    """Positions where bases already overlap are not positions the table can reach."""
    bodies = [body_at(u.base, *u.position, u.facing) for u in state.units]
    return any(a.distance(b) < -0.01 for i, a in enumerate(bodies) for b in bodies[i + 1 :])


#: A 13 x 13 grid over reach's bounds, as fractions.
GRID = [(i / 12, k / 12) for i in range(13) for k in range(13)]


def same_verdict_turned_and_moved(
    judge: Callable[[dict[str, Any]], Any],
    scene: dict[str, Any],
    angle: float,
    dx: float,
    dy: float,
) -> None:
    """Only distances and angles relative to the facing matter (every system)."""
    a, b = judge(scene), judge(turned(scene, angle, dx, dy))
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)
    assert math.isclose(a.cost, b.cost, abs_tol=1e-6)


def split_last_segment(scene: dict[str, Any], f: float) -> dict[str, Any]:
    """The scene with its path's last straight segment split at fraction `f` of it."""
    path = scene["action"]["path"]
    start = scene["units"][0]["position"]
    last = next(s for s in reversed(path) if not isinstance(s, dict))
    i = path.index(last)
    prev = next((s for s in reversed(path[:i]) if not isinstance(s, dict)), start)
    mid = [prev[0] + (last[0] - prev[0]) * f, prev[1] + (last[1] - prev[1]) * f]
    return dict(scene, action=dict(scene["action"], path=path[:i] + [mid] + path[i:]))


def reach_is_sound(
    state: Any, action_type: str, samples: list[tuple[float, float]], dice: list[int] | None = None
) -> int:
    """Every sampled point (fractions of reach's bounds) inside the reach of unit "U" is
    reached by path_to's path, which validate accepts. How many points were inside."""
    found = reach(state, "U", action_type)
    minx, miny, maxx, maxy = found.area.bounds
    points = [(minx + (maxx - minx) * u, miny + (maxy - miny) * v) for u, v in samples]
    inside = [q for q in points if found.area.contains(Point(q))]
    for q in inside:
        path = found.path_to(q)
        assert path is not None, q
        steps = [s if isinstance(s, dict) else list(s) for s in path[1:]]
        v = validate(state, {"unit": "U", "type": action_type, "path": steps}, dice=dice)
        assert v.legal, (q, path, [r.message for r in v.reasons])
    return len(inside)


def judge(scene: dict[str, Any]) -> Any:
    state = state_from_json(scene)
    return validate(state, scene["action"], dice=[6] * 4)


@dataclass(frozen=True)
class Scenes:
    """A system's random scenes, how it judges their action, and its reachable actions."""

    draw: Callable[[], Any]
    judge: Callable[[dict[str, Any]], Any]
    reach_types: tuple[str, ...]
    #: Dice for validating a path reach gives (aod's charge-free moves roll nothing).
    reach_dice: list[int] | None = None


SYSTEMS = {
    "aod": Scenes(scenes, judge, ("move",), [6] * 2),
    "mswars": Scenes(mswars_scenes.scenes, mswars_scenes.judge, ("standard_move", "run")),
}
REACHES = [(system, t) for system, found in SYSTEMS.items() for t in found.reach_types]


@pytest.mark.parametrize("system", SYSTEMS)
@FAST
@given(st.data(), st.floats(0, 360), st.floats(-20, 20), st.floats(-20, 20))
def test_verdict_does_not_change_when_the_scene_is_turned_and_moved(
    system: str, data: Any, angle: float, dx: float, dy: float
) -> None:
    """aod section 4, mswars.md 4-5: only distances and angles relative to the facing
    matter, never where or which way the table lies."""
    same_verdict_turned_and_moved(
        SYSTEMS[system].judge, data.draw(SYSTEMS[system].draw()), angle, dx, dy
    )


@pytest.mark.parametrize("system", SYSTEMS)
@FAST
@given(st.data(), st.floats(0.05, 0.95))
def test_splitting_a_segment_into_collinear_pieces_never_changes_the_cost(
    system: str, data: Any, f: float
) -> None:
    """Cost is the sum over segments (aod 000 [32]; mswars MSW-D21, rate x length x
    factor): a collinear split adds nothing and changes no reason."""
    judge_scene = SYSTEMS[system].judge
    scene = data.draw(SYSTEMS[system].draw())
    a, b = judge_scene(scene), judge_scene(split_last_segment(scene, f))
    assert math.isclose(a.cost, b.cost, abs_tol=1e-9)
    assert a.legal == b.legal
    assert set(a.codes) == set(b.codes)


@pytest.mark.parametrize("system,action_type", REACHES)
@settings(
    max_examples=max(EXAMPLES // 2, 12),
    deadline=None,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.data(), st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=6, max_size=6))
def test_every_point_inside_reach_is_accepted_by_validate(
    system: str, action_type: str, data: Any, samples: list[tuple[float, float]]
) -> None:
    """Reach is sound: path_to(point) for any point of the area validates as legal."""
    state = state_from_json(data.draw(SYSTEMS[system].draw()))
    assume(not overlapping_start(state))
    assume(reach(state, "U", action_type).area.area > 0.01)
    reach_is_sound(state, action_type, samples, dice=SYSTEMS[system].reach_dice)


@pytest.mark.parametrize(
    "system,unit_type,side,action_type",
    [
        ("aod", "mech", "P2", "move"),
        ("mswars", "walker", "P2", "break_away"),
        ("mswars", "walker", "P1", "standard_move"),
    ],
)
def test_a_unit_in_base_contact_reaches_away_from_it_legally(
    system: str, unit_type: str, side: str, action_type: str
) -> None:
    """A base touching the mover where it starts may be left, never gone back into (aod
    section 5, mswars.md 4: Break Away, or a friend alongside). Reach is not empty, and
    every point of it is reached by a path validate accepts (the touching base once grew
    over the start and left no reach at all)."""
    state = builders.scene(
        [
            builders.unit("U", "P1", unit_type, move=6),
            builders.unit("E", side, unit_type, move=6, position=(11, 10), facing=180),
        ],
        system=system,
    )
    assert reach(state, "U", action_type).contains((7, 10))
    assert reach_is_sound(state, action_type, GRID, dice=SYSTEMS[system].reach_dice) > 50


ACTION_TYPES = [
    "move",
    "run",
    "ram",
    "charge",
    "dfa",
    "board",
    "disembark",
    "assault_full",
    "assault_half",
    "vent",
    "capture",
    "free_spin",
    "formation_move",
]


@FAST
@given(
    scenes(),
    st.sampled_from(ACTION_TYPES),
    st.booleans(),
    st.sampled_from([None, "O0", "O1", "U", "nobody"]),
)
def test_validate_never_raises_for_a_well_formed_action(
    scene: dict[str, Any], action_type: str, ranged: bool, target: str | None
) -> None:
    """design.md: validate() never raises for an illegal move; it returns a Verdict."""
    action = dict(scene["action"], type=action_type)
    if target is not None:
        action["target"] = target
    if action_type == "formation_move":
        action["moves"] = [{"unit": u["id"], "path": action["path"]} for u in scene["units"]]
    if action_type == "board":
        action["passengers"] = [u["id"] for u in scene["units"][1:]]
    if action_type == "disembark":
        action["passengers"] = [
            {"unit": u["id"], "position": u["position"]} for u in scene["units"][1:]
        ]
    if ranged:
        action["ranged_attack"] = True
    v = validate(state_from_json(scene), action, dice=[6] * 4, outcomes=[True] * 2)
    assert v.legal == (not v.reasons) or "breakaway_failed" in v.codes
    assert all(r.code for r in v.reasons)
