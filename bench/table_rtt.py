"""Live table round trip: from `act` until every client has the event (not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/table_rtt.py

One table, 2 players and N spectators (N = 0, 50, 200), on real Daphne
processes sharing PostgreSQL and Redis (channels-redis), with `websockets`
clients in this process. For each N it measures, at 10 moves a second:
  - the act round trip: from sending `act` until the last of the N + 2
    clients has the event (p50, p99);
  - the floor, in the same harness and processes: a bare Channels group echo
    (no validation, no database) from one client to the same N + 2 clients.
And, for each N, what a refereed durable move cannot skip: the engine's time
per act (the server's own figure: the mean thread CPU time of an act, which
the table charges to the player's engine budget, from its /metrics) and one
commit's time (one row updated in a transaction of its own, from this
process, paced like the acts); and act p50 - floor p50 against them.
Then, with N = 50 and as fast as the table goes (the next act when the last
one has reached everyone): moves per second and the server processes' CPU
time per move (user + system from /proc/<pid>/stat), with one process and
with two processes serving the same table (`BENCH_THROUGHPUT=0` skips this).

`BENCH_CONN_MAX_AGE=0` runs the servers with the deploy's CONN_MAX_AGE (600 otherwise).

`BENCH_BEFORE=<another checkout>` measures its code beside this one's in the
same run (the latency rows only, `BENCH_ROUNDS` times each, alternating): its
servers run from that tree, on the same database, Redis and bench harness.

The last line printed is one JSON object with the results.

This file is also the servers' ASGI app (`bench.table_rtt:application`): the
product's app plus the echo route, so that both are measured alike.
"""

import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.production import production_env  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tabletop_bench"
SPECTATORS = tuple(int(n) for n in os.environ.get("BENCH_SPECTATORS", "0,50,200").split(","))
MOVES_PER_S = 10.0
TIMED_MOVES = int(os.environ.get("BENCH_MOVES", "150"))
THROUGHPUT_MOVES = int(os.environ.get("BENCH_THROUGHPUT_MOVES", "200"))
THROUGHPUT_SPECTATORS = 50
THROUGHPUT = os.environ.get("BENCH_THROUGHPUT", "1") != "0"
BEFORE = os.environ.get("BENCH_BEFORE", "")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1"))
COMMITS = 50
UNITS_PER_SIDE = 24


# -- the servers' app: the product's, plus a bare group echo ------------------------------

_app: Any = None


def _build_app() -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    from tabletop.asgi import application as product
    from tabletop.consumers import DirectDispatchMixin

    class EchoConsumer(DirectDispatchMixin, AsyncWebsocketConsumer):
        """The floor: a frame goes to the group and back, nothing else (and, like the
        table's consumer, no database-thread hop before each message)."""

        async def connect(self) -> None:
            self.group = "bench-echo-" + self.scope["url_route"]["kwargs"]["room"]
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def receive(self, text_data=None, bytes_data=None) -> None:
            await self.channel_layer.group_send(self.group, {"type": "echo", "text": text_data})

        async def echo(self, message: dict) -> None:
            await self.send(text_data=message["text"])

    echo = URLRouter([path("bench/echo/<str:room>/", EchoConsumer.as_asgi())])

    async def app(scope, receive, send):
        if scope["type"] == "websocket" and scope["path"].startswith("/bench/echo/"):
            return await echo(scope, receive, send)
        return await product(scope, receive, send)

    return app


async def application(scope, receive, send):
    global _app
    if _app is None:
        _app = _build_app()
    await _app(scope, receive, send)


# -- set-up: database, users, battle, servers -------------------------------------------


@cache
def server_env() -> dict[str, str]:
    # As in production: DEBUG off (no query log, no debug cursor wrappers).
    return production_env(
        tempfile.mkdtemp(prefix="bench-rtt-"),
        # 600 unless BENCH_CONN_MAX_AGE says (the deploy's is 0: docs/deploy/tabletop.env).
        CONN_MAX_AGE=os.environ.get("BENCH_CONN_MAX_AGE", "600"),
        # The benchmark plays faster than a person: no per-socket rate limit in the way.
        TABLE_FRAMES_PER_S="100000",
        TABLE_BURST="100000",
        LOG_LEVEL="ERROR",
    )


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=server_env(),
        check=True,
    )


