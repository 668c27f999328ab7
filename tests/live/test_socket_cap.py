"""The cap on one user's sockets at a table holds when they all arrive at once (issue 21).

It counted presence rows, written after the handshake: 20 handshakes at once all counted
the same rows and all opened against a cap of 8. A socket now claims its place before
the handshake completes, atomically (Redis, or this process's memory without it).
"""

import asyncio
import time

import pytest
import redis
from channels.testing import WebsocketCommunicator

from tabletop import limits
from tabletop.services.table import sockets
from tests.live.helpers import session_cookie, unconnected

pytestmark = pytest.mark.django_db(transaction=True)


async def first_answer(communicator: WebsocketCommunicator) -> str | int:
    """`hello`, or the code the socket was closed with."""
    connected, code = await communicator.connect(timeout=20)
    if not connected:
        return int(code)
    output = await communicator.receive_output(timeout=20)
    if output["type"] == "websocket.close":
        return int(output["code"])
    return "hello"


async def test_twenty_handshakes_at_once_open_no_more_than_the_cap(table):
    # The spectator already has one socket open (the fixture's).
    spectator = table.users["spectator"]
    cookie = await session_cookie(spectator)
    many = [await unconnected(table.battle.id, spectator, cookie=cookie) for _ in range(20)]
    answers = await asyncio.gather(*(first_answer(c) for c in many))
    assert answers.count("hello") == limits.USER_SOCKETS - 1
    assert answers.count(limits.CLOSE_TOO_MANY_SOCKETS) == 20 - (limits.USER_SOCKETS - 1)
    for communicator in many:
        await communicator.disconnect()
    # Closed sockets give their places back.
    again = await unconnected(table.battle.id, spectator, cookie=cookie)
    assert await first_answer(again) == "hello"
    await again.disconnect()


def test_places_of_a_killed_process_lapse_in_this_process(settings):
    settings.REDIS_URL = ""
    for i in range(limits.USER_SOCKETS):
        assert sockets._claim_here(1, 2, f"dead-{i}", now=0.0)
    assert not sockets._claim_here(1, 2, "new", now=1.0)
    assert sockets._claim_here(1, 2, "new", now=sockets.PLACE_TTL_S + 1.0)
    sockets._places.clear()


async def test_places_of_a_killed_process_lapse_in_redis(settings, redis_url):
    """A process killed with its sockets open never gave their places back: they lapse."""
    settings.REDIS_URL = redis_url
    key, channels = sockets._key(-1, -1), [f"dead-{i}" for i in range(limits.USER_SOCKETS)]
    client = redis.Redis.from_url(redis_url)
    client.delete(key)
    client.zadd(key, {name: time.time() for name in channels})
    assert not await sockets.claim(-1, -1, "new")
    client.zadd(key, {name: time.time() - sockets.PLACE_TTL_S - 5 for name in channels})
    assert await sockets.claim(-1, -1, "new")
    await sockets.release(-1, -1, "new")
    assert client.zcard(key) == 0
    client.delete(key)
