"""Real Daphne processes sharing PostgreSQL and Redis, with `websockets` clients.

A move made on one process arrives on the other; conflicting acts sent at once
through two processes are decided by the battle row's lock; a process killed
with SIGKILL mid-game loses no acknowledged event.
"""

import asyncio
import os
import signal
from dataclasses import dataclass, field

import pytest
from django.db import connection

from tabletop.models import Battle, Event
from tabletop.services.table.position import position_hash
from tests.conftest import free_port, need, start_asgi_server, stop_asgi_server
from tests.live.conftest import make_table, move
from tests.live.helpers import in_thread, session_cookie
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Servers:
    ports: list[int]
    env: dict[str, str]
    processes: list = field(default_factory=list)

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def kill(self, i: int) -> None:
        os.kill(self.processes[i].pid, signal.SIGKILL)
        self.processes[i].wait()

    def start(self, i: int) -> None:
        self.processes[i] = start_asgi_server(self.ports[i], self.env)


@pytest.fixture
def servers(redis_url, transactional_db):
    need(
        "PostgreSQL",
        connection.vendor == "postgresql",
        "several processes share one battle only on PostgreSQL (DATABASE_URL)",
    )
    # The tests play far faster than people: the per-socket rate limit is raised.
    env = {
        "REDIS_URL": redis_url,
        "CONN_MAX_AGE": "60",
        "TABLE_FRAMES_PER_S": "1000",
        "TABLE_BURST": "1000",
    }
    s = Servers([free_port(), free_port()], env)
    s.processes = [start_asgi_server(port, env) for port in s.ports]
    yield s
    for process in s.processes:
        if process.poll() is None:
            stop_asgi_server(process)


async def client(name, servers, i, battle, users) -> LiveClient:
    c = LiveClient(name, servers.url(i), battle.id, await session_cookie(users[name]))
    await c.connect()
    await c.until(lambda: any(f["type"] == "snapshot" for f in c.frames))
    return c


@in_thread
def stored(battle_id: int) -> tuple[Battle, dict[int, str]]:
    battle = Battle.objects.get(pk=battle_id)
    ids = dict(Event.objects.filter(battle=battle).values_list("seq", "client_msg_id"))
    return battle, ids


def unit_of(battle, side: str) -> str:
    return next(u["id"] for u in battle.state["units"] if u["side"] == side)


async def test_a_move_made_on_one_process_arrives_on_the_other(servers):
    battle, users = await make_table()
    p1 = await client("p1", servers, 0, battle, users)
    p2 = await client("p2", servers, 1, battle, users)
    answer = await p1.request(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(unit_of(battle, "P1"), [1.5, 6.5])}
    )
    assert answer == {"type": "ack", "id": "m-1", "seq": 1}
    await p1.at_seq(1)
    await p2.at_seq(1)
    assert p2.unit(unit_of(battle, "P1"))["position"] == [1.5, 6.5]
    assert p2.hash == p1.hash
    await p2.until(
        lambda: any(
            f["type"] == "presence" and {"p1", "p2"} <= {p["user"] for p in f["present"]}
            for f in p2.frames
        )
    )
    assert not p1.problems + p2.problems
    await p1.close()
    await p2.close()


async def test_two_conflicting_acts_at_once_two_hundred_times_exactly_one_is_accepted(servers):
    battle, users = await make_table()
    unit = unit_of(battle, "P1")
    player = await client("p1", servers, 0, battle, users)
    gm = await client("gm", servers, 1, battle, users)  # a GM may order any side's units
    accepted = 0
    for n in range(200):
        seen = player.seq
        answers = await asyncio.gather(
            player.request(
                {"type": "act", "id": f"p-{n}", "seen": seen, "action": move(unit, [1.5, 4.5])}
            ),
            gm.request(
                {"type": "act", "id": f"g-{n}", "seen": seen, "action": move(unit, [3.5, 4.5])}
            ),
        )
        kinds = sorted(a["type"] for a in answers)
        assert kinds == ["ack", "reject"], answers
        loser = next(a for a in answers if a["type"] == "reject")
        assert loser["reasons"][0]["code"] == "stale"
        accepted += 1
        undo = await gm.request({"type": "undo", "id": f"u-{n}", "reason": "next round"})
        await player.at_seq(undo["seq"])
        await gm.at_seq(undo["seq"])
    final, ids = await stored(battle.id)
    assert accepted == 200
    assert sum(1 for i in ids.values() if i.startswith(("p-", "g-"))) == 200
    assert player.hash == gm.hash == position_hash(final.state, final.turn_state)
    assert not player.problems + gm.problems
    await player.close()
    await gm.close()


async def test_a_server_killed_mid_game_loses_no_acknowledged_event(servers):
    battle, users = await make_table()
    units = {"P1": unit_of(battle, "P1"), "P2": unit_of(battle, "P2")}
    spots = {"P1": ([1.5, 4.5], [1.5, 1.5]), "P2": ([1.5, 28.5], [1.5, 31.5])}
    p1 = await client("p1", servers, 0, battle, users)
    gm = await client("gm", servers, 0, battle, users)
    p2 = await client("p2", servers, 1, battle, users)
    watcher = await client("spectator", servers, 1, battle, users)
    everyone = [p1, gm, p2, watcher]
    acked: dict[int, str] = {}

    async def ask(c: LiveClient, frame: dict) -> dict:
        answer = await c.request(frame, timeout=40)
        if answer["type"] == "ack":
            acked[answer["seq"]] = frame["id"]
            await c.at_seq(answer["seq"])
        return answer

    for k in range(12):
        side = "P1" if k % 2 == 0 else "P2"
        player = p1 if side == "P1" else p2
        await player.at_seq(max(acked, default=0))  # a player acts on what it has seen
        act = {
            "type": "act",
            "id": f"act-{k}",
            "seen": player.seq,
            "action": move(units[side], spots[side][(k // 2) % 2]),
        }
        if k == 6:
            # Mid-game: the process serving P1 and the GM dies with the act in flight.
            await player.send(act)
            servers.kill(0)
            await p2.request({"type": "chat", "id": "during-outage", "text": "still here"})
            servers.start(0)
            for c in (p1, gm):
                await c.until(lambda c=c: not c.connected)
                await c.connect(resume=True)
            answer = await p1.request(act, timeout=40)  # the same id: answered, applied once
            assert answer["type"] == "ack", answer
            acked[answer["seq"]] = act["id"]
            await p1.at_seq(answer["seq"])
        else:
            answer = await ask(player, act)
            assert answer["type"] == "ack", answer
        if k % 3 == 0:
            await ask(gm, {"type": "chat", "id": f"chat-{k}", "text": f"turn {k}"})
        await ask(player, {"type": "end_turn", "id": f"end-{k}"})

    final, ids = await stored(battle.id)
    for c in everyone:
        await c.at_seq(final.last_seq, timeout=40)
    assert acked, "the game acknowledged nothing"
    assert all(ids[seq] == msg_id for seq, msg_id in acked.items())
    assert list(ids).count(0) == 0 and sorted(ids) == list(range(1, final.last_seq + 1))
    assert sum(1 for i in ids.values() if i == "act-6") == 1
    expected = position_hash(final.state, final.turn_state)
    assert {c.hash for c in everyone} == {expected}
    assert [c.problems for c in everyone] == [[], [], [], []]
    for c in everyone:
        await c.close()
