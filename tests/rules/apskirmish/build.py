"""Builders for apskirmish test positions (scenario-shaped dicts -> GameState, verdicts)."""

from __future__ import annotations

from typing import Any

from rules import GameState, Verdict, validate
from rules.engine.dice import Dice
from tests.rules import scenes


def soldier(
    uid: str = "S1",
    position: tuple[float, float] = (10, 10),
    facing: float = 0,
    side: str = "P1",
    diameter: float = 1.0,
    **extra: Any,
) -> dict[str, Any]:
    u: dict[str, Any] = {
        "id": uid,
        "side": side,
        "type": "soldier",
        "base": {"shape": "circle", "diameter": diameter},
        "position": list(position),
        "facing": facing,
        "stats": {"PSQ": 6, "INS": 5},
    }
    u.update(extra)
    return u


#: A rectangular terrain feature (x0, y0) - (x1, y1).
area = scenes.square


def board(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    width: float = 36,
    height: float = 36,
) -> GameState:
    return scenes.scene(units, terrain, state, width, height, options, system="apskirmish")


def judge(
    state: GameState,
    type: str = "move",
    path: list[Any] | None = None,
    unit: str = "S1",
    dice: Dice | list[int] | None = None,
    outcomes: list[bool] | None = None,
    **keys: Any,
) -> Verdict:
    action: dict[str, Any] = {"unit": unit, "type": type, **keys}
    if path is not None:
        action["path"] = path
    return validate(state, action, dice=dice, outcomes=outcomes)


def after(verdict: Verdict, unit: str = "S1") -> dict[str, Any]:
    """The unit as the verdict leaves it (scenario JSON)."""
    assert verdict.state_after is not None
    found = verdict.state_after.unit(unit)
    assert found is not None
    return found.to_json()
