"""The live table's websocket (docs/protocol.md). Thin: parse a frame, call a service, reply.

What the consumer itself owns is delivery to its one client: events in `seq`
order without gaps or repeats (a gap, from two processes' broadcasts crossing
in Redis, is filled from the log), the spectators' delay, the rate limit.
"""

import asyncio
import collections
import concurrent.futures
import logging
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.db import database_sync_to_async as db
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import User
from django.db import connection

from tabletop import events, limits, metrics, protocol, selectors
from tabletop.models import Role
from tabletop.services.errors import ServiceError
from tabletop.services.table import (
    act,
    annotations,
    chat,
    command,
    dice,
    engine_budget,
    gm,
    log,
    pending_roll,
    piece_markers,
    point,
    presence,
    preview,
    rights,
    sight,
    sockets,
    takeback,
    turn_end,
    undo,
)
from tabletop.services.table.actor import Actor, actor_for

logger = logging.getLogger(__name__)
#: How often a busy socket refreshes its presence row (the timeout is 90 s).
PRESENCE_REFRESH_S = 20.0
PRESENCE_COALESCE_S = 0.25
#: A socket that only receives broadcasts reads its rights again at least this often (the
#: notice of a change is the prompt way; this is for one lost on the way).
RIGHTS_RECHECK_S = 30.0
#: A `ping` reads the rights again if the last read is this old: a flood of pings costs
#: no more than one read a second (a `resume` always reads them).
PING_RECHECK_S = 1.0
#: Pings one delayed spectator's socket holds back at most (a pulse is no record).
HELD_PINGS = 100
#: (event loop, battle id) with an announcement pending in this process; the tasks.
_announcing: set[tuple[asyncio.AbstractEventLoop, int]] = set()
_announcements: set[asyncio.Future] = set()


#: Frames whose answer is the rules engine's work, charged to the user's engine budget.
ENGINE_FRAMES = frozenset({"preview", "act", "sight", "roll_result"})
#: Of those, the ones that write nothing: answered in a task of their own, so that the
#: socket's next frames are checked when they arrive (issue 15).
ENGINE_TASKS = frozenset({"preview", "sight"})
ENGINE_SPENT = "Your share of the rules engine's time is spent; wait a moment."
#: The engine's threads for previews (and sight): a slow judgement holds up neither the
#: event loop nor the database thread that every other table's frames use
#: (docs/protocol.md, Limits per user).
ENGINE_POOL = concurrent.futures.ThreadPoolExecutor(
    max_workers=limits.ENGINE_WORKERS, thread_name_prefix="table-engine"
)
#: The threads that judge and commit acts on PostgreSQL: a queue of their own, so that a
#: move never waits behind previews, however many fill ENGINE_POOL (issue 21).
ENGINE_ACT_POOL = concurrent.futures.ThreadPoolExecutor(
    max_workers=limits.ACT_WORKERS, thread_name_prefix="table-act"
)


# The engine's threads share the GIL with the event loop: a judgement running there makes
# the loop wait up to the switch interval each time it takes the GIL back (a ping needs
# it several times). Python's default is 5 ms; 1 ms keeps other tables' frames quick.
sys.setswitchinterval(min(sys.getswitchinterval(), 0.001))


def engine_thread(
    fn: Callable, pool: concurrent.futures.ThreadPoolExecutor = ENGINE_POOL
) -> Callable:
    """`fn` run in one of the engine's pools, its database connection handled as Channels
    does for its own database thread (closed when old)."""
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=pool)


def _signed_in(scope: Mapping[str, Any]) -> User | None:
    """The socket's account; None for a visitor who is not signed in (AuthMiddlewareStack
    puts a lazy User or AnonymousUser in the scope: tabletop/asgi.py)."""
    user = scope.get("user")
    return user if isinstance(user, User) else None


