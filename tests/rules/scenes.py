"""Small builders for test positions (scenario-shaped dicts -> GameState)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from rules import GameState, state_from_json

#: Where the property tests' scenes lie, on a big table (so that turning them keeps them on).
CENTRE = (60.0, 60.0)


def unit(
    uid: str,
    side: str = "P1",
    type: str = "mech",
    move: float = 10,
    position: tuple[float, float] = (10, 10),
    facing: float = 0,
    diameter: float = 1.0,
    **extra: Any,
) -> dict[str, Any]:
    u: dict[str, Any] = {
        "id": uid,
        "side": side,
        "type": type,
        "move": move,
        "base": {"shape": "circle", "diameter": diameter},
        "position": list(position),
        "facing": facing,
    }
    u.update(extra)
    return u


def rect_unit(uid: str, width: float, length: float, **kw: Any) -> dict[str, Any]:
    u = unit(uid, **kw)
    u["base"] = {"shape": "rect", "width": width, "length": length}
    return u


def square(
    tid: str, type: str, x0: float, y0: float, x1: float, y1: float, **extra: Any
) -> dict[str, Any]:
    t: dict[str, Any] = {
        "id": tid,
        "type": type,
        "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
    }
    t.update(extra)
    return t


def position(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    width: float = 36,
    height: float = 36,
    options: dict[str, Any] | None = None,
    system: str = "aod",
) -> dict[str, Any]:
    """The scenario-shaped JSON of a position (what the table keeps and the board reads)."""
    return {
        "system": system,
        "table": {"width": width, "height": height, "options": options or {}},
        "terrain": terrain or [],
        "units": units,
        "state": state or {},
    }


def scene(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    width: float = 36,
    height: float = 36,
    options: dict[str, Any] | None = None,
    system: str = "aod",
) -> GameState:
    return state_from_json(position(units, terrain, state, width, height, options, system))


# -- random scenes for the property tests (hypothesis draws) --------------------------
#: Extra keys a drawn piece gets: key -> strategy, drawn per piece.
Extras = Mapping[str, SearchStrategy[Any]]


def drawn_rectangles(
    draw: Any,
    coord: SearchStrategy[float],
    types: Sequence[str],
    sizes: tuple[float, float] = (1.0, 6.0),
    extras: Mapping[str, Extras] | None = None,
) -> list[dict[str, Any]]:
    """Up to three axis-aligned terrain rectangles near CENTRE; `extras[type]` draws the
    keys a feature of that type needs (a slope's uphill bearing, a height)."""
    terrain = []
    for i in range(draw(st.integers(0, 3))):
        x, y = draw(coord), draw(coord)
        w, h = draw(st.floats(*sizes)), draw(st.floats(*sizes))
        t = square(
            f"T{i}",
            draw(st.sampled_from(list(types))),
            CENTRE[0] + x,
            CENTRE[1] + y,
            CENTRE[0] + x + w,
            CENTRE[1] + y + h,
        )
        for key, strategy in (extras or {}).get(t["type"], {}).items():
            t[key] = draw(strategy)
        terrain.append(t)
    return terrain


def drawn_base(
    draw: Any, rect: bool, diameters: Sequence[float] = (1.0, 1.25, 2.0)
) -> dict[str, Any]:
    """A 1" x 2" rectangle, or a round base of one of `diameters`."""
    return (
        {"shape": "rect", "width": 1.0, "length": 2.0}
        if rect
        else {"shape": "circle", "diameter": draw(st.sampled_from(list(diameters)))}
    )


def drawn_others(
    draw: Any,
    coord: SearchStrategy[float],
    types: Sequence[str],
    diameter: float = 1.25,
    **fields: Any,
) -> list[dict[str, Any]]:
    """Up to two other units of either side near CENTRE; `fields` are fixed values or
    strategies drawn per unit."""
    others = []
    for i in range(draw(st.integers(0, 2))):
        other: dict[str, Any] = {
            "id": f"O{i}",
            "side": draw(st.sampled_from(["P1", "P2"])),
            "type": draw(st.sampled_from(list(types))),
        }
        for key, value in fields.items():
            other[key] = draw(value) if isinstance(value, SearchStrategy) else value
        other.update(
            base={"shape": "circle", "diameter": diameter},
            position=[CENTRE[0] + draw(coord), CENTRE[1] + draw(coord)],
            facing=0,
        )
        others.append(other)
    return others


def drawn_heading_path(
    draw: Any, start: Sequence[float], facing: float, headings: Sequence[float]
) -> list[Any]:
    """One to three legs, each maybe after a turn, each heading one of `headings` off the
    facing (the directions a system allows)."""
    path: list[Any] = []
    x, y = start
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            turn = draw(st.floats(-170, 170).map(lambda v: round(v, 2)))
            path.append({"turn": turn})
            facing += turn
        heading = math.radians(facing + draw(st.sampled_from(list(headings))))
        step = draw(st.floats(0.5, 4))
        x, y = x + step * math.cos(heading), y + step * math.sin(heading)
        path.append([x, y])
    return path
