"""Each kind of frame a service answers, to its service, and the answer frame it gets
(sync: runs in a database or engine thread)."""

from collections.abc import Callable
from typing import Any

from tabletop import events, protocol
from tabletop.services.errors import ServiceError
from tabletop.services.table import (
    act,
    annotations,
    chat,
    command,
    dice,
    gm,
    pending_roll,
    piece_markers,
    point,
    preview,
    rights,
    sight,
    takeback,
    turn_end,
    undo,
)
from tabletop.services.table.actor import Actor


def _preview(d: dict[str, Any]) -> tuple[Callable, dict]:
    return preview.battle_preview, {
        "action": d["action"],
        "reach": d.get("reach", False),
        "alternative": d.get("alternative", False),
    }


def _sight(d: dict[str, Any]) -> tuple[Callable, dict]:
    return sight.battle_sight, {"origin": d["from"], "target": d["to"]}


#: The frames a service answers: frame type -> (service, its arguments from the frame).
SERVICES: dict[str, Callable[[dict[str, Any]], tuple[Callable, dict[str, Any]]]] = {
    "preview": _preview,
    "sight": _sight,
    "act": lambda d: (act.battle_act, {"seen": d["seen"], "action": d["action"]}),
    "chat": lambda d: (chat.battle_chat, {"text": d["text"]}),
    "roll": lambda d: (
        dice.battle_roll,
        {"count": d["dice"], "sides": d["sides"], "what": d.get("what", "")},
    ),
    "end_turn": lambda d: (turn_end.battle_end_turn, {"seen": d.get("seen")}),
    "end_phase": lambda d: (
        turn_end.battle_end_turn,
        {"seen": d.get("seen"), "phase_only": True},
    ),
    "undo": lambda d: (undo.battle_undo, {"reason_text": d["reason"]}),
    "fiat": lambda d: (
        gm.battle_fiat,
        {
            "unit_id": d["unit"],
            "position": d["position"],
            "facing": d.get("facing"),
            "reason_text": d.get("reason", ""),
        },
    ),
    "set_delay": lambda d: (gm.battle_set_delay, {"seconds": d["seconds"]}),
    "roll_result": lambda d: (pending_roll.battle_roll_result, {"result": d["result"]}),
    "annotate": lambda d: (annotations.battle_annotate, {"shape": d["shape"]}),
    "erase": lambda d: (annotations.battle_erase, {"annotation": d["annotation"]}),
    "mark": lambda d: (
        piece_markers.battle_mark,
        {"unit": d["unit"], "text": d["text"], "colour": d["colour"]},
    ),
    "unmark": lambda d: (piece_markers.battle_unmark, {"marker": d["marker"]}),
    "point": lambda d: (point.battle_point, {"at": d["at"]}),
    "takeback_ask": lambda d: (takeback.battle_takeback_ask, {"order": d["order"]}),
    "takeback_answer": lambda d: (
        takeback.battle_takeback_answer,
        {"request": d["request"], "accept": d["accept"]},
    ),
    "takeback_withdraw": lambda d: (takeback.battle_takeback_withdraw, {"request": d["request"]}),
}
#: Frames answered by a broadcast alone (the sender is at the table, so it gets it too).
BROADCAST_ONLY = frozenset({"point"})


def serve(frame: protocol.Frame, *, battle_id: int, actor: Actor) -> dict[str, Any] | None:
    """The answer frame to a service frame, or None when the broadcast is the answer."""
    service, kwargs = SERVICES[frame.type](frame.data)
    if frame.type in BROADCAST_ONLY:
        service(battle_id=battle_id, actor=actor, **kwargs)
        return None
    if frame.type == "preview":
        answer = service(battle_id=battle_id, actor=actor, **kwargs)
        offer = answer.pop("alternative", None)
        reply = events.verdict(ref=frame.data.get("ref"), **answer)
        if offer is not None:
            reply["alternative"] = offer
        return reply
    if frame.type == "sight":
        answer = service(battle_id=battle_id, actor=actor, **kwargs)
        return {"type": "sight", "ref": frame.data.get("ref"), **answer}
    with command.answering({"type": frame.type, **frame.data}):
        return service(battle_id=battle_id, actor=actor, client_msg_id=frame.data["id"], **kwargs)


#: Frames served on the rights last read for the seat, which their one statement checks
#: (rights.assumable; one_trip.py): a move, or an end of turn, is then one round trip on
#: PostgreSQL.
UNREAD_RIGHTS_FRAMES = frozenset({"act", "end_turn", "end_phase"})


def serve_now(
    frame: protocol.Frame, *, battle_id: int, user: rights.Seat
) -> tuple[Actor | int, dict[str, Any] | ServiceError | None]:
    """(the user's actor now or the code to close with, the answer or the refusal): the
    login session and the role are read again for every frame, in the same thread as
    the service, so that a change reaches open sockets. A move is served on the rights
    last read instead, which its statement checks before it writes; if they changed, it
    wrote nothing and is served again on the rights as they are now."""
    assumed = rights.assumable(user, battle_id) if frame.type in UNREAD_RIGHTS_FRAMES else None
    if assumed is not None:
        try:
            with rights.assuming(assumed):
                answer = _served(frame, battle_id, assumed.actor)
            assumed.confirm()  # a refusal made before any statement: its rights read now
            return assumed.actor, answer
        except rights.RightsChanged as changed:
            now = changed.now
    else:
        now = rights.socket_rights(user, battle_id)
    if not isinstance(now, Actor):
        return now, ServiceError("You are no longer at this table.", code="forbidden")
    return now, _served(frame, battle_id, now)


def _served(
    frame: protocol.Frame, battle_id: int, actor: Actor
) -> dict[str, Any] | ServiceError | None:
    try:
        return serve(frame, battle_id=battle_id, actor=actor)
    except ServiceError as refusal:
        return refusal