def make_table(run: str, spectators: int) -> tuple[int, dict[str, str], dict[str, list[str]]]:
    """A fresh active aod battle; (battle id, session cookie by user name, unit ids by side)."""
    users = make_users(run, ["gm", "p1", "p2"] + [f"s{i}" for i in range(spectators)])
    battle_id, units = make_battle(run, users)
    return battle_id, session_cookies(users), units


def make_users(run: str, names: list[str]) -> dict[str, Any]:
    """Users "{run}-{name}" by name, made in one statement (no password: a session each)."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    users = {}
    for name in names:
        user = User(username=f"{run}-{name}")
        user.set_unusable_password()
        users[name] = user
    User.objects.bulk_create(users.values(), batch_size=1000)
    return users


def session_cookies(users: dict[str, Any]) -> dict[str, str]:
    """A signed-in session for each user, made in one statement; its cookie by name."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.sessions.backends.base import VALID_KEY_CHARS
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expires = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    rows = {}
    for name, user in users.items():
        data = {
            "_auth_user_id": str(user.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": user.get_session_auth_hash(),
        }
        key = get_random_string(32, VALID_KEY_CHARS)
        rows[name] = Session(session_key=key, session_data=store.encode(data), expire_date=expires)
    Session.objects.bulk_create(rows.values(), batch_size=1000)
    return {name: f"sessionid={row.session_key}" for name, row in rows.items()}


def make_battle(
    run: str, users: dict[str, Any], units_per_side: int = UNITS_PER_SIDE
) -> tuple[int, dict[str, list[str]]]:
    """An active aod battle of `users` (gm, p1, p2, the others spectators) on a 72" x 48"
    table, `units_per_side` mechs a side; (battle id, unit ids by side)."""
    from tabletop.models import Battle
    from tabletop.services.battles import battle_create, battle_start
    from tabletop.services.campaigns import campaign_create, membership_set
    from tabletop.services.maps import map_create
    from tabletop.services.rosters import roster_create, unit_profile_add

    campaign = campaign_create(gm=users["gm"], name=f"bench {run}", system="aod")
    for name, user in users.items():
        if name != "gm":
            role = "player" if name in ("p1", "p2") else "spectator"
            membership_set(campaign=campaign, user=user, role=role)
    table = map_create(campaign=campaign, name="Table", width=72, height=48, terrain=[])
    sides = []
    for side, owner in (("P1", users["p1"]), ("P2", users["p2"])):
        roster = roster_create(campaign=campaign, owner=owner, name=f"{side} force")
        for i in range(units_per_side):
            unit_profile_add(
                roster=roster,
                name=f"{side} mech {i}",
                unit_type="mech",
                stats={"move": 10, "base": {"shape": "circle", "diameter": 1.75}},
            )
        sides.append((roster, side))
    battle = battle_create(
        campaign=campaign,
        battle_map=table,
        name="Bench",
        sides=sides,
        deployment_zones={
            "P1": [[0, 0], [72, 0], [72, 8], [0, 8]],
            "P2": [[0, 40], [72, 40], [72, 48], [0, 48]],
        },
    )
    battle = battle_start(battle=battle)
    # Enough orders for every unit of a side each turn (the units have no points).
    Battle.objects.filter(pk=battle.pk).update(
        state={**battle.state, "state": {"orders_available": units_per_side}}
    )
    units = {
        side: [u["id"] for u in battle.state["units"] if u["side"] == side] for side in ("P1", "P2")
    }
    return battle.pk, units


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    app: str = "bench.table_rtt:application", cwd: Path = ROOT, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen, int]:
    """A Daphne process serving `app` from the source tree `cwd` (this benchmark's app and
    environment by default); (the process, its port) once it listens."""
    import socket

    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            app,
        ],
        cwd=cwd,
        env=server_env() if env is None else env,
        stdout=subprocess.DEVNULL,
        stderr=open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "ab"),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("daphne did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc/<pid>/stat (fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def engine_act_seconds(port: int) -> tuple[float, float]:
    """(seconds, acts) the server's engine-time metric holds for acts so far: the thread
    CPU time of each act, as the table charges it (tabletop_engine_cpu_seconds)."""
    import urllib.request

    url = f"http://127.0.0.1:{port}/metrics"
    # A fresh server loads the app on its first request: slow on a loaded machine.
    text = urllib.request.urlopen(url, timeout=120).read().decode()
    found = {"sum": 0.0, "count": 0.0}
    for line in text.splitlines():
        for key in found:
            if line.startswith(f'tabletop_engine_cpu_seconds_{key}{{type="act"}}'):
                found[key] = float(line.split()[-1])
    return found["sum"], found["count"]


def commit_seconds(battle_id: int, count: int = COMMITS) -> list[float]:
    """One durable commit each: the battle's row updated in a transaction of its own (one
    round trip and the WAL flush), paced like the acts."""
    import psycopg

    times = []
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        for _ in range(count):
            start = time.perf_counter()
            conn.execute(
                "update tabletop_battle set last_seq = last_seq where id = %s", (battle_id,)
            )
            times.append(time.perf_counter() - start)
            time.sleep(1 / MOVES_PER_S)
    return times


def set_up() -> None:
    """Django in this process, on PostgreSQL (DATABASE_URL, migrated) and Redis (REDIS_URL)
    as the servers have them; and the servers' environment."""
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    if not os.environ.get("REDIS_URL"):
        sys.exit("REDIS_URL is required: the benchmark runs on the Redis channel layer")
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        sys.exit("DATABASE_URL must be PostgreSQL")
    ensure_database(os.environ["DATABASE_URL"])
    os.environ["DJANGO_SETTINGS_MODULE"] = "tabletop.settings"
    server_env()  # the servers' environment, and their secret key for this process too
    import django

    django.setup()


# -- clients ------------------------------------------------------------------------------


class Arrivals:
    """When each key (an event's seq, an echo's n) reached every one of a set of clients.

    Event-driven: the harness sleeps until the last client has the key, instead of
    polling, so that it takes no CPU from the servers it measures."""

    def __init__(self, size: int):
        self.size = size
        self.times: dict[int, list[float]] = {}
        self.waiting: dict[int, asyncio.Future] = {}

    def note(self, key: int, now: float) -> None:
        times = self.times.setdefault(key, [])
        times.append(now)
        waiter = self.waiting.get(key)
        if len(times) == self.size and waiter is not None and not waiter.done():
            waiter.set_result(max(times))

    async def all_have(self, key: int, timeout: float = 30) -> float:
        """When the last client got `key` (perf_counter time)."""
        times = self.times.get(key, [])
        if len(times) >= self.size:
            return max(times)
        waiter = self.waiting[key] = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            missing = self.size - len(self.times.get(key, []))
            raise TimeoutError(f"{missing} clients never got {key}") from None
        finally:
            self.waiting.pop(key, None)


class Client:
    """A websocket client that notes when each event (by seq) or echo (by n) arrives."""

    def __init__(self, url: str, cookie: str, origin: str, arrivals: Arrivals):
        self.url, self.cookie, self.origin = url, cookie, origin
        self.arrivals = arrivals
        self.arrived: dict[int, float] = {}
        self.answers: dict[str, dict] = {}
        #: When each answer (by its id) arrived, perf_counter time.
        self.answered_at: dict[str, float] = {}
        self.seq = 0
        self.ws: Any = None
        self.task: asyncio.Task | None = None
        self.changed = asyncio.Event()
        #: Set when the table's snapshot arrived (the server is done joining the socket).
        self.joined = asyncio.Event()

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.url,
            additional_headers={"Cookie": self.cookie},
            origin=self.origin,
            max_size=2**23,
            compression=None,
        )
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for message in self.ws:
            now = time.perf_counter()
            frame = json.loads(message)
            kind = frame.get("type")
            if kind == "event":
                self.arrive(frame["seq"], now)
                self.seq = max(self.seq, frame["seq"])
            elif kind == "snapshot":
                self.seq = frame["seq"]
                self.joined.set()
            elif kind == "echo":
                self.arrive(frame["n"], now)
            elif kind in ("ack", "reject", "error"):
                answered = frame.get("id") or frame.get("ref") or ""
                self.answers[answered] = frame
                self.answered_at[answered] = now
            self.changed.set()

    def arrive(self, key: int, now: float) -> None:
        if key not in self.arrived:
            self.arrived[key] = now
            self.arrivals.note(key, now)

    async def until(self, test, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not test():
            self.changed.clear()
            if time.monotonic() > deadline:
                raise TimeoutError("no answer")
            try:
                await asyncio.wait_for(self.changed.wait(), 1)
            except TimeoutError:
                pass

    async def close(self) -> None:
        await self.ws.close()
        if self.task:
            self.task.cancel()


#: The board's reconnect backoff (static/js/board/connection.js, BACKOFF_MS), in seconds.
BOARD_BACKOFF_S = (0.3, 1.0, 2.0, 4.0, 8.0)


async def open_all(clients: list[Client], *, joined: bool = False) -> None:
    """Opens the sockets 20 at a time; a handshake refused or dropped under load is tried
    again as the board does (its backoff), five times. `joined`: 10 at a time, each with
    its snapshot before the next are opened (so that the joins queue in the harness, not
    behind one another's snapshots in the server's database thread, where a handshake
    waiting longer than Daphne's limit, 5 s, on a loaded machine is dropped); a socket
    closed before its snapshot (4503 when Redis did not answer a join within its 1 s) is
    opened again, as the board does."""

    async def join(c: Client) -> None:
        await c.open()
        if not joined:
            return
        assert c.task is not None
        snapshot = asyncio.ensure_future(c.joined.wait())
        try:
            await asyncio.wait([c.task, snapshot], timeout=60, return_when="FIRST_COMPLETED")
        finally:
            snapshot.cancel()
        if not c.joined.is_set():
            await c.close()
            raise ConnectionError("the socket closed before its snapshot")

    # The board goes on trying at its longest pause; a join waited for goes on longer.
    pauses = BOARD_BACKOFF_S + (BOARD_BACKOFF_S[-1:] * 5 if joined else ())

    async def open_one(c: Client) -> None:
        for attempt, pause in enumerate(pauses):
            try:
                return await join(c)
            except Exception:
                if attempt == len(pauses) - 1:
                    raise
                await asyncio.sleep(pause)

    size = 10 if joined else 20
    for i in range(0, len(clients), size):
        await asyncio.gather(*(open_one(c) for c in clients[i : i + size]))


class Game:
    """Plays legal moves: the side to act moves its units one by one, then ends its turn."""

    def __init__(
        self, players: dict[str, Client], units: dict[str, list[str]], xs: dict, arrivals: Arrivals
    ):
        self.players, self.units, self.xs, self.arrivals = players, units, xs, arrivals
        self.side, self.index, self.n = "P1", 0, 0
        self.stepped: set[str] = set()
        self.direction: dict[str, int] = {}

    async def send(self, frame: dict) -> dict:
        player = self.players[self.side]
        await player.ws.send(json.dumps(frame))
        await player.until(lambda: frame["id"] in player.answers)
        answer = player.answers[frame["id"]]
        if answer["type"] != "ack":
            raise RuntimeError(f"refused: {answer}")
        return answer

    async def end_turn_if_done(self) -> None:
        if self.index < len(self.units[self.side]):
            return
        self.n += 1
        answer = await self.send({"type": "end_turn", "id": f"e{self.n}"})
        await self.arrivals.all_have(answer["seq"])
        self.side = "P2" if self.side == "P1" else "P1"
        self.index = 0

    def next_act(self) -> dict:
        unit = self.units[self.side][self.index]
        self.index += 1
        self.n += 1
        # One inch toward the centre line, and back on the side's next turn: always legal.
        x, y = self.xs[unit]
        step = self.direction.setdefault(unit, 1 if y < 24 else -1)
        y = y - step if unit in self.stepped else y + step
        self.stepped ^= {unit}
        self.xs[unit] = (x, y)
        return {
            "type": "act",
            "id": f"a{self.n}",
            "action": {"unit": unit, "type": "move", "path": [[x, y]]},
        }

    async def act(self) -> float:
        """One act; its round trip in seconds (send to the last client's event)."""
        await self.end_turn_if_done()
        frame = self.next_act()
        player = self.players[self.side]
        await player.until(lambda: player.seq >= max(c.seq for c in self.players.values()))
        frame["seen"] = player.seq
        start = time.perf_counter()
        answer = await self.send(frame)
        return await self.arrivals.all_have(answer["seq"]) - start


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def paced(count: int, step) -> list[float]:
    """`count` round trips started MOVES_PER_S apart (later if one is slower)."""
    out = []
    next_at = time.perf_counter()
    for _ in range(count):
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        out.append(await step())
        next_at += 1 / MOVES_PER_S
    return out


async def measure_table(
    setup, ports: list[int], spectators: int, moves: int, pace: bool, pids: list[int] = ()
):
    """Round trips of `moves` acts, and (elapsed s, server CPU s) of just them."""
    battle_id, cookies, units = await asyncio.to_thread(setup, spectators)
    from tabletop.models import Battle

    battle = await asyncio.to_thread(Battle.objects.get, pk=battle_id)
    xs = {u["id"]: tuple(u["position"]) for u in battle.state["units"]}
    arrivals = Arrivals(spectators + 2)

    def client(name: str, i: int) -> Client:
        port = ports[i % len(ports)]
        base = f"127.0.0.1:{port}"
        url = f"ws://{base}/ws/battles/{battle_id}/"
        return Client(url, cookies[name], f"http://{base}", arrivals)

    players = {"P1": client("p1", 0), "P2": client("p2", 1)}
    watchers = [client(f"s{i}", i) for i in range(spectators)]
    clients = list(players.values()) + watchers
    await open_all(clients, joined=True)
    await asyncio.sleep(1 + spectators / 50)  # let the presence announcements settle
    game = Game(players, units, xs, arrivals)
    for _ in range(3):  # warm-up: connections, caches
        await game.act()
    cpu = sum(cpu_seconds(pid) for pid in pids)
    start = time.perf_counter()
    if pace:
        times = await paced(moves, game.act)
    else:
        times = [await game.act() for _ in range(moves)]
    elapsed = (time.perf_counter() - start, sum(cpu_seconds(pid) for pid in pids) - cpu)
    for c in clients:
        await c.close()
    await asyncio.sleep(1 + spectators / 50)  # let the leaving sockets be cleaned up
    return times, elapsed


async def measure_floor(port: int, spectators: int, moves: int, cookies) -> list[float]:
    base = f"127.0.0.1:{port}"
    room = f"{time.time_ns()}"
    arrivals = Arrivals(spectators + 2)
    clients = [
        Client(f"ws://{base}/bench/echo/{room}/", cookies["gm"], f"http://{base}", arrivals)
        for _ in range(spectators + 2)
    ]
    await open_all(clients)
    await asyncio.sleep(0.5)
    sender = clients[0]
    counter = iter(range(1, 10**9))

    async def echo() -> float:
        n = next(counter)
        start = time.perf_counter()
        # About the size of an act frame, so that the wire costs the same.
        await sender.ws.send(json.dumps({"type": "echo", "n": n, "pad": "x" * 600}))
        return await arrivals.all_have(n) - start

    for _ in range(3):
        await echo()
    times = await paced(moves, echo)
    for c in clients:
        await c.close()
    return times


def ms(x: float) -> float:
    return round(x * 1000, 2)


async def latency_row(
    setup, server: tuple[int, int], n: int, cookies, commit_battle: int
) -> dict[str, Any]:
    """Act and floor at N = n on the server (port, pid), the engine's time per act there,
    the server's CPU time per paced act (its whole process: the broadcast to the N + 2
    sockets included; less sensitive to a loaded machine than the round trips), and one
    commit's time, measured one after the other."""
    port, pid = server
    spent, acted = await asyncio.to_thread(engine_act_seconds, port)
    acts, (_, cpu) = await measure_table(setup, [port], n, TIMED_MOVES, pace=True, pids=[pid])
    spent_after, acted_after = await asyncio.to_thread(engine_act_seconds, port)
    floor = await measure_floor(port, n, TIMED_MOVES, cookies)
    commits = await asyncio.to_thread(commit_seconds, commit_battle)
    row = {
        "floor_p50_ms": ms(statistics.median(floor)),
        "floor_p99_ms": ms(percentile(floor, 0.99)),
        "act_p50_ms": ms(statistics.median(acts)),
        "act_p99_ms": ms(percentile(acts, 0.99)),
        "engine_ms_per_act": ms((spent_after - spent) / max(acted_after - acted, 1)),
        "server_cpu_ms_per_act": ms(cpu / TIMED_MOVES),
        "commit_p50_ms": ms(statistics.median(commits)),
    }
    row["act_p50_ratio_to_floor"] = round(row["act_p50_ms"] / row["floor_p50_ms"], 2)
    row["act_over_floor_ms"] = round(row["act_p50_ms"] - row["floor_p50_ms"], 2)
    # The goal (issue 25): act p50 - floor p50 <= 1.5 x (engine + one commit).
    row["act_over_floor_to_engine_and_commit"] = round(
        row["act_over_floor_ms"] / (row["engine_ms_per_act"] + row["commit_p50_ms"]), 2
    )
    return row


async def main() -> None:
    set_up()
    # The load generator should not pause the measurement with full collections of
    # what it has loaded (the servers do the same in tabletop/asgi.py).
    gc.freeze()
    run = f"b{time.time_ns() % 10**10}"
    counter = iter(range(10**6))

    def setup(spectators: int):
        from django.db import connection

        try:
            return make_table(f"{run}-{next(counter)}", spectators)
        finally:
            connection.close()

    commit_battle, cookies, _ = await asyncio.to_thread(setup, 0)
    results: dict[str, Any] = {"by_spectators": {}, "before": {}}
    one, port = start_server()
    trees = [("", (port, one.pid))]
    old = None
    if BEFORE:
        tree = Path(BEFORE).resolve()
        old, old_port = start_server(cwd=tree, env={**server_env(), "PYTHONPATH": str(tree)})
        trees.insert(0, ("before ", (old_port, old.pid)))
    try:
        for n in SPECTATORS:
            for _ in range(ROUNDS):
                for label, served_by in trees:
                    row = await latency_row(setup, served_by, n, cookies, commit_battle)
                    if label:
                        results["before"].setdefault(n, []).append(row)
                    else:
                        results["by_spectators"][n] = row
                    print(f"{label}N={n}: {json.dumps(row)}", flush=True)
        if old is not None:
            old.terminate()
            old.wait()
            old = None
        for count, label in ((1, "1proc"), (2, "2proc")) if THROUGHPUT else ():
            extra = [start_server() for _ in range(count - 1)]
            servers = [one] + [process for process, _ in extra]
            ports = [port] + [p for _, p in extra]
            _, (elapsed, cpu) = await measure_table(
                setup,
                ports,
                THROUGHPUT_SPECTATORS,
                THROUGHPUT_MOVES,
                pace=False,
                pids=[s.pid for s in servers],
            )
            results[f"moves_per_s_{label}"] = round(THROUGHPUT_MOVES / elapsed, 1)
            results[f"cpu_ms_per_move_{label}"] = round(cpu * 1000 / THROUGHPUT_MOVES, 2)
            print(
                f"{label}: {results[f'moves_per_s_{label}']} moves/s, "
                f"{results[f'cpu_ms_per_move_{label}']} ms CPU/move",
                flush=True,
            )
            for s in servers[1:]:
                s.terminate()
                s.wait()
    finally:
        for server in (one, old):
            if server is not None:
                server.terminate()
                server.wait()
    by = results["by_spectators"]
    first, last = by[min(by)], by.get(200, {})
    summary = {
        "floor_p50_ms": first["floor_p50_ms"],
        "act_p50_ms": first["act_p50_ms"],
        "act_p50_ratio_to_floor": first["act_p50_ratio_to_floor"],
        "engine_ms_per_act": first["engine_ms_per_act"],
        "commit_p50_ms": first["commit_p50_ms"],
        "act_over_floor_ms": first["act_over_floor_ms"],
        "act_over_floor_to_engine_and_commit": first["act_over_floor_to_engine_and_commit"],
        "fanout_200_p99_ms": last.get("act_p99_ms"),
        "floor_200_p99_ms": last.get("floor_p99_ms"),
    }
    if THROUGHPUT:
        summary.update(
            {
                "moves_per_s_1proc": results["moves_per_s_1proc"],
                "moves_per_s_2proc": results["moves_per_s_2proc"],
                "cpu_ms_per_move_1proc": results["cpu_ms_per_move_1proc"],
                "cpu_ms_per_move_2proc": results["cpu_ms_per_move_2proc"],
                "cpu_ratio_2proc_to_1proc": round(
                    results["cpu_ms_per_move_2proc"] / results["cpu_ms_per_move_1proc"], 2
                ),
            }
        )
    summary.update(
        {
            "moves_per_s_paced": MOVES_PER_S,
            "timed_moves": TIMED_MOVES,
            "by_spectators": by,
        }
    )
    if results["before"]:
        summary["before"] = results["before"]
    print(json.dumps(summary))


if __name__ == "__main__":
    asyncio.run(main())
