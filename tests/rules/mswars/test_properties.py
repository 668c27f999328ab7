"""Property tests for mswars beyond those every system shares (which
tests/rules/test_properties.py runs over mswars scenes too: invariance, collinear split,
reach soundness, reach from base contact): reach in the open, validate never raises, and
a rect beside another base reaches only ends the referee accepts."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point

from rules import reach, state_from_json, validate
from rules.engine.scenario import parse_base
from rules.geometry.bases import body_at
from tests.rules.mswars.scenes import scenes
from tests.rules.reach_sampling import judged_ends
from tests.rules.scenes import CENTRE
from tests.rules.test_properties import FAST


def test_reach_is_not_empty_for_a_walker_in_the_open() -> None:
    """A walker with Move 6 in the open reaches 6" ahead and, with its free turn, 6" to
    its side; behind it costs 2 of the 6 to turn about (180 - 90 free = 90 = 2")."""
    state = state_from_json(
        {
            "system": "mswars",
            "table": {"width": 36, "height": 36},
            "units": [
                {
                    "id": "U",
                    "side": "P1",
                    "type": "walker",
                    "move": 6,
                    "base": {"shape": "circle", "diameter": 1},
                    "position": [18, 18],
                    "facing": 0,
                }
            ],
        }
    )
    found = reach(state, "U")
    assert found.contains((23.9, 18)) and found.contains((18, 23.9))
    assert found.contains((14.1, 18)) and not found.contains((13.9, 18))
    assert found.area.area > 50


ACTION_TYPES = [
    "standard_move",
    "run",
    "climb",
    "break_away",
    "jump",
    "manoeuvre",
    "enter_unit",
    "carrier_unloading",
    "unit_exiting",
    "charge",
]


@FAST
@given(scenes(), st.sampled_from(ACTION_TYPES), st.sampled_from([None, "O0", "O1", "U", "T0"]))
def test_validate_never_raises_for_a_well_formed_action(
    scene: dict[str, Any], action_type: str, target: str | None
) -> None:
    """design.md: validate() never raises for an illegal move; it returns a Verdict with a
    code for every reason."""
    action = dict(scene["action"], type=action_type)
    if target is not None:
        action["target"] = target
        action["carrier"] = target
    if action_type == "carrier_unloading":
        action["unload"] = [
            {"unit": u["id"], "position": u["position"]} for u in scene["units"][1:]
        ]
    v = validate(state_from_json(scene), action, dice=[6] * 12, outcomes=[True] * 4)
    assert v.legal == (not v.reasons)
    assert all(r.code for r in v.reasons)


def _placed_at_gap(
    mover: dict[str, Any], other: dict[str, Any], bearing: float, gap: float
) -> list[float]:
    """Where `other`'s centre lies, along `bearing` from the mover's, `gap` from its base."""
    a = math.radians(bearing)
    x, y = mover["position"]

    def body(u: dict[str, Any], at: tuple[float, float]) -> Any:
        return body_at(parse_base(u["base"], "base"), at[0], at[1], u["facing"])

    near, far = 0.0, 20.0
    for _ in range(60):  # bodies are convex: the gap grows along the ray once apart
        mid = (near + far) / 2
        at = (x + mid * math.cos(a), y + mid * math.sin(a))
        near, far = (
            (mid, far) if body(mover, (x, y)).distance(body(other, at)) < gap else (near, mid)
        )
    return [x + far * math.cos(a), y + far * math.sin(a)]


@st.composite
def rect_beside_a_base(draw: Any) -> dict[str, Any]:
    """A rect mover (often long) and one other base, friend or foe, round or rect, beside
    it at a small gap: a friend may touch it, a foe stays out of contact (else only Break
    Away or Manoeuvre)."""
    facing = draw(st.floats(0, 359))
    mover = {
        "id": "U",
        "side": "P1",
        "type": draw(st.sampled_from(["walker", "four_legged_walker", "track", "wheel", "hover"])),
        "move": 8,
        "base": {
            "shape": "rect",
            "width": draw(st.sampled_from([1.0, 1.75, 2.0])),
            "length": draw(st.sampled_from([2.0, 3.0, 4.5, 6.0])),
        },
        "position": list(CENTRE),
        "facing": facing,
    }
    side = draw(st.sampled_from(["P1", "P2"]))
    other = {
        "id": "O",
        "side": side,
        "type": "walker",
        "move": 6,
        "base": draw(
            st.sampled_from(
                [
                    {"shape": "circle", "diameter": 1.0},
                    {"shape": "circle", "diameter": 2.0},
                    {"shape": "rect", "width": 1.0, "length": 2.0},
                ]
            )
        ),
        "facing": draw(st.floats(0, 359)),
    }
    gap = draw(st.floats(0.0 if side == "P1" else 0.011, 0.08))
    other["position"] = _placed_at_gap(mover, other, facing + draw(st.floats(0, 359)), gap)
    return {
        "system": "mswars",
        "table": {"width": 120, "height": 120},
        "units": [mover, other],
    }


#: Ends drawn along the edges of the wedges a unit that does not turn may take (the
#: contract's 1 degree about each axis, MSW-D5) and along the axes, every 0.5" (a run goes 16").
WEDGE_ENDS = [
    (axis + off, t / 2)
    for axis in (0, 180, 90, -90)
    for off in (-0.85, 0, 0.85)
    for t in range(1, 33)
]


@FAST
@given(rect_beside_a_base(), st.sampled_from(["standard_move", "run"]))
def test_a_rect_beside_another_base_reaches_only_ends_the_referee_accepts(
    scene: dict[str, Any], action_type: str
) -> None:
    """002 Rules: Movement: the swept base may not overlap another unit's base; a rect that
    may not turn where it stands (its corners would swing into the base beside it) goes
    along its axes within 1 degree (MSW-D5), keeping its facing, so a rect drifting 0.9
    degrees towards a base beside it may overlap it (reach shaded such ends while it kept
    the centre from that base by a circle round the start, not by the rect's own shape).
    Every shaded end drawn along the wedges' edges is reached by a path validate accepts."""
    state = state_from_json(scene)
    found = reach(state, "U", action_type)
    x, y = scene["units"][0]["position"]
    facing = scene["units"][0]["facing"]
    for bearing, t in WEDGE_ENDS:
        a = math.radians(facing + bearing)
        p = (x + t * math.cos(a), y + t * math.sin(a))
        if not found.area.contains(Point(p)):
            continue
        path = found.path_to(p)
        assert path is not None, p
        steps = [s if isinstance(s, dict) else list(s) for s in path[1:]]
        v = validate(state, {"unit": "U", "type": action_type, "path": steps})
        assert v.legal, (p, path, [r.message for r in v.reasons])


@st.composite
def unit_exiting_beside_a_base(draw: Any) -> dict[str, Any]:
    """A rect carrier with a unit aboard (round or rect, often wide enough that its rear
    is searched in two stretches) and another base behind its rear, anywhere along it and
    near: what a start swept along the rear may come near."""
    facing = draw(st.floats(0, 359))
    width = draw(st.sampled_from([2.0, 3.0, 4.5, 6.0]))
    carrier = {
        "id": "C",
        "side": "P1",
        "type": "track",
        "move": 6,
        "carrier": 2,
        "base": {"shape": "rect", "width": width, "length": 3},
        "position": list(CENTRE),
        "facing": facing,
    }
    rider = {
        "id": "U",
        "side": "P1",
        "type": draw(st.sampled_from(["walker", "track"])),
        "move": draw(st.sampled_from([4, 8])),
        "base": draw(
            st.sampled_from(
                [
                    {"shape": "circle", "diameter": 0.5},
                    {"shape": "circle", "diameter": 1.0},
                    {"shape": "rect", "width": 1.0, "length": 1.5},
                ]
            )
        ),
        "position": [0, 0],
        "facing": 0,
        "aboard": "C",
    }
    other_base = draw(
        st.sampled_from([{"shape": "circle", "diameter": 0.5}, {"shape": "circle", "diameter": 1}])
    )
    radius = other_base["diameter"] / 2
    behind = 1.5 + radius + draw(st.floats(0.02, 2.5))  # from the carrier's centre
    aside = draw(st.floats(-(width / 2 + 1.5), width / 2 + 1.5))
    f = math.radians(facing)
    x, y = CENTRE
    other = {
        "id": "O",
        "side": draw(st.sampled_from(["P1", "P2"])),
        "type": "walker",
        "move": 6,
        "base": other_base,
        "position": [
            x - behind * math.cos(f) - aside * math.sin(f),
            y - behind * math.sin(f) + aside * math.cos(f),
        ],
        "facing": 0,
    }
    return {
        "system": "mswars",
        "table": {"width": 120, "height": 120},
        "units": [carrier, rider, other],
    }


@FAST
@given(unit_exiting_beside_a_base())
def test_a_unit_exiting_reaches_only_ends_the_referee_accepts(scene: dict[str, Any]) -> None:
    """002 Unit Exiting Action, MSW-D35: the unit is set down touching the carrier's rear,
    then moves up to half Move; its swept base may not overlap another base, nor end on
    one (002 Rules: Movement). The reach searches each stretch of the rear at once, every
    start along it: a base near one end of a stretch must keep the ends from every start,
    not only the middle one's. Every shaded end is reached by the path and placement the
    reach gives, and validate accepts them."""
    state = state_from_json(scene)
    found = reach(state, "U", "unit_exiting")
    if found.area is None or found.area.is_empty:
        return
    judged_ends(state, "U", "unit_exiting", count=60, seed=0)  # each end judged legal there
