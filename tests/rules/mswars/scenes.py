"""Random mswars scenes for the property tests (tests/rules/test_properties.py runs the
checks every system shares over them; tests/rules/mswars/test_properties.py the rest)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from rules import state_from_json, validate
from tests.rules.scenes import CENTRE

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
