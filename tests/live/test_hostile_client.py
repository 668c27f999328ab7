"""A hostile client's engine work does not hold up other tables (issue 15).

A preview whose path cost the engine 0.5-1.4 s used to run in the one database thread
that every table of the process shares, and the rate limit counted frames when they
were processed, not when they arrived: another battle's ping went from 7 ms to
430-600 ms. Now engine work runs in the engine's own threads, as a task of its own, and
a user's engine time is a budget checked when the frame arrives (docs/protocol.md,
"Limits per user").

The first test is the real stack: one Daphne process on PostgreSQL and Redis, a client
sending the most expensive previews the protocol accepts from several sockets as fast
as their rate limit lets it, while a player of another battle pings (figures with -s).
The second makes the engine itself slow (300 ms a judgement) in-process, so that the
scheduling is tested whatever the engine's own bounds are.

Issue 21, round two: a closed and reopened socket brought a fresh engine budget, a request
was charged only after it had run, and on PostgreSQL a move waited in the engine threads
behind the previews. The third test holds previews in every engine thread and moves
meanwhile; the fourth plays the attack on the real stack, two Daphne processes
(bench/hostile.py's rounds).
"""

import asyncio
import concurrent.futures
import json
import statistics
import threading
import time

import pytest
from django.db import connection

from bench.hostile import attack_seats, play_rounds
from tabletop import limits
from tabletop.services.table import preview
from tests.conftest import free_port, need, start_asgi_server, stop_asgi_server
from tests.live.conftest import make_table, move
from tests.live.helpers import in_thread, open_socket, session_cookie
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)

WINDOWS = 6
WINDOW_S = 1.5
ATTACKER_SOCKETS = 4
PING_EVERY_S = 0.06  # under the socket's own 20 frames a second


def most_expensive_preview(unit: str, n: int) -> dict:
    """The costliest preview the protocol and the engine's bounds accept on the reference
    board (36" x 36", the factory's): all 64 path steps, a zigzag with a turn at every
    other step, and the reachable area asked for (measured: 1-5 ms of engine time; the
    engine refuses longer paths, more turning or far points at once as `malformed`)."""
    path: list = []
    for i in range(32):
        path.append([1.5 + (i % 2) * 0.5, 1.5 + i])
        path.append({"turn": 5.0 if i % 2 else -5.0})
    return {
        "type": "preview",
        "ref": f"a-{n}",
        "action": {"unit": unit, "type": "move", "path": path},
        "reach": True,
    }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def ping_times(client: LiveClient, stop: asyncio.Event) -> list[float]:
    """Round trips (ms) of pings sent every PING_EVERY_S until `stop`."""
    times = []
    while not stop.is_set():
        pongs = sum(f["type"] == "pong" for f in client.frames)
        started = time.perf_counter()
        await client.ws.send('{"type": "ping"}')
        await client.until(lambda p=pongs: sum(f["type"] == "pong" for f in client.frames) > p)
        times.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(PING_EVERY_S)
    return times


async def attack(client: LiveClient, unit: str, stop: asyncio.Event, sent: list[int]) -> None:
    """Previews at the socket's own rate limit (frames_per_s), so that the socket is never
    closed for flooding and every one counts against the engine budget."""
    n = 0
    while not stop.is_set():
        n += 1
        await client.ws.send(json.dumps(most_expensive_preview(unit, n)))
        sent[0] += 1
        await asyncio.sleep(1 / limits.FRAMES_PER_S)


def real_stack(redis_url: str, **env: str) -> dict[str, str]:
    """The servers' environment on PostgreSQL and Redis (skipped, or failed in CI, without)."""
    need(
        "PostgreSQL",
        connection.vendor == "postgresql",
        "the hostile-client test runs on the real stack (DATABASE_URL=postgres://...)",
    )
    return {"REDIS_URL": redis_url, "CONN_MAX_AGE": "60", **env}


@pytest.fixture
def one_process(redis_url, transactional_db):
    port = free_port()
    process = start_asgi_server(port, real_stack(redis_url))
    yield f"http://127.0.0.1:{port}"
    stop_asgi_server(process)


