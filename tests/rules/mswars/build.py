"""Builders for mswars test positions (scenario-shaped dicts -> GameState, verdicts)."""

from __future__ import annotations

from typing import Any

from rules import GameState, Verdict, state_from_json, validate


def mech(uid: str = "M1", type: str = "walker", move: float = 10, position: tuple[float, float]
         = (10, 10), facing: float = 0, side: str = "P1", diameter: float = 1.0,
         **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {"id": uid, "side": side, "type": type, "move": move,
                         "base": {"shape": "circle", "diameter": diameter},
                         "position": list(position), "facing": facing}
    u.update(extra)
    return u


def area(tid: str, type: str, x0: float, y0: float, x1: float, y1: float,
         **extra: Any) -> dict[str, Any]:
    t: dict[str, Any] = {"id": tid, "type": type,
                         "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    t.update(extra)
    return t


def position(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
             state: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
             width: float = 36, height: float = 36) -> dict[str, Any]:
    """The scenario-shaped JSON the table keeps (and the board asks about)."""
    return {"system": "mswars", "table": {"width": width, "height": height,
                                           "options": options or {}},
            "terrain": terrain or [], "units": units, "state": state or {}}


def board(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
          state: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
          width: float = 36, height: float = 36) -> GameState:
    return state_from_json(position(units, terrain, state, options, width, height))


def judge(state: GameState, path: list[Any], type: str = "standard_move", unit: str = "M1",
          dice: list[int] | None = None, outcomes: list[bool] | None = None,
          **keys: Any) -> Verdict:
    return validate(state, {"unit": unit, "type": type, "path": path, **keys},
                    dice=dice, outcomes=outcomes)
