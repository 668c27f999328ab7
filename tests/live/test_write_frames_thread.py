"""On PostgreSQL a frame that writes is served beside the database thread, not in it
(issue 25, "A club night on one machine").

The one database thread of a process serves every socket's own reads: the rights read
again on each ping, the log's last seq for the ping's catch-up, presence rows, join
snapshots. Ends of turn (and chat, dice...) were served there too, each building the
next side's board (38 ms on the capacity table, against 2-3 ms for a ping's reads), so
that a write waited behind any slow read there (a long battle's snapshot) and every ping
behind the writes (docs/benchmarks.md, "What the bursts were"). Acts already had threads
of their own; now every frame that writes does, on PostgreSQL (the battle row's lock
orders them from any thread; SQLite keeps its one writer thread).
"""

import asyncio
import threading

import pytest
from django.db import connection

from tabletop.services.table import log
from tests.live.conftest import make_table, seat

pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_end_of_turn_is_answered_while_the_database_thread_is_busy(table, monkeypatch):
    """A spectator's ping at one table holds the database thread (its catch-up's read of
    the log, held by the test); a player at another table ends the turn and chats
    meanwhile: both are acknowledged while the ping's read is still held."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serves every write in its one database thread")
    entered, release = threading.Event(), threading.Event()
    last_seq = log.last_seq

    def held_last_seq(battle_id: int) -> int:
        if battle_id == table.battle.id:
            entered.set()
            release.wait(10)
        return last_seq(battle_id)

    other = await seat(*await make_table("o-"))
    monkeypatch.setattr(log, "last_seq", held_last_seq)
    try:
        await table.spectator.send({"type": "ping"})
        for _ in range(500):
            if entered.is_set():
                break
            await asyncio.sleep(0.01)
        assert entered.is_set(), "the ping never read the log"
        await other.p1.send({"type": "end_turn", "id": "e-1", "seen": 0})
        answer = await other.p1.get("ack", "reject", "error", timeout=5)
        assert answer["type"] == "ack" and answer["id"] == "e-1", answer
        await other.p2.send({"type": "chat", "id": "c-1", "text": "your turn"})
        answer = await other.p2.get("ack", "reject", "error", timeout=5)
        assert answer["type"] == "ack" and answer["id"] == "c-1", answer
    finally:
        release.set()
    assert (await table.spectator.get("pong"))["type"] == "pong"
    await other.leave()
