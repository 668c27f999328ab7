"""A Redis outage (docs/protocol.md, close code 4503; issue 15).

While Redis was down a new websocket got HTTP 500 and the log filled with tracebacks.
Now a new socket is accepted and closed with 4503 (the board says the table is degraded
and retries), the outage is logged once, commands still commit (their broadcast waits in
the log), and when Redis answers again new sockets connect, with no restart.

The Redis here is a second `redis-server` this test starts on a free port and stops:
never the machine's own.
"""

import logging
import shutil
import subprocess
import time

import pytest
import redis
from channels.testing import WebsocketCommunicator

from tabletop import events, limits
from tabletop.settings import REDIS_LAYERS, redis_channel_layer
from tests.conftest import free_port, need
from tests.live.conftest import make_table, move
from tests.live.helpers import open_socket, table_communicator

pytestmark = pytest.mark.django_db(transaction=True)


class RedisServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture(params=sorted(REDIS_LAYERS))
def own_redis(request, settings, monkeypatch):
    need("redis-server", bool(shutil.which("redis-server")), "not on PATH")
    server = RedisServer()
    server.start()
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(server.url, request.param)}
    monkeypatch.setattr(events, "_layer_down", False)
    yield server
    server.stop()


async def first_output(communicator: WebsocketCommunicator) -> dict:
    return await communicator.receive_output(timeout=10)


async def test_while_redis_is_down_new_sockets_are_closed_with_4503_and_logged_once(
    own_redis, caplog
):
    battle, users = await make_table()
    p1 = await open_socket(battle.id, users["p1"])
    unit = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")

    own_redis.stop()
    caplog.set_level(logging.INFO)
    closes = []
    for role in ("p2", "spectator", "gm", "p2", "spectator"):
        communicator = await table_communicator(battle.id, users[role], timeout=10)
        output = await first_output(communicator)
        closes.append((output["type"], output.get("code")))
    assert closes == [("websocket.close", limits.CLOSE_LAYER_DOWN)] * 5
    # A command still commits; its broadcast waits in the log.
    await p1.send({"type": "act", "id": "m-1", "seen": 0, "action": move(unit, [1.5, 6.5])})
    assert (await p1.get("ack"))["seq"] == 1
    # (asyncio's "Task was destroyed" of an earlier test's loop, collected now, is not ours)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name != "asyncio"]
    assert [r.name for r in errors] == ["tabletop.events"], [r.getMessage() for r in errors]
    assert "unreachable" in errors[0].getMessage()

    own_redis.start()
    again = await open_socket(battle.id, users["p2"])  # hello and snapshot, no restart
    assert again.seq == 1
    assert any("answers again" in r.getMessage() for r in caplog.records)
    await again.close()
    await p1.close()
