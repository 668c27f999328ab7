"""An idle socket's reads, batched per process: the sockets whose ping (or periodic rights
re-read) falls due within a short window share one query of each kind, run in one hop to
Channels' database thread, and each is handed its own result.

An idle socket pings every 25 s, and each ping cost three calls on that one thread, one
socket at a time: its presence row kept, its rights read again, the log's last seq
(thousands of sockets on one machine). Batched, a window's sockets cost one UPDATE of
their presence rows, one read of the rights of every (seat, battle) pair and one read of
the last seq of every battle concerned.

A window opens with the first call and closes WINDOW_S later, or once the previous batch
of its kind is done, whichever is later: while the database thread is busy, the calls
that arrive meanwhile wait together instead of queueing one by one behind it. A call
that someone waits on (`urgent`: a frame's own refresh, a resume, a notice of changed
rights) closes its window at once, taking the others' along; only the idle socket's
periodic reads wait for others to join. A call cancelled before its batch runs (its
socket closed) is left out of it. When the batched query fails, each call is run alone
in the same hop, so that a socket sees the error it would have seen alone and no other
socket sees it.
"""

import asyncio
import contextlib
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from tabletop.services.table import log, presence, rights
from tabletop.services.table.actor import Actor
from tabletop.table_socket.database import db

#: Seconds a batch of periodic reads waits for others to join after its first call (an
#: idle socket's ping waits at most two: its presence, then its rights and last seq).
WINDOW_S = 0.03

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class _Window(Generic[K, V]):
    """The calls of one batch, by key: the future all of a key's callers wait on, and
    how many still wait."""

    results: dict[K, asyncio.Future[V]] = field(default_factory=dict)
    waiting: dict[K, int] = field(default_factory=dict)
    #: Set by an urgent call: the window closes now.
    urgent: asyncio.Event = field(default_factory=asyncio.Event)


class Batched(Generic[K, V]):
    """`one(key)` as the sockets of a process call it, run for a window's keys at once as
    `many(keys)` (the results in the keys' order), in the database thread."""

    def __init__(self, one: Callable[[K], V], many: Callable[[list[K]], list[V]]) -> None:
        self.one = one
        self.many = many
        #: Per event loop: the window open to new calls, and the batch last run.
        self._open: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Window[K, V]] = (
            weakref.WeakKeyDictionary()
        )
        self._last: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = (
            weakref.WeakKeyDictionary()
        )

    async def __call__(self, key: K, *, urgent: bool) -> V:
        loop = asyncio.get_running_loop()
        window = self._open.get(loop)
        if window is None:
            window = self._open[loop] = _Window()
            previous = self._last.get(loop)
            self._last[loop] = batch = loop.create_task(self._run(loop, window, previous))
            batch.add_done_callback(lambda done: self._forget(loop, done))
        result = window.results.get(key)
        if result is None:
            result = window.results[key] = loop.create_future()
            result.add_done_callback(_retrieved)
            window.waiting[key] = 0
        window.waiting[key] += 1
        if urgent:
            window.urgent.set()
        try:
            # Shielded: a caller cancelled does not cancel the others' result.
            return await asyncio.shield(result)
        except asyncio.CancelledError:
            window.waiting[key] -= 1  # left out, if its batch has not run yet
            raise

    async def _run(
        self, loop: asyncio.AbstractEventLoop, window: _Window[K, V], previous: asyncio.Task | None
    ) -> None:
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(window.urgent.wait(), WINDOW_S)
            if previous is not None:
                await asyncio.wait([previous])
        finally:
            if self._open.get(loop) is window:
                del self._open[loop]  # the calls from here on wait for the next batch
        keys = [key for key, n in window.waiting.items() if n > 0]
        for key, result in window.results.items():
            if window.waiting[key] <= 0:
                result.cancel()
        if not keys:
            return
        try:
            outcomes = await db(self._outcomes)(keys)
        except BaseException as error:  # the hop itself failed, or the loop is ending
            for key in keys:
                _settle(window.results[key], _Failed(error))
            if isinstance(error, asyncio.CancelledError):
                raise
            return  # each caller was given the error
        for key, outcome in zip(keys, outcomes, strict=True):
            _settle(window.results[key], outcome)

    def _forget(self, loop: asyncio.AbstractEventLoop, batch: asyncio.Task) -> None:
        if self._last.get(loop) is batch:
            del self._last[loop]

    def _outcomes(self, keys: list[K]) -> list[Any]:
        """In the database thread: each key's result, or its error (`_Failed`)."""
        if len(keys) > 1:
            try:
                return self.many(keys)
            except Exception:
                pass  # each alone, below: only the keys that fail alone fail
        outcomes: list[Any] = []
        for key in keys:
            try:
                outcomes.append(self.one(key))
            except Exception as error:
                outcomes.append(_Failed(error))
        return outcomes


@dataclass(frozen=True)
class _Failed:
    error: BaseException


def _settle(result: asyncio.Future, outcome: Any) -> None:
    if result.done():
        return
    if isinstance(outcome, _Failed):
        if isinstance(outcome.error, asyncio.CancelledError):
            result.cancel()
        else:
            result.set_exception(outcome.error)
    else:
        result.set_result(outcome)


def _retrieved(result: asyncio.Future) -> None:
    """A result whose callers all left is not logged as an error never retrieved."""
    if not result.cancelled():
        result.exception()


# The functions looked up as each batch runs (lambdas), as a direct call would (a test
# may replace one).


def _seen_each(channel_names: list[str]) -> list[None]:
    presence.connections_seen(channel_names)
    return [None for _ in channel_names]


#: A socket's presence row kept (its channel name).
connection_seen: Batched[str, None] = Batched(
    lambda channel_name: presence.connection_seen(channel_name=channel_name),
    lambda channel_names: _seen_each(channel_names),
)
#: A socket's rights read again ((seat, battle id)): its actor, or the code it closes with.
socket_rights: Batched[tuple[rights.Seat, int], Actor | int] = Batched(
    lambda seat: rights.socket_rights(*seat), lambda seats: rights.many_sockets_rights(seats)
)
#: The last seq of a battle's log (its id).
last_seq: Batched[int, int] = Batched(
    lambda battle_id: log.last_seq(battle_id), lambda battle_ids: log.last_seqs(battle_ids)
)
