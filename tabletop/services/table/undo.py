"""`battle_undo`: the GM takes back the last change, as a new event; nothing is deleted."""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle, Event
from tabletop.services.table import command, log
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal

#: What an undo can take back: the position changes (an undo of an undo is not a redo).
UNDOABLE = ("act", "fiat", "turn")


def last_undoable(battle: Battle) -> Event | None:
    """The latest position change not yet undone (undos pop changes like a stack)."""
    undone = [
        p.get("undoes")
        for p in Event.objects.filter(battle=battle, kind="undo").values_list("payload", flat=True)
    ]
    return (
        Event.objects.filter(battle=battle, kind__in=UNDOABLE)
        .exclude(seq__in=undone)
        .order_by("-seq")
        .first()
    )


def battle_undo(
    *, battle_id: int, actor: Actor, client_msg_id: str, reason_text: str
) -> dict[str, Any]:
    command.require_gm(actor)

    def decide(battle: Battle) -> Change | Refusal:
        target = last_undoable(battle)
        if target is None:
            return Refusal([reason("nothing_to_undo", "There is nothing left to undo.")])
        return undoing(battle, target, reason_text)

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def undoing(battle: Battle, target: Event, reason_text: str, **public: Any) -> Change:
    """The `undo` event that takes `target` back: the position before it, as the log
    reads it. The GM's undo and an accepted take-back (takeback.py, with its own keys)
    are one."""
    before = log.position_before(battle, target.seq)
    return Change(
        "undo",
        {"undoes": target.seq, "reason": reason_text, **public},
        state=before["state"],
        turn=before["turn"],
    )
