"""A group's broadcasts received once per process and handed to each of its sockets there.

The channel layer delivers a group's message to every member channel: channels-redis'
pub/sub layer receives it from Redis once per process, but then puts the raw bytes in a
queue per socket, wakes a reading task per socket, decodes the same msgpack once per
socket and hands it over to the socket's loop (`layer.dispatch_in_turn`). At 200
spectators that was the largest per-socket cost left of a broadcast (docs/benchmarks.md,
"In-process fan-out").

Here a process joins each group its sockets are in once, with one channel of its own
(the layer's public API only: `new_channel`, `group_add`, `receive`, `group_discard`,
so any layer does: pub/sub, the core Redis layer, the in-memory one). One task reads
that channel, so each message is decoded once, and hands it, in the order it arrived, to
each of the process's sockets of the group, in the order they joined: straight into the
socket's own queue of work (`DirectDispatchMixin.deliver`), where it takes its turn with
the client's frames as before. Every socket gets the same message dict; their handlers
only read it.

When the process's last socket of a group leaves, the group is left and its reader
stopped; a socket that joins meanwhile waits until that is done and joins afresh.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from tabletop import events

logger = logging.getLogger(__name__)

#: Hands one message to a socket's queue of work (not awaited: nothing here waits on one
#: socket while the others wait their copy).
Deliver = Callable[[dict[str, Any]], None]


#: The prefix of the sockets' own channels (`layer.PatientLayer.new_channel`'s). The core
#: layer receives all of a process's channels of one prefix with one loop; a second prefix
#: is a second loop, taking turns with the first on one lock, up to five seconds a turn.
SOCKETS_PREFIX = "specific."


class LocalGroup:
    """One group in this process: one channel of the layer in the group, one task reading
    it, and the sockets here that get its messages."""

    def __init__(self, layer: Any, group: str, after: asyncio.Future | None) -> None:
        self.layer = layer
        self.group = group
        self.channel = ""
        #: The sockets here, in the order they joined, and how each is handed a message.
        self.members: dict[object, Deliver] = {}
        self.reader: asyncio.Future | None = None
        #: Done when the channel is in the group (fails while Redis is down).
        self.ready = asyncio.ensure_future(self._subscribe(after))

    async def _subscribe(self, after: asyncio.Future | None) -> None:
        if after is not None:
            # The group's last subscription here still leaving: its unsubscribing from
            # the group must not land after this one's subscribing.
            await asyncio.wait([after])
        self.channel = await self.layer.new_channel(SOCKETS_PREFIX)
        await self.layer.group_add(self.group, self.channel)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except events.LAYER_ERRORS as error:
                # The core layer's receive fails while Redis is down (pub/sub's waits).
                events.layer_failed(error)
                await asyncio.sleep(1)
                continue
            except Exception:
                # Not for one socket to end with: every socket of the group here waits on
                # this reader (a gap it leaves is filled from the log).
                logger.exception("fanout: receiving %s failed", self.group)
                await asyncio.sleep(1)
                continue
            for deliver in list(self.members.values()):
                deliver(message)

    async def close(self) -> None:
        """Leaves the group and stops reading (Redis down: the group forgets the channel
        by itself, the layer's expiry)."""
        with contextlib.suppress(*events.LAYER_ERRORS, asyncio.CancelledError):
            await asyncio.shield(self.ready)
        if self.reader is None:
            return
        try:
            await self.layer.group_discard(self.group, self.channel)
        except events.LAYER_ERRORS as error:
            events.layer_failed(error)
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


#: The groups of this process's sockets, by (event loop, layer, group).
_groups: dict[tuple[Any, Any, str], LocalGroup] = {}
#: Groups whose last subscription here is leaving, by the same key.
_closing: dict[tuple[Any, Any, str], asyncio.Future] = {}


def _key(layer: Any, group: str) -> tuple[Any, Any, str]:
    return (asyncio.get_running_loop(), layer, group)


async def join(layer: Any, group: str, member: object, deliver: Deliver) -> None:
    """`member` gets `group`'s messages through `deliver` from now on (raises
    events.LAYER_ERRORS while Redis is down, and then it does not)."""
    key = _key(layer, group)
    local = _groups.get(key)
    if local is None:
        local = _groups[key] = LocalGroup(layer, group, _closing.get(key))
    local.members[member] = deliver
    try:
        await asyncio.shield(local.ready)
        # Again for each socket, as each socket's own channel was added before: the core
        # layer's groups expire a day after their last add.
        await layer.group_add(group, local.channel)
    except BaseException:
        await leave(layer, group, member)
        raise


async def leave(layer: Any, group: str, member: object) -> None:
    """`member` gets no more of `group`'s messages (nothing if it had not joined)."""
    key = _key(layer, group)
    local = _groups.get(key)
    if local is None or local.members.pop(member, None) is None or local.members:
        return
    del _groups[key]
    closing = _closing[key] = asyncio.ensure_future(local.close())
    closing.add_done_callback(lambda done: _closing.pop(key) if _closing.get(key) is done else None)
    await asyncio.shield(closing)


def members(layer: Any, group: str) -> int:
    """How many of this process's sockets get `group`'s messages (for the tests)."""
    local = _groups.get(_key(layer, group))
    return 0 if local is None else len(local.members)
