"""Every JSON frame the live table sends, built here and nowhere else (docs/protocol.md).

Table events are sent to the battle's groups only after the transaction that
wrote them has committed (`send_event_on_commit`): a client never sees an event
that a rollback could take back. Tests capture what would be sent by replacing
`deliver` (tests/live/helpers.py).
"""

import asyncio
import concurrent.futures
import json
import logging
import os
import time
from collections.abc import Iterable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from redis.exceptions import RedisError

from tabletop import limits, metrics
from tabletop.models import Event, EventRow
from tabletop.redis_clients import loop_client

PROTOCOL_VERSION = 1
#: How long a command's thread waits for its broadcast to be handed to the channel layer.
DELIVER_TIMEOUT_S = 5.0
logger = logging.getLogger(__name__)
#: Keys of an event's payload that stay on the server (positions before and after).
PRIVATE_PREFIX = "_"


# -- groups ----------------------------------------------------------------------


def players_group(battle_id: int) -> str:
    """The GM and the players: they get every event at once."""
    return f"battle-{battle_id}"


def watchers_group(battle_id: int) -> str:
    """Spectators: they get the same events, held back by the battle's delay."""
    return f"battle-{battle_id}-watch"


def user_group(user_id: int) -> str:
    """All of one user's sockets, at every table and in every process: told to read their
    rights again when those change (tabletop/services/table/rights.py)."""
    return f"user-{user_id}"


def channel_layer() -> BaseChannelLayer:
    """The default channel layer; the settings always name one (CHANNEL_LAYERS)."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("CHANNEL_LAYERS has no default layer")
    return layer


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server whose database thread this is (asgiref keeps it for
    `sync_to_async` threads), or None outside one (a management command, a test)."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return getattr(SyncToAsync.threadlocal, "main_event_loop", None)


def deliver(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Sends each (group, message) at once: one hop to the event loop for all of them.

    The wait is bounded (DELIVER_TIMEOUT_S): a process told to stop (SIGTERM) stops its
    event loop while a command may still be committing in the database thread, and
    `async_to_sync` would then wait for ever for a loop that never runs again, so the
    process never exited by itself. The event is committed either way; clients get
    it from the log (docs/protocol.md, Delivery guarantees)."""
    layer = channel_layer()

    async def send_all() -> None:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in sends))

    loop = _server_loop()
    try:
        if loop is None:
            async_to_sync(send_all)()
            return
        _deliver_in(loop, send_all)
    except LAYER_ERRORS as error:
        metrics.BROADCAST_FAILURES.inc()
        layer_failed(error)  # committed all the same: the clients read it from the log


def _deliver_in(loop: asyncio.AbstractEventLoop, send_all: Any) -> None:
    if loop.is_closed() or not loop.is_running():
        metrics.BROADCAST_FAILURES.inc()
        logger.warning("broadcast dropped: the server's event loop has stopped")
        return
    future = asyncio.run_coroutine_threadsafe(send_all(), loop)
    try:
        future.result(timeout=DELIVER_TIMEOUT_S)
    except concurrent.futures.TimeoutError:
        future.cancel()
        metrics.BROADCAST_FAILURES.inc()
        logger.warning(
            "broadcast dropped: the event loop did not run it within %ss", DELIVER_TIMEOUT_S
        )


# -- the channel layer's health (Redis) ------------------------------------------------

#: What the channel layer raises while Redis is down.
LAYER_ERRORS = (OSError, RedisError, TimeoutError)
_layer_down = False


def layer_failed(error: BaseException) -> None:
    """Notes that the channel layer failed: one log line for the outage, not one per
    socket, broadcast or reconnect attempt (docs/protocol.md, close code 4503)."""
    global _layer_down
    metrics.CHANNEL_LAYER_ERRORS.inc()
    if not _layer_down:
        _layer_down = True
        logger.error(
            "the channel layer (Redis) is unreachable: %s; new table sockets are closed "
            "with 4503 and broadcasts wait in the log until it answers again",
            error,
        )


def layer_ok() -> None:
    global _layer_down
    if _layer_down:
        _layer_down = False
        logger.warning("the channel layer (Redis) answers again")


