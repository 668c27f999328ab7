"""One Redis client (and its pool of connections) per event loop and address, kept for
the process's life: a socket's claim of a place, its refresh and the channel layer's
check each opened a connection of their own before (a TCP handshake, and on a loaded
machine a handshake that missed its one-second timeout and refused the socket)."""

import asyncio
import weakref

import redis.asyncio

#: A Redis connection is bound to the event loop that opened it (tests run several).
_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis.asyncio.Redis]]"
_clients = weakref.WeakKeyDictionary()


def loop_client(url: str) -> redis.asyncio.Redis:
    """The running loop's client of the Redis at `url` (a second to connect or answer, as
    each one-off client had)."""
    by_url = _clients.setdefault(asyncio.get_running_loop(), {})
    client = by_url.get(url)
    if client is None:
        client = by_url[url] = redis.asyncio.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1
        )
    return client
