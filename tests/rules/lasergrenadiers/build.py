"""Small builders for lasergrenadiers test positions (scenario-shaped dicts)."""

from __future__ import annotations

from typing import Any

from rules import Verdict, validate
from rules.model.state import GameState
from tests.rules import scenes


def piece(
    uid: str = "U",
    type: str = "foot",
    move: float = 6,
    position: Any = (10, 10),
    facing: float = 0,
    side: str = "P1",
    diameter: float = 1.0,
    **extra: Any,
) -> dict[str, Any]:
    return scenes.unit(uid, side, type, move, position, facing, diameter, **extra)


def vehicle(
    uid: str = "V",
    type: str = "tracked",
    move: float = 30,
    position: Any = (10, 10),
    facing: float = 0,
    side: str = "P1",
    **extra: Any,
) -> dict[str, Any]:
    out = piece(uid, type, move, position, facing, side, **extra)
    out["base"] = {"shape": "rect", "width": 2.0, "length": 3.0}
    return out


#: A rectangular terrain feature (x0, y0) - (x1, y1).
area = scenes.square


def board(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    width: float = 72,
    height: float = 48,
) -> GameState:
    return scenes.scene(units, terrain, state, width, height, options, system="lasergrenadiers")


def act(
    state: GameState,
    unit: str = "U",
    path: list[Any] | None = None,
    type: str = "move",
    **keys: Any,
) -> Verdict:
    action: dict[str, Any] = {"unit": unit, "type": type, **keys}
    if path is not None:
        action["path"] = path
    return validate(state, action, dice=[])


def then(verdict: Verdict) -> GameState:
    """The state after a legal verdict."""
    assert verdict.legal, [r.message for r in verdict.reasons]
    assert verdict.state_after is not None
    return verdict.state_after
