"""The table's events to one client: in `seq` order, without gaps or repeats (a gap, from
two processes' broadcasts crossing in Redis, is filled from the log), a delayed
spectator's held back until their time, and a resume replayed from the log."""

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from tabletop import events, limits
from tabletop.services.table import log
from tabletop.table_socket import batches, shared_snapshots
from tabletop.table_socket.database import db

#: Pings one delayed spectator's socket holds back at most (a pulse is no record).
HELD_PINGS = 100


class EventDelivery:
    """What one socket sends of the table, through `send` (a frame's text)."""

    def __init__(
        self,
        battle_id: int,
        *,
        watching: bool,
        delay_s: int,
        send: Callable[[str], Awaitable[None]],
        resume_budget: limits.Budget,
    ) -> None:
        self.battle_id = battle_id
        self.watching = watching
        self._delay_s = delay_s
        self._send = send
        #: Charged the bytes a resume replays (the user's resume budget).
        self.resume_budget = resume_budget
        self.sent_bytes = 0
        self.stopped = False
        self.queued_seq = 0
        #: Events held back for a delayed spectator: (release time, seq, text), in order.
        self.pending: collections.deque[tuple[float, int, str]] = collections.deque()
        self.drain: asyncio.Task | None = None
        #: Pings held back for a delayed spectator (`ping`), cancelled on `stop`.
        self.held_pings: set[asyncio.Future] = set()

    @property
    def delay_s(self) -> int:
        return self._delay_s if self.watching else 0

    async def send(self, text: str) -> None:
        self.sent_bytes += len(text)
        await self._send(text)

    async def send_json(self, frame: dict[str, Any]) -> None:
        await self.send(events.canonical(frame))

    def stop(self) -> None:
        """Nothing more is sent, not even what was held back for a delayed spectator."""
        self.stopped = True
        self.pending.clear()
        if self.drain is not None:
            self.drain.cancel()
        for held in list(self.held_pings):
            held.cancel()

    # -- the log's events ------------------------------------------------------------

    async def event(self, message: dict[str, Any]) -> None:
        """A broadcast event (events.send_event); a spectator is told a new delay first."""
        if self.watching:
            delay_s = message.get("delay_s", 0)
            if delay_s != self.delay_s:
                await self.send_json(events.delay(delay_s))
            self._delay_s = delay_s
        await self.push(message, self.delay_s)

    async def send_snapshot(self) -> None:
        frame, later = await shared_snapshots.snapshot(self.battle_id, watching=self.watching)
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
            await self.send(event["text"])
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
            await self.send(text)

    async def catch_up(self, last: int | None = None) -> None:
        """Sends what the log holds beyond what this socket was given (up to `last`, the
        log's last seq if read already): a broadcast lost on the way (Redis pub/sub
        delivers at most once) reaches the client by its next ping, not only with the
        next event."""
        if last is None:
            last = await batches.last_seq(self.battle_id, urgent=True)
        if last > self.queued_seq:
            await self.fill_from_log(last, self.delay_s)

    async def resume(self, seq: int | None) -> None:
        """From after `seq`, or a fresh snapshot (None, or too far back)."""
        if seq is None:
            await self.send_snapshot()
            return
        # A delayed spectator's horizon is the newest event at least the delay old: what
        # is newer must not decide anything they can see (snapshot or not, how many).
        horizon = await db(log.visible_seq)(self.battle_id, self.delay_s)
        frames = await db(log.events_after)(self.battle_id, seq, upto=horizon)
        sent_before = self.sent_bytes
        try:
            await self.replay(seq, horizon, frames)
        finally:
            self.resume_budget.charge(self.sent_bytes - sent_before)

    async def replay(self, seq: int, horizon: int, frames: list[dict] | None) -> None:
        if frames is None or seq > horizon:
            await self.send_snapshot()
            return
        self.queued_seq = seq
        # What was held back is queued again below; the drain sleeping until the old
        # queue's next release would hold the history up to it for as long.
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

    # -- pings -------------------------------------------------------------------------

    async def ping(self, message: dict[str, Any]) -> None:
        """A ping (point.battle_point): at once, or for a delayed spectator the delay after
        it was sent. It has no seq, so it waits on a timer of its own, not in `pending`."""
        wait = 0.0
        if self.watching:
            wait = message.get("sent", 0) + message.get("delay_s", 0) - time.time()
        if wait <= 0:
            await self.send(message["text"])
            return
        if len(self.held_pings) >= HELD_PINGS:
            return  # a pulse is no record: under a long delay, the oldest few will do
        task = asyncio.ensure_future(self.send_later(message["text"], wait))
        self.held_pings.add(task)
        task.add_done_callback(self.held_pings.discard)

    async def send_later(self, text: str, wait: float) -> None:
        await asyncio.sleep(wait)
        if not self.stopped:
            await self.send(text)
