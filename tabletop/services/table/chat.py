"""`battle_chat`: a line of table talk, in the event log like everything else."""

from typing import Any

from tabletop.services.table import command
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change


def battle_chat(*, battle_id: int, actor: Actor, client_msg_id: str, text: str) -> dict[str, Any]:
    return command.run(
        battle_id=battle_id,
        actor=actor,
        client_msg_id=client_msg_id,
        decide=lambda battle: Change("chat", {"text": text}),
    )
