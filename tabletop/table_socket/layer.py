"""The channel layer as the table's socket uses it: each message straight to its handler,
and a Redis outage waited out instead of ending the socket with a traceback."""

import asyncio
import functools
import uuid
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

from tabletop import events
from tabletop.table_socket import fanout

#: How long a new socket waits for Redis before it is closed with 4503.
LAYER_WAIT_S = 1.0


class DirectDispatchMixin:
    """Dispatches each message straight to its handler, from one loop per socket.

    Channels (4.2 and later) first hops to the database thread to close stale
    connections before every message a consumer handles. Here every database call
    already goes through `database_sync_to_async`, which does that itself, so the hop
    is pure cost, and on a broadcast it is paid once per socket, one after another in
    that one thread: 200 spectators meant 200 hops per event (docs/benchmarks.md).

    And Channels' loop (`await_many_dispatch`) makes a task for every message a socket
    receives and waits on it with `asyncio.wait`: on a broadcast, one task per socket,
    a quarter of the event loop's work for each socket's copy. `dispatch_in_turn` reads
    the same two sources from one task each for the socket's life, and a group's
    messages are handed to its queue by the process's one reader of the group
    (`deliver`, table_socket/fanout.py).
    """

    #: The socket's queue of work: what `dispatch_in_turn` hands to `dispatch`, in turn.
    inbox: asyncio.Queue[tuple[dict[str, Any] | None, BaseException | None]]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # AsyncConsumer.__call__ as Channels has it, with dispatch_in_turn for its loop.
        consumer: Any = self  # an AsyncConsumer: its attributes, set as Channels sets them
        consumer.scope = scope
        consumer.channel_layer = layer = get_channel_layer(consumer.channel_layer_alias)
        sources = [receive]
        if layer is not None:
            consumer.channel_name = await consumer.channel_layer.new_channel()
            consumer.channel_receive = functools.partial(
                consumer.channel_layer.receive, consumer.channel_name
            )
            sources.append(consumer.channel_receive)
        consumer.base_send = send
        self.inbox = asyncio.Queue()
        try:
            await dispatch_in_turn(sources, self.dispatch, self.inbox)
        except StopConsumer:
            pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def deliver(self, message: dict[str, Any]) -> None:
        """Queues a group's message for `dispatch`, after what arrived before it."""
        self.inbox.put_nowait((message, None))


async def dispatch_in_turn(
    sources: list[Callable[[], Awaitable[dict[str, Any]]]],
    dispatch: Callable[[dict[str, Any]], Awaitable[None]],
    arrived: asyncio.Queue[tuple[dict[str, Any] | None, BaseException | None]] | None = None,
) -> None:
    """Hands each message of `sources` (the client's frames, the channel layer's) to
    `dispatch` one at a time, as they arrive, as Channels' `await_many_dispatch` does; a
    source that fails fails the loop. One reading task per source, not one per message.
    What others put in `arrived` (a message, or an error that ends the loop) takes its
    turn with them."""
    if arrived is None:
        arrived = asyncio.Queue()

    async def read(source: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        try:
            while True:
                arrived.put_nowait((await source(), None))
        except asyncio.CancelledError:
            # Cancelled from outside the loop below: the socket ends, as it did when
            # Channels' loop found its receiving task cancelled.
            arrived.put_nowait((None, asyncio.CancelledError()))
            raise
        except Exception as error:
            arrived.put_nowait((None, error))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            message, error = await arrived.get()
            if error is not None:
                raise error
            assert message is not None
            await dispatch(message)
    finally:
        for reader in readers:
            reader.cancel()
            try:
                await reader
            except asyncio.CancelledError:
                pass


class PatientLayer:
    """The channel layer, but its `receive` waits out a Redis outage (retrying each
    second) instead of raising: the list layer's receive fails at once while Redis is
    down, and that ended the socket's consumer with a traceback (an HTTP 500 for a new
    socket) instead of the close code 4503."""

    def __init__(self, layer: Any) -> None:
        self._layer = layer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._layer, name)

    async def new_channel(self, prefix: str = fanout.SOCKETS_PREFIX) -> str:
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


class PatientLayerMixin:
    """A consumer whose channel layer is a `PatientLayer`."""

    @property
    def channel_layer(self) -> Any:
        return self._channel_layer

    @channel_layer.setter
    def channel_layer(self, layer: Any) -> None:
        # Channels sets it when a socket opens; a Redis outage must not crash the socket.
        self._channel_layer = None if layer is None else PatientLayer(layer)


def _unwrapped(layer: Any) -> Any:
    """The channel layer itself: a `PatientLayer`'s `new_channel` would not fail."""
    return layer._layer if isinstance(layer, PatientLayer) else layer


async def join_groups(layer: Any, consumer: DirectDispatchMixin, groups: Iterable[str]) -> None:
    """`consumer` gets the groups' messages, through the process's one reader of each
    (table_socket/fanout.py); raises events.LAYER_ERRORS while Redis is down."""
    await events.layer_reachable()
    joined = []
    try:
        for group in groups:
            await fanout.join(_unwrapped(layer), group, consumer, consumer.deliver)
            joined.append(group)
    except BaseException:
        # Not left in the ones joined already: they would queue its messages for ever.
        await leave_groups(layer, consumer, joined)
        raise


async def leave_groups(layer: Any, consumer: DirectDispatchMixin, groups: Iterable[str]) -> None:
    """`consumer` gets no more of the groups' messages; the process leaves a group with
    its last socket there (while Redis is down, the group forgets the process's channel
    by itself: the layer's group expiry)."""
    for group in groups:
        await fanout.leave(_unwrapped(layer), group, consumer)
