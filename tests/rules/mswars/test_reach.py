"""Reach for M.S. Wars (issue 20: every legal end lies in its reach, every shaded point is a
legal end along the path the engine gives)."""

from __future__ import annotations

from typing import Any

from rules import reach, state_from_json, validate


def scene(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None,
          state: dict[str, Any] | None = None) -> Any:
    return state_from_json({"system": "mswars", "table": {"width": 48, "height": 48},
                            "terrain": terrain or [], "units": units, "state": state or {}})


def walker(uid: str = "U", position: Any = (10, 10), facing: float = 0, move: float = 12,
           side: str = "P1", diameter: float = 2, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": "walker", "move": move,
            "base": {"shape": "circle", "diameter": diameter}, "position": list(position),
            "facing": facing, **extra}


def legal_along(state: Any, unit: str, end: tuple[float, float],
                action_type: str = "standard_move", **keys: Any) -> bool:
    found = reach(state, unit, action_type)
    path = found.path_to(end)
    steps = [dict(s) if isinstance(s, dict) else list(s) for s in (path or [])[1:]]
    return path is not None and validate(state, {"unit": unit, "type": action_type,
                                                 "path": steps, **keys}).legal


def test_a_low_feature_under_the_quarter_rule_is_crossed_as_very_difficult() -> None:
    # 002 Terrain, MSW-D16: an SC 1 feature (2.5" high) is Very Difficult for an SC 8
    # walker, not a barrier: 2" flat + 2" x 4 + 2" flat = 12 of 12, and the flat ground
    # beyond it costs 1 an inch again.
    low = {"id": "B1", "type": "elevated", "height": 2.5,
           "polygon": [[12, 5], [14, 5], [14, 15], [12, 15]]}
    state = scene([walker(size_class=8)], [low])
    found = reach(state, "U")
    assert found.complete
    assert found.contains((15.7, 10)) and not found.contains((16.1, 10))
    assert legal_along(state, "U", (15.7, 10))