class _OneLinePerOutage(logging.Filter):
    """channels-redis' pub/sub layer logs a traceback every second while Redis is down:
    the outage is logged once, by `layer_failed`, instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        error = record.exc_info[1] if record.exc_info else None
        layer_failed(error or RuntimeError(record.getMessage()))
        return False


logging.getLogger("channels_redis.pubsub").addFilter(_OneLinePerOutage())


async def layer_reachable() -> None:
    """Raises one of LAYER_ERRORS unless the channel layer's Redis answers. The pub/sub
    layer subscribes lazily and would accept a socket it cannot deliver to."""
    hosts = settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {}).get("hosts", [])
    if not hosts or not isinstance(hosts[0], str):
        return  # the in-memory layer (tests, a single process): nothing to reach
    await loop_client(hosts[0]).ping()


def canonical(value: Any) -> str:
    """A frame's one text: compact JSON, keys sorted, no NaN (what every socket and the
    records receive)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def wire(frame: dict[str, Any]) -> dict[str, Any]:
    """An event frame ready to send: serialized once here, not once per receiving socket."""
    return {"seq": frame["seq"], "at": frame["at"], "text": canonical(frame)}


def send_event_on_commit(battle_id: int, frame: dict[str, Any], delay_s: int) -> None:
    def send() -> None:
        message = {"type": "table.event", **wire(frame)}
        # Spectators learn the delay with each event (a `delay` event changes it for them).
        deliver(
            [
                (players_group(battle_id), message),
                (watchers_group(battle_id), {**message, "delay_s": delay_s}),
            ]
        )

    # Robust: the event is committed whatever happens to its broadcast (Redis restarting,
    # say). A failed send is logged and must not turn the sender's ack into an error;
    # the clients get the event from the log at the next event or ping.
    transaction.on_commit(send, robust=True)


def send_point(battle_id: int, frame: dict[str, Any], delay_s: int) -> None:
    """A ping to everyone at the table at once: the GM and players now; the spectators'
    sockets hold it their delay from `sent` (it has no seq to wait behind). Its text is
    written here, once, not by each receiving socket."""
    message = {"type": "table.point", "text": canonical(frame)}
    deliver(
        [
            (players_group(battle_id), message),
            (watchers_group(battle_id), {**message, "delay_s": delay_s, "sent": time.time()}),
        ]
    )


async def send_presence(battle_id: int, frame: dict[str, Any]) -> None:
    """Who is here, to everyone at the table: its text written once here (it names every
    socket's user, so at a table of 200 spectators each socket writing and the channel
    layer decoding its own copy cost more than the event itself)."""
    layer = channel_layer()
    message = {"type": "table.presence", "text": canonical(frame)}
    try:
        await layer.group_send(players_group(battle_id), message)
        await layer.group_send(watchers_group(battle_id), message)
    except LAYER_ERRORS as error:
        layer_failed(error)


# -- frames to one client ----------------------------------------------------------


def hello(*, user: str, role: str, sides: Iterable[str]) -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "you": {"user": user, "role": role, "sides": sorted(sides)},
        "limits": limits.as_json(),
    }


def snapshot(
    *,
    seq: int,
    status: str,
    state: dict[str, Any],
    turn: dict[str, Any],
    labels: dict[str, Any],
    hash: str,
    delay_s: int,
    chat: list[dict[str, Any]],
    dice: list[dict[str, Any]],
    annotations: list[dict[str, Any]],
    markers: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "seq": seq,
        "status": status,
        "state": state,
        "turn": turn,
        "labels": labels,
        "hash": hash,
        "delay_s": delay_s,
        "chat": chat,
        "dice": dice,
        "annotations": annotations,
        "markers": markers,
    }


def verdict(
    *, ref: str | None, seq: int, verdict: dict[str, Any], reach: Any = None
) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "verdict", "ref": ref, "seq": seq, "verdict": verdict}
    if reach is not None:
        frame["reach"] = reach
    return frame


def ack(*, id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "id": id, "seq": seq}


