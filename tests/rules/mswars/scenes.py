"""Random mswars scenes for the property tests (tests/rules/test_properties.py runs the
checks every system shares over them; tests/rules/mswars/test_properties.py the rest)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules import state_from_json, validate
from tests.rules.scenes import (
    CENTRE,
    drawn_base,
    drawn_heading_path,
    drawn_others,
    drawn_rectangles,
)

coord = st.floats(-10, 10, allow_nan=False).map(lambda v: round(v, 3))
TERRAIN = [
    "rough",
    "difficult",
    "very_difficult",
    "shallow_water",
    "deep_water",
    "woodland",
    "river",
    "desert",
    "elevated",
]
TYPES = ["walker", "four_legged_walker", "track", "wheel", "hover"]
#: Directions relative to the facing a step may take (diagonal ones are refused).
HEADINGS = [0.0, 180.0, 90.0, -90.0, 30.0]


@st.composite
def scenes(draw: Any) -> dict[str, Any]:
    """A small mswars scene around CENTRE on a big table, and a path of turns and moves
    along the unit's axes (the moves mswars allows)."""
    terrain = drawn_rectangles(
        draw, coord, TERRAIN, extras={"elevated": {"height": st.sampled_from([1.0, 3.0, 6.0])}}
    )
    base = drawn_base(draw, draw(st.booleans()))
    facing = draw(st.floats(0, 359))
    units = [
        {
            "id": "U",
            "side": "P1",
            "type": draw(st.sampled_from(TYPES)),
            "move": 10,
            "size_class": draw(st.integers(0, 5)),
            "infantry": draw(st.booleans()),
            "base": base,
            "position": [CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
            "facing": facing,
        }
    ]
    units += drawn_others(draw, coord, TYPES, move=6, size_class=st.integers(0, 5))
    path = drawn_heading_path(draw, units[0]["position"], facing, HEADINGS)
    return {
        "system": "mswars",
        "table": {"width": 120, "height": 120},
        "terrain": terrain,
        "units": units,
        "action": {"unit": "U", "type": "standard_move", "path": path},
    }


def judge(scene: dict[str, Any]) -> Any:
    return validate(state_from_json(scene), scene["action"], dice=[6] * 12, outcomes=[])
