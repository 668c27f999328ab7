"""Take-backs: a player asks to take back their last order before anyone else has acted;
the opponent (or the GM) accepts, and the order is undone by the GM's own undo, or
declines. Each step is an event, so the log, a replay and the record tell it all
(docs/protocol.md, "Take-backs"; what the log says now: takeback_log.py)."""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle, Event
from tabletop.models.battle import BattleStatus
from tabletop.services.errors import ServiceError
from tabletop.services.table import command, takeback_log, undo
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal
from tabletop.services.table.takeback_log import Logged, TakeBacks


def battle_takeback_ask(
    *, battle_id: int, actor: Actor, client_msg_id: str, order: int
) -> dict[str, Any]:
    """Asks the opponent to let `order` (the seq of the asker's last order) be taken back."""
    if actor.role != "player":
        # The GM needs nobody's leave: the GM's Undo takes any change back.
        message = "Spectators watch; they cannot change the table."
        if actor.is_gm:
            message = "The game master takes a change back with Undo, without asking."
        raise ServiceError(message, code="forbidden")

    def decide(battle: Battle) -> Change | Refusal:
        if battle.status != BattleStatus.ACTIVE:
            return Refusal([reason("battle_not_active", "The battle is not in play.")])
        now = takeback_log.take_backs(battle)
        waiting = now.request
        if waiting is not None:
            whose = "You have" if waiting.actor_id == actor.user_id else f"{waiting.actor} has"
            return Refusal(
                [
                    reason(
                        "takeback_pending",
                        f"{whose} asked to take back #{waiting.payload.get('order')} already; "
                        "wait for the answer.",
                    )
                ]
            )
        moved_on = _moved_on(battle, now, order, actor)
        if moved_on:
            return Refusal([moved_on])
        refused = now.why_not(actor.user_id)
        if refused:
            return Refusal([reason(*refused)])
        assert now.last is not None  # why_not refuses when there is no last change
        return Change("takeback", {"step": "asked", **_what(battle, now.last, actor)})

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def _moved_on(battle: Battle, now: TakeBacks, order: int, actor: Actor) -> dict | None:
    """Why `order` is not the last change to the table any more, in the asker's words."""
    last = now.last
    if last is not None and last.seq == order:
        return None
    if last is None or order > last.seq or order < 1:
        return reason("takeback_not_yours", f"There is no order #{order} to take back.")
    if last.actor_id == actor.user_id and last.kind in takeback_log.TAKEN_BACK:
        message = (
            f"You have given another order since (#{last.seq}); only that one may be taken back."
        )
    else:
        message = (
            f"{last.actor} has acted since (#{last.seq}); #{order} can no longer be taken back."
        )
    return reason("takeback_acted_since", message)


def _what(battle: Battle, order: Logged, actor: Actor) -> dict[str, Any]:
    """The request's keys: the order, and the side it was given for (whose opponent answers)."""
    what: dict[str, Any] = {"order": order.seq, "order_kind": order.kind}
    side = ""
    if order.kind == "act":
        action = order.payload.get("action") or {}
        what.update(unit=action.get("unit"), order_type=action.get("type"))
        units = battle.state.get("units", []) + order.payload.get("units", [])
        side = next((u.get("side", "") for u in units if u.get("id") == action.get("unit")), "")
    what["side"] = side or min(actor.sides, default="")
    return what


def battle_takeback_answer(
    *, battle_id: int, actor: Actor, client_msg_id: str, request: int, accept: bool
) -> dict[str, Any]:
    """The opponent's (or the GM's) answer to request `request`: accepted, the order is
    undone as the GM's undo does it; declined, it stays, and may not be asked again."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        asked = _waiting(battle, request)
        if isinstance(asked, Refusal):
            return asked
        if asked.actor_id == actor.user_id:
            return Refusal(
                [reason("not_the_opponent", "You asked; your opponent or the game master answers.")]
            )
        side = str(asked.payload.get("side", ""))
        if not actor.is_gm and not (actor.sides - {side}):
            return Refusal(
                [
                    reason(
                        "not_the_opponent",
                        f"Only {side}'s opponent or the game master answers "
                        f"{asked.actor}'s request.",
                    )
                ]
            )
        order = int(asked.payload.get("order", 0))
        told = {"request": request, "order": order, "asked_by": asked.actor}
        if not accept:
            return Change("takeback", {"step": "declined", **told})
        if battle.status != BattleStatus.ACTIVE:
            return Refusal([reason("battle_not_active", "The battle is not in play.")])
        target = Event.objects.get(battle=battle, seq=order)
        return undo.undoing(
            battle,
            target,
            f"Take-back: {actor.name} let {asked.actor} take back #{order}",
            takeback={"step": "accepted", **told},
        )

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def battle_takeback_withdraw(
    *, battle_id: int, actor: Actor, client_msg_id: str, request: int
) -> dict[str, Any]:
    """The asker withdraws their request (the order stays; they may ask again)."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        asked = _waiting(battle, request)
        if isinstance(asked, Refusal):
            return asked
        if asked.actor_id != actor.user_id:
            return Refusal(
                [reason("not_the_opponent", f"Only {asked.actor}, who asked, may withdraw it.")]
            )
        order = int(asked.payload.get("order", 0))
        return Change(
            "takeback",
            {"step": "withdrawn", "request": request, "order": order, "asked_by": asked.actor},
        )

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def _waiting(battle: Battle, request: int) -> Logged | Refusal:
    """The request `request` if it still waits, else the refusal that says what became of it."""
    asked = takeback_log.take_backs(battle).request
    if asked is not None and asked.seq == request:
        return asked
    return Refusal([reason("no_takeback_request", takeback_log.what_became_of(battle, request))])
