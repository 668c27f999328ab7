"""A broadcast's work in the server does not grow with the sockets it reaches, beyond
handing each its text (docs/benchmarks.md, "Live table (table_rtt)"): 200 spectators at
a final are 200 copies of every event, ping and presence frame.

Each frame a table broadcasts is written once (`events.canonical`), not once per
receiving socket, a socket takes its copy from the channel layer without a task of
its own per message (`table_socket.layer.dispatch_in_turn`), and hands it to the server
past Channels' session wrapper (`table_socket.frame_writes.past_session_wrapper`).
"""

import asyncio
import contextlib
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from tabletop import consumers, events
from tabletop.services.campaigns import membership_set
from tests.live.conftest import move
from tests.live.helpers import in_thread, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

#: Spectators added to the table's four sockets (GM, P1, P2, a spectator).
MORE_SPECTATORS = 4


@in_thread
def more_spectators(battle, count: int) -> list[User]:
    users = []
    for i in range(count):
        user = User.objects.create_user(f"watcher{i}", password="x")
        membership_set(campaign=battle.campaign, user=user, role="spectator")
        users.append(user)
    return users


async def everyone(table) -> list:
    """The table's sockets and MORE_SPECTATORS more; their presence frames read."""
    extra = [
        await open_socket(table.battle.id, user)
        for user in await more_spectators(table.battle, MORE_SPECTATORS)
    ]
    sockets = table.sockets + extra
    await asyncio.sleep(0.5)  # the joins' presence announcements, coalesced, go out
    for socket in sockets:
        assert await socket.quiet()
    return sockets


@contextlib.contextmanager
def counted_calls(monkeypatch, owner: object, name: str) -> Iterator[list[object]]:
    """The first argument of each call of `owner.name` while the block runs."""
    calls: list[object] = []
    original = getattr(owner, name)

    def counting(first, *args, **kwargs):
        calls.append(first)
        return original(first, *args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    yield calls


def counted_writes(monkeypatch) -> contextlib.AbstractContextManager[list[object]]:
    """Each frame `events.canonical` writes while the block runs."""
    return counted_calls(monkeypatch, events, "canonical")


async def test_a_presence_frame_is_written_once_for_every_socket(table, monkeypatch):
    sockets = await everyone(table)
    frame = events.presence([("gm", "gm", 1)])
    with counted_writes(monkeypatch) as written:
        await events.send_presence(table.battle.id, frame)
        for socket in sockets:
            assert await socket.next() == frame
    assert written == [frame]
    for socket in extra_sockets(sockets, table):
        await socket.close()


async def test_a_ping_is_written_once_for_every_socket(table, monkeypatch):
    sockets = await everyone(table)
    with counted_writes(monkeypatch) as written:
        await table.p1.send({"type": "point", "at": [12, 30]})
        for socket in sockets:
            got = await socket.get("point")
            assert got == {"type": "point", "user": "p1", "role": "player", "at": [12, 30]}
    assert [frame["type"] for frame in written] == ["point"]  # type: ignore[index]
    for socket in extra_sockets(sockets, table):
        await socket.close()


async def test_a_sockets_copy_of_a_broadcast_takes_no_task_of_its_own(table, monkeypatch):
    sockets = await everyone(table)
    # A socket's first periodic rights re-read falls due at a random part of its interval
    # (test_rights_recheck_spread.py) and runs in tasks of its own: on a loaded machine some
    # fell due during this broadcast. Not this test's subject: none is due here.
    monkeypatch.setattr(consumers, "RIGHTS_RECHECK_S", 3600.0)
    loop = asyncio.get_running_loop()
    made: list[object] = []

    def factory(loop, coro, **kwargs):
        if "/redis/" not in coro.cr_code.co_filename:  # the Redis client's sends: not ours
            made.append(coro)
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(factory)
    try:
        await table.p1.send(
            {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
        )
        for socket in sockets:
            assert (await socket.get("event"))["seq"] == 1
    finally:
        loop.set_task_factory(None)
    # The act's own work (its thread, the broadcast) may make a task or two; Channels'
    # loop made one more for each of the 8 sockets' copy of the event.
    assert len(made) < len(sockets), [c.__qualname__ for c in made]
    for socket in extra_sockets(sockets, table):
        await socket.close()


def extra_sockets(sockets: list, table) -> list:
    return [s for s in sockets if s not in table.sockets]


async def test_a_sockets_copy_of_a_broadcast_reads_no_session_state(table, monkeypatch):
    """Channels' session wrapper acts on HTTP responses only, but read the session's state
    for each socket's copy of every broadcast (frame_writes.past_session_wrapper)."""
    from django.contrib.sessions.backends.base import SessionBase

    sockets = await everyone(table)
    with counted_calls(monkeypatch, SessionBase, "is_empty") as reads:
        await table.p1.send(
            {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
        )
        for socket in sockets:
            assert (await socket.get("event"))["seq"] == 1
        assert await table.p1.get("ack")
    assert reads == []  # one for each of the 8 sockets' event and one for the ack before
    for socket in extra_sockets(sockets, table):
        await socket.close()
