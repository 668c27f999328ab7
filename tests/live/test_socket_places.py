"""A socket's place under the user's cap is given back however its consumer ends.

The server may end a consumer without calling its `disconnect`: Daphne cancels one still
busy `application_close_timeout` after its client left (a handshake abandoned while the
server is slow: 10 s by default), and every one of a process that stops. A place taken
by such a consumer, even one whose claim was cut off on its way, stayed taken until it
lapsed (90 s): CI's twenty-handshake test once found one still held after 30 s, and 80
handshakes abandoned at once left every place taken.
"""

import asyncio
import base64
import contextlib
import os
import time
from collections.abc import Iterator

import psycopg
import pytest
import redis

from tabletop.models import TableConnection
from tabletop.services.table import sockets
from tabletop.table_socket import presence as table_presence
from tests.conftest import (
    _database_url_of_test_db,
    free_port,
    start_asgi_server,
    stop_asgi_server,
)
from tests.live.conftest import make_table
from tests.live.helpers import in_thread, session_cookie, table_communicator, unconnected

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def places(settings, redis_url):
    """The places in Redis, as the servers keep them."""
    settings.REDIS_URL = redis_url
    return redis.Redis.from_url(redis_url)


async def given_back(places: redis.Redis, keys: list[str], within: float) -> int:
    """The places still taken under `keys` once all are given back, or after `within` s."""
    deadline = time.monotonic() + within
    while sum(places.zcard(key) for key in keys) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return sum(places.zcard(key) for key in keys)


@in_thread
def rows_of(battle_id: int) -> int:
    return TableConnection.objects.filter(battle_id=battle_id).count()


async def test_a_socket_the_server_cancels_gives_its_place_and_row_back(places):
    battle, users = await make_table()
    key = sockets._key(battle.id, users["p1"].pk)
    places.delete(key)
    communicator = await table_communicator(battle.id, users["p1"], timeout=10)
    while (await communicator.receive_json_from(timeout=10))["type"] != "snapshot":
        pass
    await communicator.receive_nothing(0.3)  # its presence row is written after the snapshot
    assert places.zcard(key) == 1 and await rows_of(battle.id) == 1
    # As Daphne does (and then waits for it to end): no `websocket.disconnect` comes.
    communicator.future.cancel()
    await asyncio.wait([communicator.future], timeout=10)
    assert places.zcard(key) == 0
    assert await rows_of(battle.id) == 0


async def test_a_socket_cancelled_while_its_claim_is_on_its_way_gives_the_place_back(
    places, monkeypatch
):
    """The claim has taken the place in Redis; its answer has not arrived when the
    consumer is cancelled."""
    battle, users = await make_table()
    key = sockets._key(battle.id, users["p1"].pk)
    places.delete(key)
    taken = asyncio.Event()
    real_claim = sockets.claim

    async def slow_answer(*args):
        answer = await real_claim(*args)
        taken.set()
        await asyncio.sleep(0.5)
        return answer

    monkeypatch.setattr(table_presence.sockets, "claim", slow_answer)
    communicator = await unconnected(battle.id, users["p1"])
    connecting = asyncio.ensure_future(communicator.connect(timeout=10))
    await asyncio.wait_for(taken.wait(), 10)
    assert places.zcard(key) == 1
    communicator.future.cancel()
    connecting.cancel()
    assert await given_back(places, [key], within=5) == 0


async def abandon_a_handshake(port: int, battle_id: int, cookie: str) -> None:
    """Sends a websocket handshake and closes the connection without waiting for it."""
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"GET /ws/battles/{battle_id}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    writer.close()


@contextlib.contextmanager
def presence_rows_locked() -> Iterator[None]:
    """The table of presence rows locked by another connection: a socket's server stops at
    writing its row (after its place is taken) as on a database that is slow."""
    with psycopg.connect(_database_url_of_test_db()) as locker:
        locker.execute(f"LOCK TABLE {TableConnection._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            locker.rollback()


async def test_a_handshake_abandoned_on_a_slow_server_gives_its_place_back(places, redis_url):
    """A real Daphne, that cancels a consumer still busy one second after its client left
    (the default ten seconds, shortened for the test)."""
    port = free_port()
    process = start_asgi_server(
        port, {"REDIS_URL": redis_url}, daphne_options=("--application-close-timeout", "1")
    )
    try:
        battle, users = await make_table()
        cookie = (await session_cookie(users["p1"])).decode()
        key = sockets._key(battle.id, users["p1"].pk)
        places.delete(key)
        with presence_rows_locked():
            await abandon_a_handshake(port, battle.id, cookie)
            deadline = time.monotonic() + 20
            while not places.zcard(key) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert places.zcard(key) == 1  # taken; the consumer now waits for the database
            await asyncio.sleep(3)  # long enough for the server to cancel it
        assert await given_back(places, [key], within=20) == 0
    finally:
        stop_asgi_server(process)


async def test_a_place_whose_release_redis_failed_is_given_back_when_redis_answers_again(
    places, monkeypatch
):
    """Redis timed out as the socket closed: the place was left taken until it lapsed
    (90 s), keeping the user's next socket out when their cap was full. It is given back
    as soon as Redis answers again."""
    monkeypatch.setattr(table_presence, "RELEASE_RETRIES_S", (0.2, 0.2, 0.2), raising=False)
    battle, users = await make_table()
    key = sockets._key(battle.id, users["p1"].pk)
    places.delete(key)
    real_release = sockets.release
    failures = [redis.TimeoutError("Timeout reading from socket")] * 2

    async def flaky_release(*args):
        if failures:
            raise failures.pop()
        await real_release(*args)

    monkeypatch.setattr(table_presence.sockets, "release", flaky_release)
    communicator = await table_communicator(battle.id, users["p1"], timeout=10)
    while (await communicator.receive_json_from(timeout=10))["type"] != "snapshot":
        pass
    assert places.zcard(key) == 1
    await communicator.disconnect()
    assert await given_back(places, [key], within=5) == 0
    assert not failures
