"""Small builders for test positions (scenario-shaped dicts -> GameState)."""

from __future__ import annotations

from typing import Any

from rules import GameState, state_from_json

#: Where the property tests' scenes lie, on a big table (so that turning them keeps them on).
CENTRE = (60.0, 60.0)


def unit(uid: str, side: str = "P1", type: str = "mech", move: float = 10,
         position: tuple[float, float] = (10, 10), facing: float = 0, diameter: float = 1.0,
         **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {"id": uid, "side": side, "type": type, "move": move,
                         "base": {"shape": "circle", "diameter": diameter},
                         "position": list(position), "facing": facing}
    u.update(extra)
    return u


def rect_unit(uid: str, width: float, length: float, **kw: Any) -> dict[str, Any]:
    u = unit(uid, **kw)
    u["base"] = {"shape": "rect", "width": width, "length": length}
    return u


def square(tid: str, type: str, x0: float, y0: float, x1: float, y1: float,
           **extra: Any) -> dict[str, Any]:
    t: dict[str, Any] = {"id": tid, "type": type,
                         "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    t.update(extra)
    return t


def position(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
             state: dict[str, Any] | None = None, width: float = 36, height: float = 36,
             options: dict[str, Any] | None = None, system: str = "aod") -> dict[str, Any]:
    """The scenario-shaped JSON of a position (what the table keeps and the board reads)."""
    return {"system": system, "table": {"width": width, "height": height,
                                        "options": options or {}},
            "terrain": terrain or [], "units": units, "state": state or {}}


def scene(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
          state: dict[str, Any] | None = None, width: float = 36, height: float = 36,
          options: dict[str, Any] | None = None, system: str = "aod") -> GameState:
    return state_from_json(position(units, terrain, state, width, height, options, system))
