"""A broadcast's frames go to each websocket's TCP socket at once, not registered with the
event loop to be written on its next turn (tabletop/table_socket/frame_writes.py), and
they are the bytes autobahn would have written.

At a table of 200 spectators each registration was two epoll_ctl calls and a readiness
callback through Twisted, per socket and per event (docs/benchmarks.md, "Fan-out to 200
(session 35)").
"""

import asyncio
import urllib.request

import pytest
from autobahn.websocket.protocol import WebSocketServerFactory

from tabletop.table_socket.frame_writes import FallingBack, text_frame
from tests.conftest import free_port, start_asgi_server, stop_asgi_server
from tests.live.conftest import make_table, move
from tests.live.helpers import session_cookie
from tests.live.test_broadcast_fanout import more_spectators
from tests.live.test_table_processes import unit_of
from tests.live.wsclient import LiveClient

#: Spectators beside the table's GM, two players and spectator.
MORE_SPECTATORS = 6


@pytest.mark.parametrize(
    "text", ["", "x", "x" * 125, "x" * 126, "é" * 40, "x" * 0xFFFF, "x" * 0x10000, "€" * 30_000]
)
def test_a_text_frame_is_the_frame_autobahn_would_write(text):
    payload = text.encode("utf8")
    autobahns = WebSocketServerFactory().prepareMessage(payload).payloadHybi
    assert text_frame(payload) == autobahns


class RenamedInternals:
    """A protocol as a later autobahn might make it: open, but without the attributes
    frame_writes reads (`send_state` and the rest)."""

    STATE_OPEN = state = 3


def test_internals_renamed_by_an_upgrade_send_every_frame_daphnes_way_once():
    sent = []
    sends = FallingBack(lambda protocol, content, binary: sent.append((content, binary)))
    protocol = RenamedInternals()
    sends.send(protocol, "first")
    sends.send(protocol, "second")
    sends.send(protocol, b"third", True)
    assert sent == [("first", False), ("second", False), (b"third", True)]
    assert not sends.usable


def registered_writers(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/probe/writers", timeout=30) as page:
        return int(page.read())


@pytest.fixture
def probed_server(redis_url, transactional_db):
    """A real Daphne serving the product, which counts its sockets' write registrations."""
    port = free_port()
    process = start_asgi_server(
        port,
        {"REDIS_URL": redis_url, "TABLE_FRAMES_PER_S": "1000", "TABLE_BURST": "1000"},
        app="tests.live.write_probe:application",
    )
    yield port
    stop_asgi_server(process)


@pytest.mark.django_db(transaction=True)
async def test_an_event_reaches_every_socket_without_a_write_registration_each(probed_server):
    port = probed_server
    battle, users = await make_table()
    for i, user in enumerate(await more_spectators(battle, MORE_SPECTATORS)):
        users[f"watcher{i}"] = user
    base = f"http://127.0.0.1:{port}"
    clients = {}
    for name, user in users.items():
        c = LiveClient(name, base, battle.id, await session_cookie(user))
        await c.connect()
        await c.until(lambda c=c: any(f["type"] == "snapshot" for f in c.frames))
        clients[name] = c
    await asyncio.sleep(1)  # the joins' presence frames, coalesced, go out
    before = await asyncio.to_thread(registered_writers, port)

    answer = await clients["p1"].request(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(unit_of(battle, "P1"), [1.5, 6.5])}
    )
    assert answer["type"] == "ack"
    for c in clients.values():
        await c.until(lambda c=c: c.seq == 1)
    events = [[f for f in c.frames if f["type"] == "event"] for c in clients.values()]
    assert all(e == events[0] and len(e) == 1 for e in events)  # one event, the same for all

    registered = await asyncio.to_thread(registered_writers, port) - before
    # Before: one registration for each socket's copy of the event, and one for the ack.
    assert registered < len(clients), registered
    for c in clients.values():
        await c.close()