def _seq_in_query(scope: Mapping[str, Any]) -> int | None:
    """`?seq=N` on the socket's URL: resume from N instead of a fresh snapshot."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("seq", [])
    if values and values[0].isdigit() and len(values[0]) <= 16:
        return int(values[0])
    return None


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
    """The answer frame to a service frame, or None when the broadcast is the answer
    (sync: runs in the database thread)."""
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


def timed_serve(
    frame: protocol.Frame, *, battle_id: int, user: rights.Seat
) -> tuple[float, Actor | int, dict[str, Any] | ServiceError | None]:
    """`serve_now`, and the CPU milliseconds it took in this thread: the engine's time,
    which the user's budget is charged (not the time spent waiting, for the battle row's
    lock or the database, which costs the process nothing)."""
    started = time.thread_time()
    actor, answer = serve_now(frame, battle_id=battle_id, user=user)
    return (time.thread_time() - started) * 1000, actor, answer


def _engine_pool(frame_type: str) -> concurrent.futures.ThreadPoolExecutor | None:
    """Where an engine frame is judged: previews (and sight) always in ENGINE_POOL. Acts
    write: on PostgreSQL the battle row's lock orders them from any thread, and they have
    their own pool; SQLite has no such lock, and one writer thread (the database thread,
    None here) keeps them in order. Either way no act queues behind a preview."""
    if frame_type in ENGINE_TASKS:
        return ENGINE_POOL
    return ENGINE_ACT_POOL if connection.vendor == "postgresql" else None


def serve_now(
    frame: protocol.Frame, *, battle_id: int, user: rights.Seat
) -> tuple[Actor | int, dict[str, Any] | ServiceError | None]:
    """(the user's actor now or the code to close with, the answer or the refusal): the
    login session and the role are read again for every frame (sync: runs in a database
    thread), so that a change reaches open sockets."""
    actor = rights.socket_rights(user, battle_id)
    if not isinstance(actor, Actor):
        return actor, ServiceError("You are no longer at this table.", code="forbidden")
    try:
        return actor, serve(frame, battle_id=battle_id, actor=actor)
    except ServiceError as refusal:
        return actor, refusal


class DirectDispatchMixin:
    """Dispatches each message straight to its handler.

    Channels (4.2 and later) first hops to the database thread to close stale
    connections before every message a consumer handles. Here every database call
    already goes through `database_sync_to_async`, which does that itself, so the hop
    is pure cost, and on a broadcast it is paid once per socket, one after another in
    that one thread: 200 spectators meant 200 hops per event (docs/benchmarks.md).
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


#: How long a new socket waits for Redis before it is closed with 4503.
LAYER_WAIT_S = 1.0


class PatientLayer:
    """The channel layer, but its `receive` waits out a Redis outage (retrying each
    second) instead of raising: the list layer's receive fails at once while Redis is
    down, and that ended the socket's consumer with a traceback (an HTTP 500 for a new
    socket) instead of the close code 4503 (issue 15)."""

    def __init__(self, layer: Any) -> None:
        self._layer = layer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._layer, name)

    async def new_channel(self, prefix: str = "specific.") -> str:
        # The pub/sub layer subscribes here, and retries for ever while Redis is down.
        try:
            return str(await asyncio.wait_for(self._layer.new_channel(prefix), LAYER_WAIT_S))
        except (*events.LAYER_ERRORS, TimeoutError) as error:
            events.layer_failed(error)
            return f"{prefix}unsubscribed.{uuid.uuid4().hex}"  # connect() closes with 4503

    async def receive(self, channel: str) -> dict[str, Any]:
        while True:
            try:
                return await self._layer.receive(channel)
            except events.LAYER_ERRORS as error:
                events.layer_failed(error)
                await asyncio.sleep(1)


