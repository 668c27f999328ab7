"""Builders for mswars test positions: the shared scene builders (tests/rules/scenes.py)
with mswars defaults (a walker "M1"), and a verdict in one call."""

from __future__ import annotations

from typing import Any

from rules import GameState, Verdict, validate
from tests.rules import scenes

#: A rectangular terrain feature (x0, y0) - (x1, y1).
area = scenes.square


def mech(
    uid: str = "M1",
    type: str = "walker",
    move: float = 10,
    position: tuple[float, float] = (10, 10),
    facing: float = 0,
    side: str = "P1",
    diameter: float = 1.0,
    **extra: Any,
) -> dict[str, Any]:
    return scenes.unit(uid, side, type, move, position, facing, diameter, **extra)


def position(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    width: float = 36,
    height: float = 36,
) -> dict[str, Any]:
    """The scenario-shaped JSON the table keeps (and the board asks about)."""
    return scenes.position(units, terrain, state, width, height, options, system="mswars")


def board(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    width: float = 36,
    height: float = 36,
) -> GameState:
    return scenes.scene(units, terrain, state, width, height, options, system="mswars")


def judge(
    state: GameState,
    path: list[Any],
    type: str = "standard_move",
    unit: str = "M1",
    dice: list[int] | None = None,
    outcomes: list[bool] | None = None,
    **keys: Any,
) -> Verdict:
    return validate(
        state, {"unit": unit, "type": type, "path": path, **keys}, dice=dice, outcomes=outcomes
    )
