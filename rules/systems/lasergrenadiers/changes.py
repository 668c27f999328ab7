"""The state after a legal action: pieces moved, removed or put aboard, and the turn keys
`moved`, `transfers`, `left_board`, `translated` (lasergrenadiers.md 2, 9, 11)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.geometry.track import Pose
from rules.model.state import GameState, Unit
from rules.systems.lasergrenadiers.pieces import damage_level


def placed(unit: Unit, pose: Pose, z: float) -> Unit:
    """The piece at a new pose; it keeps no z when it had none and stays on the ground."""
    moved = unit.moved(pose.xy, pose.facing)
    return replace(moved, z=None if unit.z is None and abs(z) < 1e-9 else z)


def after(
    state: GameState,
    changed: Sequence[Unit] = (),
    *,
    spent: Mapping[str, float] | None = None,
    removed: Iterable[str] = (),
    left_board: Iterable[str] = (),
    transfers: list[dict[str, Any]] | None = None,
    translated: Iterable[str] = (),
) -> GameState:
    """`spent`: unit id -> allowance spent this turn (`state.moved`, turning included)."""
    gone = set(removed) | set(left_board)
    new = state.with_units(*changed)
    if gone:
        new = replace(new, units=tuple(u for u in new.units if u.id not in gone))
    turn: dict[str, Any] = {}
    if spent:
        turn["moved"] = {
            **state.turn.get("moved", {}),
            **{k: round(v, 6) for k, v in spent.items()},
        }
    if transfers is not None:
        turn["transfers"] = transfers
    leaving = list(left_board)
    if leaving:
        turn["left_board"] = [*state.turn.get("left_board", []), *leaving]
    # Only a vehicle damaged two levels needs to know it translated (003 Transport 6, LG-D35).
    marked = [
        uid
        for uid in translated
        if (u := state.unit(uid)) is not None
        and damage_level(u) == 2
        and uid not in state.turn.get("translated", [])
    ]
    if marked:
        turn["translated"] = [*state.turn.get("translated", []), *marked]
    return new.with_turn(**turn) if turn else new
