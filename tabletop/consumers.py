"""The live table's websocket (docs/protocol.md). Thin: receive a frame, ask a service,
send the answer; each part of that is a module of tabletop/table_socket/.

What the consumer itself owns is the socket's life: who it is for, its groups, when it
reads its rights again and closes for them.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import User

from tabletop import events, limits, metrics, protocol, selectors
from tabletop.models import Role
from tabletop.services.errors import ServiceError
from tabletop.services.table import rights
from tabletop.services.table.actor import Actor, actor_for
from tabletop.table_socket import batches, frame_writes
from tabletop.table_socket.database import db
from tabletop.table_socket.delivery import EventDelivery
from tabletop.table_socket.dispatch import serve, serve_now
from tabletop.table_socket.frame_limits import FrameLimits
from tabletop.table_socket.layer import (
    DirectDispatchMixin,
    PatientLayerMixin,
    join_groups,
    leave_groups,
)
from tabletop.table_socket.presence import TablePresence, announce_presence
from tabletop.table_socket.seat_rights import RightsReads, kept_actor
from tabletop.table_socket.service_calls import (
    ENGINE_FRAMES,
    ENGINE_SPENT,
    ENGINE_TASKS,
    ServiceCalls,
)

# What the benchmarks and the tests call beside the socket.
__all__ = ["DirectDispatchMixin", "TableConsumer", "serve", "serve_now"]

logger = logging.getLogger(__name__)
#: A socket that only receives broadcasts reads its rights again at least this often (the
#: notice of a change is the prompt way; this is for one lost on the way).
RIGHTS_RECHECK_S = 30.0
#: A `ping` reads the rights again if the last read is this old: a flood of pings costs
#: no more than one read a second (a `resume` always reads them).
PING_RECHECK_S = 1.0
#: The sockets leaving in this process (a task is kept only weakly by the event loop).
_leaving: set[asyncio.Future] = set()


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


class TableConsumer(DirectDispatchMixin, PatientLayerMixin, AsyncWebsocketConsumer):
    """One connection to one battle's table, for a member of its campaign."""

    actor: Actor | None = None
    revoked = closed = counted = False
    presence: TablePresence | None = None
    leaving: asyncio.Future | None = None
    #: The server's own send, for text frames (`frame_writes.past_session_wrapper`).
    send_frame: Callable[[dict[str, Any]], Awaitable[None]]

    async def connect(self) -> None:
        self.battle_id = int(self.scope["url_route"]["kwargs"]["battle_id"])
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
        self.seat = rights.Seat(user.pk, self.scope["session"].session_key)
        self.rights = RightsReads(self.seat, self.battle_id)
        self.rights_task: asyncio.Future | None = None
        # A place under the user's cap, taken atomically before the handshake completes.
        self.presence = TablePresence(self.battle_id, self.seat.user_id, self.channel_name)
        try:
            claimed = await self.presence.claim()
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)
            await self.accept_and_close(limits.CLOSE_LAYER_DOWN)
            return
        if not claimed:
            await self.accept_and_close(limits.CLOSE_TOO_MANY_SOCKETS)
            return
        self.actor = actor = await db(actor_for)(battle, user, membership)
        user_limits = limits.user_limits(actor.user_id)
        self.limits = FrameLimits(user_limits)
        self.calls = ServiceCalls(self.seat, self.battle_id, user_limits)
        self.watching = actor.role == Role.SPECTATOR
        self.delivery = EventDelivery(
            self.battle_id,
            watching=self.watching,
            delay_s=battle.spectator_delay_s,
            send=lambda text: self.send(text_data=text),
            resume_budget=user_limits.resume,
        )
        self.table_group = (
            events.watchers_group(self.battle_id)
            if self.watching
            else events.players_group(self.battle_id)
        )
        # Told when the user's rights change (rights.rights_changed).
        self.user_group = events.user_group(self.seat.user_id)
        # Join before reading the snapshot: nothing committed in between is missed.
        try:
            await join_groups(self.channel_layer, self, self.both_groups)
        except events.LAYER_ERRORS as error:
            # Redis is down: a socket that would get no broadcast is closed with a code the
            # board understands (it says the table is degraded and retries), not HTTP 500.
            events.layer_failed(error)
            limits.release(actor.user_id)
            self.actor = None
            await self.presence.release()
            await self.accept_and_close(limits.CLOSE_LAYER_DOWN)
            return
        events.layer_ok()
        await self.accept()
        self.counted = True
        metrics.SOCKETS.inc()
        hello = events.hello(user=actor.name, role=actor.role, sides=actor.sides)
        if actor.is_gm:
            # The GM's delay field shows the setting in force after a reload; the GM's own
            # snapshot is live (delay_s 0) and so cannot tell it.
            hello["spectator_delay_s"] = battle.spectator_delay_s
        await self.send_json(hello)
        await self.delivery.resume(_seq_in_query(self.scope))
        await self.presence.arrived(actor)
        announce_presence(self.battle_id)

    @property
    def both_groups(self) -> list[str]:
        return [self.table_group, self.user_group]

    async def accept_and_close(self, code: int) -> None:
        """Accepted then closed, so that the client sees the code (a refused handshake
        would be a bare HTTP 403)."""
        await self.accept()
        await self.close(code=code)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # A text frame goes straight to the server: the session middleware's wrapper
        # around `send` has nothing to do for one (200 spectators, 200 times an event).
        self.send_frame = frame_writes.past_session_wrapper(send)
        try:
            await super().__call__(scope, receive, send)
        finally:
            # The server may end a consumer without its `disconnect`: Daphne cancels one
            # still busy `application_close_timeout` (10 s) after its client left (a
            # handshake abandoned while the server is slow), and every one of a process
            # that stops. Its place would stay taken until it lapsed (90 s).
            await asyncio.shield(self.leave_table())

    async def disconnect(self, code: int) -> None:
        # Shielded: a cancellation on the way (as above) does not stop it half done.
        await asyncio.shield(self.leave_table())

    def leave_table(self) -> asyncio.Future:
        """The socket's leaving: its place, limits, groups and presence row given back,
        once, however the consumer ends (a task: it finishes even if the consumer is
        cancelled meanwhile)."""
        if self.leaving is None:
            self.closed = True
            self.leaving = asyncio.ensure_future(self._leave())
            _leaving.add(self.leaving)
            self.leaving.add_done_callback(_leaving.discard)
        return self.leaving

    async def _leave(self) -> None:
        if self.counted:
            self.counted = False
            metrics.SOCKETS.dec()
        presence = self.presence
        if presence is not None:
            await presence.release()
        if self.actor is None or presence is None:
            return
        limits.release(self.actor.user_id)
        self.rights.stop()  # a periodic re-read waiting for its batch is left out
        self.delivery.stop()
        await leave_groups(self.channel_layer, self, self.both_groups)
        await presence.left()
        announce_presence(self.battle_id)

    # -- sending -------------------------------------------------------------------

    async def send_json(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=events.canonical(frame))

    # AsyncWebsocketConsumer.send's own signature, which its stub too overrides against
    # AsyncConsumer.send.
    async def send(  # type: ignore[override]
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if self.revoked:
            return  # closed for rights it no longer has: not one more frame
        if text_data is not None and bytes_data is None and not close:
            await self.send_frame({"type": "websocket.send", "text": text_data})
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    # -- messages from the channel layer -------------------------------------------

    async def table_event(self, message: dict[str, Any]) -> None:
        if self.revoked:
            return
        if self.rights.due(RIGHTS_RECHECK_S):
            # A re-read in the background: a broadcast costs no database query, whatever
            # the number of sockets.
            self.rights_task = asyncio.ensure_future(self.recheck(urgent=False))
        await self.delivery.event(message)

    async def table_point(self, message: dict[str, Any]) -> None:
        if self.revoked:
            return
        await self.delivery.ping(message)

    async def table_presence(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])

    async def table_rights(self, message: dict[str, Any]) -> None:
        """The user's rights changed (rights.rights_changed): read again at once; the
        sockets of a login session that ended close whatever the database says."""
        if self.rights.ended(message):
            await self.revoke(rights.CLOSE_RIGHTS_CHANGED)
            return
        await self.recheck()

    # -- rights --------------------------------------------------------------------

    async def recheck(self, older_than: float = 0.0, *, urgent: bool = True) -> bool:
        """Reads the socket's rights again (if the last read is `older_than` seconds old;
        not `urgent`: with the other sockets' periodic reads, table_socket/batches.py)
        and follows them; False when the socket was closed."""
        if self.revoked:
            return False
        if self.rights.fresh(older_than):
            return True
        return await self.adopt_actor(await self.rights.read(urgent=urgent))

    async def adopt_actor(self, now: Actor | int) -> bool:
        """Follows the socket's rights as read again (`seat_rights.kept_actor`): closed
        for them, or told its new sides in a new `hello`. False when closed."""
        if self.revoked:
            return False
        kept = kept_actor(self.actor, now)
        if not isinstance(kept, Actor):
            await self.revoke(kept)
            return False
        if kept == self.actor:
            return True
        self.actor = kept
        assert self.presence is not None  # an actor is only set once the place is taken
        await self.presence.arrived(kept)
        await self.send_json(events.hello(user=kept.name, role=kept.role, sides=kept.sides))
        return True

    async def revoke(self, code: int) -> None:
        """Closes the socket for rights it no longer has: nothing more is sent to it, not
        even what was held back for a delayed spectator."""
        if self.revoked:
            return
        self.revoked = self.closed = True
        self.delivery.stop()
        await leave_groups(self.channel_layer, self, [self.table_group])
        await self.close(code=code)

    # -- frames from the client ----------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every limit is checked here, as the frame arrives and before any work:
        engine work (previews) runs in its own task, in the engine's threads, so that the
        frames behind it are checked on arrival too, not when it is done."""
        size = len(text_data or bytes_data or "")
        if size > limits.ABUSIVE_FRAME_BYTES:
            await self.close(code=limits.CLOSE_TOO_LARGE)
            return
        if self.limits.flooded():
            await self.limited(None, "Too many frames; slow down.")
            return
        ref = None
        try:
            frame = protocol.parse(text_data, bytes_data)
            ref = frame.ref
            over = self.limits.over_budget(frame)
            if over:
                await self.limited(ref, over)
                return
            assert self.presence is not None  # frames arrive only once the place is taken
            await self.presence.refresh(urgent=frame.type != "ping")
            reserved = None
            if frame.type in ENGINE_FRAMES:
                reserved = await self.calls.reserve(frame)
                if reserved is None:
                    await self.limited(ref, ENGINE_SPENT)
                    return
            if frame.type == "ping":
                await self.ping()
            elif frame.type == "resume":
                if await self.recheck():
                    await self.delivery.resume(frame.data["seq"])
            elif frame.type in ENGINE_TASKS:
                self.calls.in_a_task(self.answer(frame, reserved=reserved))
            else:
                await self.answer(frame, reserved=reserved)
        except protocol.FrameError as error:
            metrics.FRAMES.labels("invalid", error.code).inc()
            await self.refuse(error.code, error.message, error.field, error.ref)
        except Exception:
            logger.exception("table frame failed")
            await self.refuse("server_error", "The server failed on this frame.", None, ref)

    async def ping(self) -> None:
        """Reads the rights again (at most once a PING_RECHECK_S), catches up with the log
        and answers `pong`. An idle socket's ping (its rights due) reads both in the
        window it shares with the other sockets' (table_socket/batches.py); a socket
        pinging more often than that is not idle, and is answered at once."""
        last = None
        if self.rights.fresh(PING_RECHECK_S):
            kept = await self.recheck(older_than=PING_RECHECK_S)
        else:
            kept, last = await asyncio.gather(
                self.recheck(urgent=False), batches.last_seq(self.battle_id, urgent=False)
            )
        if kept:
            await self.delivery.catch_up(last)
            await self.send_json(events.pong())

    async def answer(self, frame: protocol.Frame, *, reserved: float | None = None) -> None:
        """Answers a service frame (`reserved`: ms of the user's engine time taken for it)."""
        try:
            now, answer = await self.calls.serve(frame, reserved=reserved)
            if self.closed or not await self.adopt_actor(now):
                return
            if isinstance(answer, ServiceError):
                raise answer
            if answer is None:
                metrics.FRAMES.labels(frame.type, "broadcast").inc()
                return
            metrics.FRAMES.labels(frame.type, answer.get("type", "answer")).inc()
            await self.send_json(self.delivery.hide_newer(answer))
        except ServiceError as error:
            metrics.FRAMES.labels(frame.type, error.code).inc()
            await self.refuse(error.code, error.message, error.field, frame.ref)
        except Exception:
            metrics.FRAMES.labels(frame.type, "server_error").inc()
            logger.exception("table frame failed")
            await self.refuse("server_error", "The server failed on this frame.", None, frame.ref)

    async def limited(self, ref: Any, message: str) -> None:
        """A frame dropped by a rate limit; a flood of them closes the socket (4429)."""
        if self.limits.abuse.dropped():
            await self.close(code=limits.CLOSE_ABUSE)
            return
        await self.send_json(events.error("rate_limited", message, ref=ref))

    async def refuse(self, code: str, message: str, field: str | None, ref: Any) -> None:
        await self.send_json(events.error(code, message, field=field, ref=ref))
        if self.limits.abuse.errored():
            await self.close(code=limits.CLOSE_ABUSE)
