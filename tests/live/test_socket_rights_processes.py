"""Rights and the socket cap across real Daphne processes sharing PostgreSQL and Redis
(issue 21): a change of role made in one process closes the user's sockets in every
other at once, and twenty handshakes split between two processes open no more than the
user's cap.
"""

import asyncio
import json
import time
from typing import Any

import pytest
import redis
import websockets

from tabletop import limits
from tabletop.models import Role
from tabletop.services.table import rights, sockets
from tests.conftest import stop_asgi_server
from tests.live.conftest import make_table
from tests.live.helpers import session_cookie
from tests.live.test_role_changes import set_role
from tests.live.test_table_processes import client, servers  # noqa: F401 (a fixture)
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(c: LiveClient) -> int:
    await c.until(lambda: not c.connected, timeout=10)
    return int(c.ws.close_code)


async def test_a_role_changed_here_closes_the_users_sockets_in_both_processes(servers):  # noqa: F811
    battle, users = await make_table()
    on_first = await client("p1", servers, 0, battle, users)
    on_second = await client("p1", servers, 1, battle, users)
    watcher = await client("p2", servers, 1, battle, users)
    await set_role(battle.id, users["p1"], Role.SPECTATOR)  # in this, a third, process
    assert await closed_with(on_first) == rights.CLOSE_RIGHTS_CHANGED
    assert await closed_with(on_second) == rights.CLOSE_RIGHTS_CHANGED
    assert watcher.connected  # another user's socket is not touched
    before = len(on_second.frames)
    await on_second.connect(resume=True)  # as the board does
    await on_second.until(lambda: any(f["type"] == "hello" for f in on_second.frames[before:]))
    hello = next(f for f in on_second.frames[before:] if f["type"] == "hello")
    assert hello["you"]["role"] == "spectator"
    for c in (on_second, watcher):
        await c.close()


async def test_twenty_handshakes_at_once_on_two_processes_open_no_more_than_the_cap(
    servers,  # noqa: F811
    redis_url,
):
    battle, users = await make_table()
    cookie = (await session_cookie(users["spectator"])).decode()
    places = redis.Redis.from_url(redis_url)
    key = sockets._key(battle.id, users["spectator"].pk)
    places.delete(key)  # a test database's ids come again: a last run's places are not ours

    async def handshake(i: int) -> tuple[str | int, Any]:
        base = servers.url(i % 2)
        ws = await websockets.connect(
            base.replace("http://", "ws://") + f"/ws/battles/{battle.id}/",
            additional_headers={"Cookie": cookie},
            origin=base,
            open_timeout=20,
        )
        try:
            return json.loads(await asyncio.wait_for(ws.recv(), 20))["type"], ws
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006, ws

    answers = await asyncio.gather(*(handshake(i) for i in range(20)))
    kinds = [kind for kind, _ in answers]
    assert kinds.count("hello") == limits.USER_SOCKETS
    assert kinds.count(limits.CLOSE_TOO_MANY_SOCKETS) == 20 - limits.USER_SOCKETS
    # A process stopped (a rolling restart) gives its sockets' places back as it exits.
    on_first = sum(1 for i, kind in enumerate(kinds) if kind == "hello" and i % 2 == 0)
    stop_asgi_server(servers.processes[0])
    later = await asyncio.gather(*(handshake(1) for _ in range(on_first)))
    assert [kind for kind, _ in later] == ["hello"] * on_first
    for _, ws in [*answers, *later]:
        await ws.close()
    # Closed: given back. 30 s: twenty releases by a process on a loaded machine (in a
    # suite of parallel workers one place still stood after 10 s), far below the 90 s
    # after which an unrefreshed place would lapse by itself.
    deadline = time.monotonic() + 30
    while places.zcard(key) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert places.zcard(key) == 0
