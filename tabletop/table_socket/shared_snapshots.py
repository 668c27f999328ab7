"""One snapshot read for the sockets of a table that join at once (a restart, a club
night): each join read and built its own on the one database thread before, and a burst
of them outlasted the handshake's time limit.

A socket shares a read only if that read has not begun yet: the socket joined its groups
before asking, so a read that begins later misses nothing committed before the join (any
later event reaches it as a broadcast). A read already under way may be older than the
join, and the socket waits for the next one instead."""

import asyncio
import weakref
from typing import Any

from tabletop.services.table import log
from tabletop.table_socket.database import db

Snapshot = tuple[dict[str, Any], list[dict]]


class _Read:
    def __init__(self) -> None:
        # Set on the database thread when the read starts; read on the event loop.
        self.begun = False
        self.done: asyncio.Future[Snapshot] | None = None

    def run(self, battle_id: int, watching: bool) -> Snapshot:
        self.begun = True
        return log.snapshot(battle_id, watching=watching)


#: The next read of each (battle, spectators' or players' view), per event loop (a
#: future belongs to one).
_next: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[int, bool], _Read]]"
_next = weakref.WeakKeyDictionary()


async def snapshot(battle_id: int, *, watching: bool) -> Snapshot:
    """log.snapshot's (frame, events still to come), read after the caller's call began;
    shared with the sockets asking meanwhile, so neither is changed by its receiver."""
    reads = _next.setdefault(asyncio.get_running_loop(), {})
    key = (battle_id, watching)
    read = reads.get(key)
    if read is None or read.begun:
        read = reads[key] = _Read()
        read.done = asyncio.ensure_future(_read(reads, key, read, battle_id, watching))
    assert read.done is not None
    # Shielded: one joiner that gives up does not cancel the others' read.
    return await asyncio.shield(read.done)


async def _read(
    reads: dict[tuple[int, bool], _Read],
    key: tuple[int, bool],
    read: _Read,
    battle_id: int,
    watching: bool,
) -> Snapshot:
    try:
        return await db(read.run)(battle_id, watching)
    finally:
        if reads.get(key) is read:
            del reads[key]