class TableConsumer(DirectDispatchMixin, AsyncWebsocketConsumer):
    """One connection to one battle's table, for a member of its campaign."""

    @property
    def channel_layer(self) -> Any:
        return self._channel_layer

    @channel_layer.setter
    def channel_layer(self, layer: Any) -> None:
        # Channels sets it when a socket opens; a Redis outage must not crash the socket.
        self._channel_layer = None if layer is None else PatientLayer(layer)

    async def connect(self) -> None:
        self.battle_id = int(self.scope["url_route"]["kwargs"]["battle_id"])
        self.actor = None
        self.revoked = self.placed = False
        user = _signed_in(self.scope)
        found = (
            None if user is None else await db(selectors.battle_membership)(user, self.battle_id)
        )
        if user is None or found is None:
            # Anonymous, not a member, or no such battle: the same refusal for all,
            # so that ids of other campaigns' battles leak nothing.
            await self.close(code=limits.CLOSE_FORBIDDEN)
            return
        battle, membership = found
        self.closed = False
        self.seat = rights.Seat(user.pk, self.scope["session"].session_key)
        self.rights_at = time.monotonic()
        self.rights_task: asyncio.Future | None = None
        # A place under the user's cap, taken atomically before the handshake completes.
        try:
            claimed = await sockets.claim(self.battle_id, self.seat.user_id, self.channel_name)
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)
            await self.accept_and_close(limits.CLOSE_LAYER_DOWN)
            return
        if not claimed:
            await self.accept_and_close(limits.CLOSE_TOO_MANY_SOCKETS)
            return
        self.placed = True
        self.actor = await db(actor_for)(battle, user, membership)
        self.user = limits.user_limits(self.actor.user_id)
        self.engine_jobs: set[asyncio.Future] = set()
        #: Pings held back for a delayed spectator (table_point), cancelled on close.
        self.held_pings: set[asyncio.Future] = set()
        self.watching = self.actor.role == Role.SPECTATOR
        self.bucket = limits.TokenBucket()
        self.abuse = limits.AbuseMeter()
        self.queued_seq = 0
        #: Events held back for a delayed spectator: (release time, seq, text), in order.
        self.pending: collections.deque[tuple[float, int, str]] = collections.deque()
        self.drain: asyncio.Task | None = None
        self.touched = time.monotonic()
        self._delay_s = battle.spectator_delay_s
        self.group = (
            events.watchers_group(self.battle_id)
            if self.watching
            else events.players_group(self.battle_id)
        )
        # Join before reading the snapshot: nothing committed in between is missed.
        try:
            await events.layer_reachable()
            await self.channel_layer.group_add(self.group, self.channel_name)
            # Told when the user's rights change (rights.rights_changed).
            await self.channel_layer.group_add(
                events.user_group(self.seat.user_id), self.channel_name
            )
        except events.LAYER_ERRORS as error:
            # Redis is down: a socket that would get no broadcast is closed with a code the
            # board understands (it says the table is degraded and retries), not HTTP 500.
            events.layer_failed(error)
            limits.release(self.actor.user_id)
            self.actor = None
            await self.release_place()
            await self.accept_and_close(limits.CLOSE_LAYER_DOWN)
            return
        events.layer_ok()
        await self.accept()
        self.counted = True
        metrics.SOCKETS.inc()
        hello = events.hello(user=self.actor.name, role=self.actor.role, sides=self.actor.sides)
        if self.actor.is_gm:
            # The GM's delay field shows the setting in force after a reload; the GM's own
            # snapshot is live (delay_s 0) and so cannot tell it.
            hello["spectator_delay_s"] = battle.spectator_delay_s
        await self.send_json(hello)
        await self.resume(_seq_in_query(self.scope))
        await db(presence.connection_open)(
            battle_id=self.battle_id, actor=self.actor, channel_name=self.channel_name
        )
        await self.announce_presence()

    async def accept_and_close(self, code: int) -> None:
        """Accepted then closed, so that the client sees the code (a refused handshake
        would be a bare HTTP 403)."""
        await self.accept()
        await self.close(code=code)

    async def release_place(self) -> None:
        if not self.placed:
            return
        self.placed = False
        try:
            await sockets.release(self.battle_id, self.seat.user_id, self.channel_name)
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)  # the place lapses by itself (sockets.PLACE_TTL_S)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        if getattr(self, "counted", False):
            self.counted = False
            metrics.SOCKETS.dec()
        await self.release_place()
        if self.actor is None:
            return
        limits.release(self.actor.user_id)
        if self.drain:
            self.drain.cancel()
        for held in list(self.held_pings):
            held.cancel()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(
                events.user_group(self.seat.user_id), self.channel_name
            )
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)
        await db(presence.connection_close)(channel_name=self.channel_name)
        await self.announce_presence()

    async def announce_presence(self) -> None:
        """Tells the table who is here, soon: joins and leaves in a burst (200 spectators
        arriving for a final) make one announcement per process, not one each."""
        key = (asyncio.get_running_loop(), self.battle_id)
        if key in _announcing:
            return
        _announcing.add(key)

        async def announce() -> None:
            await asyncio.sleep(PRESENCE_COALESCE_S)
            _announcing.discard(key)
            rows = await db(presence.present)(key[1])
            await events.send_presence(key[1], events.presence(rows))

        _announcements.add(task := asyncio.ensure_future(announce()))
        task.add_done_callback(_announcements.discard)

    # -- sending -------------------------------------------------------------------

    async def send_json(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=events.canonical(frame))

    # AsyncWebsocketConsumer.send's own signature, which its stub too overrides against
    # AsyncConsumer.send.
    async def send(  # type: ignore[override]
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if getattr(self, "revoked", False):
            return  # closed for rights it no longer has: not one more frame
        # Counted, so that a resume is charged what it sent (the user's resume budget).
        self.sent_bytes = getattr(self, "sent_bytes", 0) + len(text_data or bytes_data or b"")
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    @property
    def delay_s(self) -> int:
        return getattr(self, "_delay_s", 0) if self.watching else 0

    async def send_snapshot(self) -> None:
        frame, later = await db(log.snapshot)(self.battle_id, watching=self.watching)
        self._delay_s = frame["delay_s"]
        self.queued_seq = frame["seq"]
        await self.send_json(frame)
        for event in later:
            await self.push(events.wire(event), self.delay_s)

    async def push(self, event: dict[str, Any], delay_s: int = 0) -> None:
        """Queues one event ({"seq", "at", "text"}) for the client: in order, once, gaps
        filled from the log."""
        seq = event["seq"]
        if seq <= self.queued_seq:
            return
        if seq > self.queued_seq + 1 and not await self.fill_from_log(seq - 1, delay_s):
            return
        await self.enqueue(event, delay_s)

    async def fill_from_log(self, upto: int, delay_s: int) -> bool:
        """Queues the logged events after the last one queued, up to `upto`; False when
        too many are missing and a fresh snapshot was sent instead."""
        missing = await db(log.events_after)(self.battle_id, self.queued_seq, upto=upto)
        if missing is None:
            await self.send_snapshot()
            return False
        for frame in missing:
            await self.enqueue(events.wire(frame), delay_s)
        return True

    async def enqueue(self, event: dict[str, Any], delay_s: int) -> None:
        self.queued_seq = event["seq"]
        wait = 0.0
        if delay_s > 0:
            at = datetime.fromisoformat(event["at"]).timestamp()
            wait = at + delay_s - datetime.now(UTC).timestamp()
        if wait <= 0 and not self.pending:
            # Due already (a delayed spectator's history up to the horizon): sent now, in
            # order, so that `resumed` after it names it.
            await self.send(text_data=event["text"])
            return
        release = time.monotonic() + max(0.0, wait)
        self.pending.append((release, event["seq"], event["text"]))
        if self.drain is None or self.drain.done():
            self.drain = asyncio.ensure_future(self.release_pending())

    async def release_pending(self) -> None:
        """Sends held events (spectator delay) at their time, never out of order."""
        while self.pending:
            release, _, text = self.pending[0]
            wait = release - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # the queue may have been replaced meanwhile (a resume)
            self.pending.popleft()
            await self.send(text_data=text)

    async def catch_up(self) -> None:
        """Sends what the log holds beyond what this socket was given: a broadcast lost
        on the way (Redis pub/sub delivers at most once) reaches the client by its next
        ping, not only with the next event."""
        last = await db(log.last_seq)(self.battle_id)
        if last > self.queued_seq:
            await self.fill_from_log(last, self.delay_s)

    async def resume(self, seq: int | None) -> None:
        if seq is None:
            await self.send_snapshot()
            return
        # A delayed spectator's horizon is the newest event at least the delay old: what
        # is newer must not decide anything they can see (snapshot or not, how many).
        horizon = await db(log.visible_seq)(self.battle_id, self.delay_s)
        frames = await db(log.events_after)(self.battle_id, seq, upto=horizon)
        sent_before = getattr(self, "sent_bytes", 0)
        try:
            await self.replay(seq, horizon, frames)
        finally:
            self.user.resume.charge(self.sent_bytes - sent_before)

    async def replay(self, seq: int, horizon: int, frames: list[dict] | None) -> None:
        if frames is None or seq > horizon:
            await self.send_snapshot()
            return
        self.queued_seq = seq
        # What was held back is queued again below; the drain sleeping until the old
        # queue's next release would hold the history up to it for as long (issue 20).
        self.pending.clear()
        if self.drain is not None:
            self.drain.cancel()
        for frame in frames:
            await self.push(events.wire(frame), self.delay_s)
        if self.delay_s > 0:
            await self.catch_up()  # the newer events, held back until their time
        await self.send_json(events.resumed(self.shown_seq(seq)))

    def shown_seq(self, floor: int) -> int:
        """The last event sent to the client (not merely queued for a delayed spectator)."""
        if self.pending:
            return max(floor, self.pending[0][1] - 1)
        return self.queued_seq

    def hide_newer(self, reply: dict[str, Any]) -> dict[str, Any]:
        """A delayed spectator's answer names no sequence number newer than the delay
        (their chat line's `ack` would tell the table's current `seq`)."""
        if self.delay_s > 0 and reply.get("type") == "ack":
            return {**reply, "seq": None}
        return reply

    # -- messages from the channel layer -------------------------------------------

    async def table_event(self, message: dict[str, Any]) -> None:
        if self.revoked:
            return
        self.recheck_when_due()
        if self.watching:
            delay_s = message.get("delay_s", 0)
            if delay_s != self.delay_s:
                await self.send_json(events.delay(delay_s))
            self._delay_s = delay_s
        await self.push(message, self.delay_s)

    async def table_point(self, message: dict[str, Any]) -> None:
        """A ping (point.battle_point): at once, or for a delayed spectator the delay after
        it was sent. It has no seq, so it waits on a timer of its own, not in `pending`."""
        if self.revoked:
            return
        wait = 0.0
        if self.watching:
            wait = message.get("sent", 0) + message.get("delay_s", 0) - time.time()
        if wait <= 0:
            await self.send_json(message["frame"])
            return
        if len(self.held_pings) >= HELD_PINGS:
            return  # a pulse is no record: under a long delay, the oldest few will do
        task = asyncio.ensure_future(self.send_later(message["frame"], wait))
        self.held_pings.add(task)
        task.add_done_callback(self.held_pings.discard)

    async def send_later(self, frame: dict[str, Any], wait: float) -> None:
        await asyncio.sleep(wait)
        if not self.closed:
            await self.send_json(frame)

    async def table_presence(self, message: dict[str, Any]) -> None:
        await self.send_json(message["frame"])

    async def table_rights(self, message: dict[str, Any]) -> None:
        """The user's rights changed (rights.rights_changed): read again at once; the
        sockets of a login session that ended close whatever the database says."""
        if message.get("ended_session") == rights.session_digest(self.seat.session_key):
            await self.revoke(rights.CLOSE_RIGHTS_CHANGED)
            return
        await self.recheck()

    # -- rights --------------------------------------------------------------------

    async def recheck(self, older_than: float = 0.0) -> bool:
        """Reads the socket's rights again (if the last read is `older_than` seconds old)
        and follows them; False when the socket was closed."""
        if self.revoked:
            return False
        if older_than and time.monotonic() - self.rights_at < older_than:
            return True
        self.rights_at = time.monotonic()
        return await self.adopt_actor(await db(rights.socket_rights)(self.seat, self.battle_id))

    def recheck_when_due(self) -> None:
        """A re-read of the rights in the background, if the last is RIGHTS_RECHECK_S old:
        a broadcast costs no database query, whatever the number of sockets."""
        if time.monotonic() - self.rights_at < RIGHTS_RECHECK_S:
            return
        self.rights_at = time.monotonic()
        self.rights_task = asyncio.ensure_future(self.recheck())

    async def revoke(self, code: int) -> None:
        """Closes the socket for rights it no longer has: nothing more is sent to it, not
        even what was held back for a delayed spectator."""
        if self.revoked:
            return
        self.revoked = self.closed = True
        self.pending.clear()
        if self.drain is not None:
            self.drain.cancel()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)
        await self.close(code=code)

    # -- frames from the client ----------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every limit is checked here, as the frame arrives and before any work (issue 15):
        engine work (previews) runs in its own task, in the engine's threads, so that the
        frames behind it are checked on arrival too, not when it is done."""
        size = len(text_data or bytes_data or "")
        if size > limits.ABUSIVE_FRAME_BYTES:
            await self.close(code=limits.CLOSE_TOO_LARGE)
            return
        if not self.bucket.take() or not self.user.frames.take():
            await self.limited(None, "Too many frames; slow down.")
            return
        ref = None
        try:
            frame = protocol.parse(text_data, bytes_data)
            ref = frame.ref
            over = await self.over_budget(frame)
            if over:
                await self.limited(ref, over)
                return
            await self.refresh_presence()
            reserved = None
            if frame.type in ENGINE_FRAMES:
                reserved = await self.reserve_engine(frame)
                if reserved is None:
                    await self.limited(ref, ENGINE_SPENT)
                    return
            if frame.type == "ping":
                if await self.recheck(older_than=PING_RECHECK_S):
                    await self.catch_up()
                    await self.send_json(events.pong())
            elif frame.type == "resume":
                if await self.recheck():
                    await self.resume(frame.data["seq"])
            elif frame.type in ENGINE_TASKS:
                job = asyncio.ensure_future(self.answer(frame, reserved=reserved))
                self.engine_jobs.add(job)
                job.add_done_callback(self.engine_jobs.discard)
            else:
                await self.answer(frame, reserved=reserved)
        except protocol.FrameError as error:
            metrics.FRAMES.labels("invalid", error.code).inc()
            await self.refuse(error.code, error.message, error.field, error.ref)
        except Exception:
            logger.exception("table frame failed")
            await self.refuse("server_error", "The server failed on this frame.", None, ref)

    async def over_budget(self, frame: protocol.Frame) -> str | None:
        """Why the user's shared limits refuse the frame now, or None (docs/protocol.md,
        Limits per user). The engine's time is reserved after these pass (`receive`)."""
        if "id" in frame.data and not self.user.writes.take():
            return "Too many changes to the table; slow down."
        if frame.type == "point" and not self.user.pings.take():
            return "Too many pings; wait a moment."
        if frame.type == "resume" and not self.user.resume.open():
            return "Too much replayed lately; wait, or reload for a snapshot."
        if frame.type in ENGINE_TASKS and self.user.engine_jobs >= limits.ENGINE_IN_FLIGHT:
            return "Your last request to the rules engine is still being judged."
        return None

    async def reserve_engine(self, frame: protocol.Frame) -> float | None:
        """The engine time reserved for the frame (charged before the work: issue 21), or
        None when the user's balance cannot hold it. A preview counts as in flight from
        here, so that one arriving while the reservation is asked for is refused."""
        if frame.type in ENGINE_TASKS:
            self.user.engine_jobs += 1
        reserved = await engine_budget.reserve(self.seat.user_id)
        if reserved is None and frame.type in ENGINE_TASKS:
            self.user.engine_jobs -= 1
        return reserved

    async def answer(self, frame: protocol.Frame, *, reserved: float | None = None) -> None:
        """Answers a service frame. Engine work (`reserved` ms of the user's engine time
        taken for it) is timed, and the reservation settled with what it cost."""
        pool = _engine_pool(frame.type) if reserved is not None else None
        runner = db(timed_serve) if pool is None else engine_thread(timed_serve, pool)
        spent = 0.0
        try:
            try:
                spent, now, answer = await runner(frame, battle_id=self.battle_id, user=self.seat)
            finally:
                if frame.type in ENGINE_TASKS:
                    self.user.engine_jobs -= 1
                if reserved is not None:
                    metrics.ENGINE_SECONDS.labels(frame.type).observe(spent / 1000)
                    await engine_budget.settle(self.seat.user_id, reserved=reserved, spent=spent)
            if self.closed or not await self.adopt_actor(now):
                return
            if isinstance(answer, ServiceError):
                raise answer
            if answer is None:
                metrics.FRAMES.labels(frame.type, "broadcast").inc()
                return
            metrics.FRAMES.labels(frame.type, answer.get("type", "answer")).inc()
            await self.send_json(self.hide_newer(answer))
        except ServiceError as error:
            metrics.FRAMES.labels(frame.type, error.code).inc()
            await self.refuse(error.code, error.message, error.field, frame.ref)
        except Exception:
            metrics.FRAMES.labels(frame.type, "server_error").inc()
            logger.exception("table frame failed")
            await self.refuse("server_error", "The server failed on this frame.", None, frame.ref)

    async def limited(self, ref: Any, message: str) -> None:
        """A frame dropped by a rate limit; a flood of them closes the socket (4429)."""
        if self.abuse.dropped():
            await self.close(code=limits.CLOSE_ABUSE)
            return
        await self.send_json(events.error("rate_limited", message, ref=ref))

    async def refuse(self, code: str, message: str, field: str | None, ref: Any) -> None:
        await self.send_json(events.error(code, message, field=field, ref=ref))
        if self.abuse.errored():
            await self.close(code=limits.CLOSE_ABUSE)

    async def adopt_actor(self, now: Actor | int) -> bool:
        """Follows the socket's rights as read again (`rights.socket_rights`): a new role
        closes it with 4401, and the board reconnects in that role (a demoted player to the
        spectators' delayed stream, from a snapshot of the delay's horizon); one no longer
        a member, or deactivated, is closed with 4403, a login session that ended with 4401.
        New sides (a roster given a side) are told in a new `hello`. False when closed."""
        if self.revoked:
            return False
        if not isinstance(now, Actor):
            await self.revoke(now)
            return False
        if now == self.actor:
            return True
        if self.actor is None or now.role != self.actor.role:
            await self.revoke(rights.CLOSE_RIGHTS_CHANGED)
            return False
        self.actor = now
        await db(presence.connection_open)(
            battle_id=self.battle_id, actor=now, channel_name=self.channel_name
        )
        await self.send_json(events.hello(user=now.name, role=now.role, sides=now.sides))
        return True

    async def refresh_presence(self) -> None:
        if time.monotonic() - self.touched > PRESENCE_REFRESH_S:
            self.touched = time.monotonic()
            await db(presence.connection_seen)(channel_name=self.channel_name)
            try:
                await sockets.keep(self.battle_id, self.seat.user_id, self.channel_name)
            except events.LAYER_ERRORS as error:
                events.layer_failed(error)
