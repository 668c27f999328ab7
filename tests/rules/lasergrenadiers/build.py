"""Small builders for lasergrenadiers test positions (scenario-shaped dicts)."""

from __future__ import annotations

from typing import Any

from rules import Verdict, state_from_json, validate
from rules.engine.model import GameState


def piece(uid: str = "U", type: str = "foot", move: float = 6, position: Any = (10, 10),
          facing: float = 0, side: str = "P1", diameter: float = 1.0, **extra: Any
          ) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "side": side, "type": type, "move": move,
                           "base": {"shape": "circle", "diameter": diameter},
                           "position": list(position), "facing": facing}
    out.update(extra)
    return out


def vehicle(uid: str = "V", type: str = "tracked", move: float = 30, position: Any = (10, 10),
            facing: float = 0, side: str = "P1", **extra: Any) -> dict[str, Any]:
    out = piece(uid, type, move, position, facing, side, **extra)
    out["base"] = {"shape": "rect", "width": 2.0, "length": 3.0}
    return out


def area(tid: str, type: str, x0: float, y0: float, x1: float, y1: float,
         **extra: Any) -> dict[str, Any]:
    return {"id": tid, "type": type, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            **extra}


def board(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
          state: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
          width: float = 72, height: float = 48) -> GameState:
    return state_from_json({"system": "lasergrenadiers",
                            "table": {"width": width, "height": height,
                                      "options": options or {}},
                            "terrain": terrain or [], "units": units, "state": state or {}})


def act(state: GameState, unit: str = "U", path: list[Any] | None = None,
        type: str = "move", **keys: Any) -> Verdict:
    action: dict[str, Any] = {"unit": unit, "type": type, **keys}
    if path is not None:
        action["path"] = path
    return validate(state, action, dice=[])


def then(verdict: Verdict) -> GameState:
    """The state after a legal verdict."""
    assert verdict.legal, [r.message for r in verdict.reasons]
    assert verdict.state_after is not None
    return verdict.state_after
