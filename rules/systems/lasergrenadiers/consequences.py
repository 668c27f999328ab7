"""What a lasergrenadiers action does besides moving, in a player's words, before the
drop (rules/engine/consequences.py; lasergrenadiers.md 8, 10, 11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.consequences import Consequence
from rules.model.state import GameState


def event_consequence(state: GameState, event: Mapping[str, Any]) -> Consequence | None:
    kind, uid = event.get("type"), str(event.get("unit", ""))
    if kind == "left_board":
        # Removed and counted as a loss against its owner, never to return, though not
        # destroyed (003 Leaving the board 1, lasergrenadiers.md 11).
        return Consequence(
            "loses_unit",
            f"{uid} leaves the board: it counts as a loss and may not return (Leaving the board)",
            uid,
            f"{uid} left the board (a loss)",
            "003 Leaving the board 1",
        )
    target = str(event.get("target", ""))
    if kind == "overrun":
        return Consequence(
            "removes_unit",
            f"{uid} overruns {target}: {target} is destroyed (Overrun attacks)",
            target,
            f"{uid} overran {target}",
            "003 Overrun attacks",
        )
    if kind == "overrun_failed":
        return Consequence(
            "effect",
            f"{target} survives the overrun in its foxhole: {event.get('why', '')}",
            target,
            cite="003 Overrun 5",
        )
    return None


def speed_band_consequence(band: str) -> Consequence:
    """The band fire at it and its own fire use: the allowance spent this turn, turning
    included, against the original rate (003 Movement and fire 1-2, LG-D11)."""
    return Consequence(
        "speed_band",
        f"Speed band for fire this turn: {band} (Movement and fire)",
        cite="003 Movement and fire",
    )