#: The table's own rules, by the code of the refusal they give, named for a player as the
#: engine names a game's (`rule`, docs/protocol.md "Reasons"); they cite no rulebook.
TABLE_RULES = {
    "stale": "One move at a time, table rules",
    "turn_already_ended": "Turn order, table rules",
    "not_your_turn": "Turn order, table rules",
    "battle_not_active": "Battle in play, table rules",
    "unknown_unit": "Who moves what, table rules",
    "not_your_unit": "Who moves what, table rules",
    "forbidden": "Who may do what, table rules",
    "nothing_to_undo": "Undo, table rules",
    "roll_pending": "The GM's rolls, table rules",
    "no_roll_pending": "The GM's rolls, table rules",
    "off_table": "Table edge, table rules",
    "unknown_annotation": "Drawing on the table, table rules",
    "not_your_annotation": "Drawing on the table, table rules",
    "too_many_annotations": "Drawing on the table, table rules",
    "unknown_marker": "Markers on pieces, table rules",
    "too_many_markers": "Markers on pieces, table rules",
    **dict.fromkeys(
        (
            "takeback_pending",
            "takeback_not_yours",
            "takeback_acted_since",
            "takeback_dice",
            "takeback_declined",
            "no_takeback_request",
            "not_the_opponent",
        ),
        "Take-backs, table rules",
    ),
}


def reason(code: str, message: str, at: Any = None) -> dict[str, Any]:
    """One reason the table refused a command, in the engine's Violation shape: the message
    in a player's words, then the table's rule it applies (`rule`). The engine's reasons
    (with its `rule` and `cite`) are passed on as they are, never rebuilt here."""
    return {"code": code, "message": message, "at": at, "rule": TABLE_RULES[code]}


def refusal_verdict(reasons: list[dict[str, Any]]) -> dict[str, Any]:
    """A table refusal (turn, ownership) in the engine's VERDICT shape, for previews."""
    return {
        "legal": False,
        "cost": 0,
        "allowance": 0,
        "reasons": reasons,
        "rolls": [],
        "events": [],
    }


def reject(
    *,
    id: str,
    seq: int,
    reasons: list[dict[str, Any]],
    verdict: dict[str, Any] | None,
    event: int | None = None,
) -> dict[str, Any]:
    """Refused. `event`: the seq of the event that records what the refusal still
    changed (a failed breakaway spends the order); None when nothing changed."""
    return {
        "type": "reject",
        "id": id,
        "seq": seq,
        "reasons": reasons,
        "verdict": verdict,
        "event": event,
    }


def error(code: str, message: str, *, field: str | None = None, ref: Any = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if code == "forbidden":  # a spectator acting, a player's GM command: a table rule
        frame["rule"] = TABLE_RULES[code]
    if field is not None:
        frame["field"] = field
    if ref is not None:
        frame["ref"] = ref
    return frame


def resumed(seq: int) -> dict[str, Any]:
    return {"type": "resumed", "seq": seq}


def delay(delay_s: int) -> dict[str, Any]:
    """A spectator's notice that the delay changed: sent at once, while the `delay` event
    itself comes the (new) delay late, so that the header never says "live" meanwhile."""
    return {"type": "delay", "delay_s": delay_s}


def pong() -> dict[str, Any]:
    return {"type": "pong"}


def point(*, user: str, role: str, at: list[float]) -> dict[str, Any]:
    """A ping: where `user` points on the table (transient: no seq, not in the log)."""
    return {"type": "point", "user": user, "role": role, "at": at}


def presence(rows: Iterable[tuple[str, str, int]]) -> dict[str, Any]:
    """rows: (user name, role, open connections)."""
    return {
        "type": "presence",
        "present": [
            {"user": user, "role": role, "connections": count} for user, role, count in rows
        ],
    }


# -- events ----------------------------------------------------------------------------


def event_payload(public: dict[str, Any], **private: Any) -> dict[str, Any]:
    """What an Event stores: the public keys, and private ones (prefixed) for the server."""
    return {**public, **{PRIVATE_PREFIX + k: v for k, v in private.items()}}


def event(ev: Event | EventRow) -> dict[str, Any]:
    """The frame of a stored event, as every client gets it (actor and role are in the payload)."""
    frame: dict[str, Any] = {
        "type": "event",
        "seq": ev.seq,
        "kind": ev.kind,
        "at": ev.created_at.isoformat().replace("+00:00", "Z"),
    }
    frame.update((k, v) for k, v in ev.payload.items() if not k.startswith(PRIVATE_PREFIX))
    return frame


def dice_entries(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The dice-log lines of an event frame: every roll it carries."""
    return [
        {"seq": frame["seq"], "actor": frame["actor"], **roll} for roll in frame.get("rolls", [])
    ]