async def test_a_hostile_clients_previews_do_not_hold_up_another_battles_pings(one_process):
    hostile_battle, hostile_users = await make_table("h-")
    victim_battle, victim_users = await make_table("v-")
    unit = next(u["id"] for u in hostile_battle.state["units"] if u["side"] == "P1")
    cookie = await session_cookie(hostile_users["p1"])
    attackers = [
        LiveClient(f"attacker-{i}", one_process, hostile_battle.id, cookie)
        for i in range(ATTACKER_SOCKETS)
    ]
    victim = LiveClient(
        "victim", one_process, victim_battle.id, await session_cookie(victim_users["p1"])
    )
    for client in [*attackers, victim]:
        await client.connect()
        await client.until(lambda c=client: any(f["type"] == "snapshot" for f in c.frames))

    # Quiet and attacked windows alternate, so that both see the same load of the
    # machine (a shared CI runner's other jobs), and the attack's own effect shows.
    quiet_ms: list[float] = []
    attacked_ms: list[float] = []
    sent = [0]
    for _ in range(WINDOWS):
        stop = asyncio.Event()
        pinging = asyncio.create_task(ping_times(victim, stop))
        await asyncio.sleep(WINDOW_S)
        stop.set()
        quiet_ms += await pinging
        stop = asyncio.Event()
        tasks = [asyncio.create_task(attack(a, unit, stop, sent)) for a in attackers]
        pinging = asyncio.create_task(ping_times(victim, stop))
        await asyncio.sleep(WINDOW_S)
        stop.set()
        await asyncio.gather(*tasks)
        attacked_ms += await pinging
    await asyncio.sleep(2)  # the answers still on their way

    answers = [f for a in attackers for f in a.frames if f["type"] in ("verdict", "error")]
    accepted = sum(f["type"] == "verdict" for f in answers)
    limited = sum(f["type"] == "error" and f["code"] == "rate_limited" for f in answers)
    other = [f for f in answers if f["type"] == "error" and f["code"] != "rate_limited"]
    p50, p99 = statistics.median(attacked_ms), percentile(attacked_ms, 99)
    quiet_p99 = percentile(quiet_ms, 99)
    print(
        f"\nvictim's ping (another battle, same process), {len(attacked_ms)} pings under "
        f"attack: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(attacked_ms):.1f} ms; "
        f"{len(quiet_ms)} pings between attacks: p50 {statistics.median(quiet_ms):.1f} ms, "
        f"p99 {quiet_p99:.1f} ms\nattacker ({ATTACKER_SOCKETS} sockets, "
        f"{WINDOWS * WINDOW_S:.0f} s of attack): {sent[0]} previews sent, {accepted} accepted "
        f"(judged), {limited} limited"
    )
    assert not other, other[:3]
    assert accepted + limited == sent[0]
    # Four sockets at their own rate send twice what one user may: the rest is limited
    # (before issue 15 every one was judged: 716 of 716).
    assert limited > 0
    # The 50 ms target is a measured figure (printed above; docs/benchmarks.md), not a
    # timed assertion: CI shares its machine (DEVELOPERS.md, "Standards"). What this test
    # holds is the failure the fix removed: previews queued behind each other held the
    # victim's pings for whole seconds, so no ping may wait as long as one. (A quarter
    # second was the bound until a CI run beside the clean-machine test, three workers on
    # two cores, saw one ping at 319 ms with the rest under 13 ms: the machine's, not the
    # queue's; the bound still fails on the queue's whole seconds.)
    assert max(attacked_ms) < 1000
    for client in [*attackers, victim]:
        await client.close()


def slow_engine(monkeypatch, seconds: float) -> None:
    """Every preview costs `seconds` of CPU in the engine, as the unbounded engine's
    worst paths did (0.5-1.4 s)."""
    judge = preview.battle_preview

    def slow(**kwargs):
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            pass
        return judge(**kwargs)

    monkeypatch.setattr(preview, "battle_preview", slow)


async def test_previews_over_the_engine_budget_are_limited_when_they_arrive(table):
    """Twenty 300 ms previews sent at once: the first is judged; the others, arriving
    while it is, are refused at once (rate_limited), not queued behind it; meanwhile a
    player of another battle gets pongs in well under 50 ms."""
    victim_battle, victim_users = await make_table("v-")
    victim = await open_socket(victim_battle.id, victim_users["p1"])
    with pytest.MonkeyPatch.context() as monkeypatch:
        slow_engine(monkeypatch, 0.3)
        started = time.perf_counter()
        for n in range(20):
            await table.p1.send(most_expensive_preview(table.u1, n))
        stop = asyncio.Event()

        async def pings() -> list[float]:
            times = []
            while not stop.is_set():
                ping_started = time.perf_counter()
                await victim.send({"type": "ping"})
                await victim.get("pong")
                times.append((time.perf_counter() - ping_started) * 1000)
                await asyncio.sleep(0.01)
            return times

        pinging = asyncio.create_task(pings())
        answers = []
        for _ in range(20):
            frame = await table.p1.get("verdict", "error")
            answers.append((time.perf_counter() - started, frame))
        stop.set()
        ping_ms = await pinging
    refused = [(at, f) for at, f in answers if f["type"] == "error"]
    judged = [(at, f) for at, f in answers if f["type"] == "verdict"]
    print(
        f"\n{len(judged)} judged, {len(refused)} limited; last refusal after "
        f"{max(at for at, _ in refused) * 1000:.0f} ms; victim's ping p50 "
        f"{statistics.median(ping_ms):.1f} ms p99 {percentile(ping_ms, 99):.1f} ms"
    )
    assert {f["code"] for _, f in refused} == {"rate_limited"}, [
        f for _, f in refused if f["code"] != "rate_limited"
    ]
    assert [f["ref"] for _, f in judged] == ["a-0"]
    assert max(at for at, _ in refused) < 0.3, "a refusal waited for a judgement"
    # Before issue 15 every ping waited behind the judgements (p50 289 ms, p99 310 ms):
    # now the pings go on beside the 300 ms judgement, none held as long as it. (Not a
    # fixed 100 ms: one slow ping, 103 ms, on a machine twice as slow was CI's failure.)
    assert statistics.median(ping_ms) < 50, ping_ms
    assert percentile(ping_ms, 99) < 300, ping_ms
    await victim.close()


