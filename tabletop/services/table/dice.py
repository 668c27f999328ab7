"""Dice rolled on the server with `secrets`, stored in their event: the dice log."""

import secrets
from typing import Any

from tabletop.services.table import command
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change


def roll(count: int, sides: int, what: str) -> list[dict[str, Any]]:
    """`count` dice of `sides` faces; the dice log's shape (the engine's Roll, no target)."""
    return [
        {
            "what": what,
            "die": f"d{sides}",
            "result": secrets.randbelow(sides) + 1,
            "needed": "",
            "success": None,
        }
        for _ in range(count)
    ]


def battle_roll(
    *, battle_id: int, actor: Actor, client_msg_id: str, count: int, sides: int, what: str = ""
) -> dict[str, Any]:
    """A free roll (attacks, morale: what the engine does not resolve), for everyone to see."""
    command.require_player(actor)
    return command.run(
        battle_id=battle_id,
        actor=actor,
        client_msg_id=client_msg_id,
        # Rolled inside the transaction, after the resend check: a resend never rerolls.
        decide=lambda battle: Change("roll", {"what": what, "rolls": roll(count, sides, what)}),
    )