async def test_a_move_never_waits_behind_previews(table, monkeypatch):
    """Previews of two users fill every engine thread, each held there until the test
    lets it go; a player of another battle moves meanwhile: the move is acknowledged while
    they are still held (issue 21: on PostgreSQL acts were judged in the same threads, so
    a flood of previews held moves for seconds; on SQLite they ran, as now, in the
    database thread)."""
    held, running = threading.Event(), []
    judge = preview.battle_preview

    def held_preview(**kwargs):
        running.append(kwargs["actor"].name)
        held.wait(10)
        return judge(**kwargs)

    monkeypatch.setattr(preview, "battle_preview", held_preview)
    victim_battle, victim_users = await make_table("v-")
    victim = await open_socket(victim_battle.id, victim_users["p1"])
    u1 = next(u["id"] for u in victim_battle.state["units"] if u["side"] == "P1")
    try:
        await table.p1.send(most_expensive_preview(table.u1, 1))
        await table.p2.send(most_expensive_preview(table.u2, 2))
        for _ in range(500):
            if len(running) == limits.ENGINE_WORKERS:
                break
            await asyncio.sleep(0.01)
        assert len(running) == limits.ENGINE_WORKERS, running
        await victim.send({"type": "act", "id": "m-1", "seen": 0, "action": move(u1, [1.5, 6.5])})
        answer = await victim.get("ack", "reject", "error", timeout=5)
        assert answer["type"] == "ack", answer
        assert len(running) == limits.ENGINE_WORKERS and not held.is_set()
    finally:
        held.set()
    for socket in (table.p1, table.p2):
        assert (await socket.get("verdict", "error"))["type"] == "verdict"
    await victim.close()


@pytest.fixture
def two_processes(redis_url, transactional_db):
    env = real_stack(
        redis_url,
        # One engine thread a process, so that the two attackers' previews make a queue
        # there: a move that waited in it would be answered after both.
        TABLE_ENGINE_WORKERS="1",
        # A small budget, refilled slowly (100 ms of engine time takes 20 s): an attacker
        # spends it in a few rounds and stays spent for the rest of the test, however
        # slowly a loaded machine plays the rounds (at 20 ms a second, rounds of 1.5 s
        # instead of 0.3 s refilled as much as the previews cost, and none was refused).
        TABLE_ENGINE_MS_PER_S="5",
        TABLE_ENGINE_BURST_MS="300",
    )
    ports = [free_port(), free_port()]
    with concurrent.futures.ThreadPoolExecutor(2) as starting:
        processes = list(starting.map(lambda port: start_asgi_server(port, env), ports))
    yield [f"http://127.0.0.1:{port}" for port in ports]
    for process in processes:
        stop_asgi_server(process)


async def test_two_reconnecting_accounts_get_no_fresh_budget_and_hold_up_no_move(
    two_processes,
):
    """Issue 21's attack on the real stack (two Daphne processes, PostgreSQL, Redis): two
    accounts, each on its own battle on the most complex map the limits allow, close and
    reopen their sockets every round (alternately on each process) and ask a preview with
    reach and an alternative; a victim on a third battle moves and previews meanwhile
    (bench/hostile.py's rounds; figures with -s, and in docs/benchmarks.md).

    A fresh socket used to bring a fresh budget; now the budget is the user's, in Redis,
    whichever process the socket is on: once spent, a new socket's preview is refused. And
    a move used to queue behind the previews (in the same engine threads, on PostgreSQL):
    now every move sent while both attackers' previews were with the server is answered
    before the later of them."""
    seats, described = await in_thread(attack_seats)("t-")
    figures = await play_rounds(two_processes, seats[:2], seats[2], rounds=8)
    print(
        f"\nmap {described}; victim's act p50 {statistics.median(figures.act_ms):.1f} ms, "
        f"p99 {percentile(figures.act_ms, 99):.1f} ms; preview p50 "
        f"{statistics.median(figures.preview_ms):.1f} ms, p99 "
        f"{percentile(figures.preview_ms, 99):.1f} ms; attack previews judged {figures.judged}, "
        f"refused {figures.refused}; moves answered before the queued preview: "
        f"{sum(figures.act_first)} of {len(figures.act_first)}"
    )
    assert not figures.other_errors, figures.other_errors[:3]
    assert figures.refused_after_reconnect > 0
    assert len(figures.act_first) >= 2 and all(figures.act_first), figures.act_first
