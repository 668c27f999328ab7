"""Issue 21's attack on the live table, before and after (not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/engb REDIS_URL=redis://127.0.0.1:6379/12 \\
      .venv/bin/python bench/hostile.py /tmp/eng-b-before /work/main

For each source tree named (a worktree of the commit before, then this one), on a database
of its own migrated by that tree: two accounts, each on its own battle on a map as complex
as that tree's map limits allow (`maze`), and a victim player on a third, ordinary battle.
Two Daphne processes of that tree share PostgreSQL and Redis. In each round the attackers
close their sockets, open new ones (on the process of the round, alternately) and each ask
a preview with reach and the nearest alternative of an illegal drop, each after a fiat (as
the GM of their battle) that makes a new position, so that the server parses it anew;
10 ms later the victim sends a move (`act`) and a preview on the same process. Figures:
the victim's act and preview round trips (p50, p99), under attack and in half as many
quiet rounds first; how many attack previews were judged or refused; how many of the
victim's moves were answered before the later of the two attack previews judged in their
round; the engine CPU one attack preview costs (in that tree's own process, median of 3).

The last line printed is one JSON object with the results. The test
tests/live/test_hostile_client.py plays the same rounds (`play_rounds`) on a smaller scale.
"""

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "40"))
ROUND_S = 0.3  # a move every 0.3 s: under the victim's own write limit (4 a second)


# -- the map ------------------------------------------------------------------------------


def map_limits(maps: Any) -> tuple[int, int]:
    """(features, corners of each) of the most complex map the map service allows: its
    limits on features, corners of one feature and corners in all where it has them
    (issue 21); 45 polygons of 200 points where it has none."""
    per = getattr(maps, "MAX_FEATURE_CORNERS", None)
    total = getattr(maps, "MAX_CORNERS", None)
    if per is None or total is None:
        return 45, 200
    per = min(per, 200)
    return min(maps.MAX_FEATURES, total // per), per


def maze(features: int, corners: int) -> tuple[float, float, list[dict[str, Any]]]:
    """(width, height, terrain): `features` walls of elevated ground 4" apart, their gaps
    alternately at the top and the bottom, each a polygon of `corners` corners (one
    straight side, the other a zigzag, every corner a bend for a shortest path)."""
    teeth = corners - 2
    step = min(0.5, 48 / teeth)
    length = step * (teeth - 1)
    height = length + 4
    width = 4.0 * features + 6
    terrain = []
    for i in range(features):
        x, y = 4.0 + 4 * i, (3.5 if i % 2 else 0.5)
        zigzag = [[x + (1.5 if k % 2 else 1.0), y + length - step * k] for k in range(teeth)]
        polygon = [[x, y], [x, y + length], *zigzag]
        terrain.append({"id": f"W{i}", "type": "elevated", "height": 2, "polygon": polygon})
    return width, height, terrain


def attack_preview(unit: str, height: float, ref: str) -> dict[str, Any]:
    """A drop far beyond the unit's move, with reach and the nearest alternative."""
    return {
        "type": "preview",
        "ref": ref,
        "action": {"unit": unit, "type": "move", "path": [[40.0, height / 2]]},
        "reach": True,
        "alternative": True,
    }


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


# -- clients --------------------------------------------------------------------------------


class Client:
    """A websocket at one table: each answer (by `id` or `ref`) with when it arrived."""

    def __init__(self, url: str, cookie: str) -> None:
        self.url, self.cookie = url, cookie
        self.answers: dict[str, tuple[float, dict[str, Any]]] = {}
        self.seq = 0
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.reader: asyncio.Task | None = None

    async def connect(self, base: str) -> None:
        import websockets

        self.ws = await websockets.connect(
            f"{base.replace('http', 'ws')}{self.url}",
            additional_headers={"Cookie": self.cookie},
            origin=base,
            max_size=2**24,
            open_timeout=10,
        )
        self.reader = asyncio.create_task(self._read())
        await self.until(lambda: self.seq >= 0 and "snapshot" in self.answers)

    async def _read(self) -> None:
        import websockets

        try:
            async for text in self.ws:
                frame = json.loads(text)
                if frame["type"] in ("snapshot", "event") and "seq" in frame:
                    self.seq = max(self.seq, frame["seq"])
                key = frame.get("id") or frame.get("ref") or frame["type"]
                self.answers[key] = (time.perf_counter(), frame)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    async def until(self, test: Any, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not test():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer on {self.url}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    async def send(self, frame: dict[str, Any]) -> float:
        await self.ws.send(json.dumps(frame))
        return time.perf_counter()

    async def answer(self, key: str, timeout: float = 60) -> tuple[float, dict[str, Any]]:
        await self.until(lambda: key in self.answers, timeout)
        return self.answers[key]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)


@dataclass
class Seat:
    """Someone at a battle: its id, their session cookie, their unit; an attacker, the GM
    of their own battle, also the other side's unit, which a fiat nudges before each
    preview (a new position: nothing the server parsed before is reused)."""

    battle_id: int
    cookie: str
    unit: str
    height: float = 36.0
    user_id: int = 0
    nudged: str = ""
    width: float = 36.0

    def client(self) -> Client:
        return Client(f"/ws/battles/{self.battle_id}/", self.cookie)


@dataclass
class Figures:
    """What the rounds measured (ms)."""

    act_ms: list[float] = field(default_factory=list)
    preview_ms: list[float] = field(default_factory=list)
    judged: int = 0
    refused: int = 0
    other_errors: list[dict] = field(default_factory=list)
    #: Per round with both attackers' previews judged: was the victim's act answered
    #: before the later of them?
    act_first: list[bool] = field(default_factory=list)
    #: Attack previews refused (rate_limited) on a socket just opened.
    refused_after_reconnect: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "act_p50_ms": round(statistics.median(self.act_ms), 1),
            "act_p99_ms": round(percentile(self.act_ms, 99), 1),
            "preview_p50_ms": round(statistics.median(self.preview_ms), 1),
            "preview_p99_ms": round(percentile(self.preview_ms, 99), 1),
            "attack_previews_judged": self.judged,
            "attack_previews_refused": self.refused,
            "acts_before_the_later_attack_preview": f"{sum(self.act_first)}/{len(self.act_first)}",
        }


async def play_rounds(
    bases: list[str], attackers: list[Seat], victim: Seat, rounds: int, round_s: float = ROUND_S
) -> Figures:
    """The attack (module docstring): `rounds` rounds, one every `round_s` seconds."""
    figures = Figures()
    victims = [victim.client() for _ in bases]
    for client, base in zip(victims, bases, strict=True):
        await client.connect(base)
    sockets: list[Client | None] = [None] * len(attackers)
    moved = False
    for n in range(rounds):
        started = time.perf_counter()
        base = bases[n % len(bases)]
        for i, seat in enumerate(attackers):  # a new socket, on another process
            if sockets[i] is not None:
                await sockets[i].close()  # type: ignore[union-attr]
            sockets[i] = seat.client()
        await asyncio.gather(*(s.connect(base) for s in sockets if s is not None))
        refs = [f"a{i}-{n}" for i in range(len(attackers))]
        fiats = [
            {"type": "fiat", "id": f"f{i}-{n}", "unit": seat.nudged, "reason": "nudge",
             "position": [seat.width - 1 - (n % 2) * 0.1, seat.height - 1.5]}
            for i, seat in enumerate(attackers)
        ]  # fmt: skip
        for s, fiat in zip(sockets, fiats, strict=True):
            await s.send(fiat)  # type: ignore[union-attr]
        for s, fiat in zip(sockets, fiats, strict=True):
            await s.answer(fiat["id"])  # type: ignore[union-attr]
        for s, seat, ref in zip(sockets, attackers, refs, strict=True):
            await s.send(attack_preview(seat.unit, seat.height, ref))  # type: ignore[union-attr]
        await asyncio.sleep(0.01)  # the previews are with the server: judged, or queued
        mine = victims[n % len(bases)]
        moved = not moved
        to = [1.5, 2.5] if moved else [1.5, 1.5]
        act = {
            "type": "act",
            "id": f"m{n}",
            "seen": max(c.seq for c in victims),
            "action": {"unit": victim.unit, "type": "move", "path": [to]},
        }
        act_sent = await mine.send(act)
        look = {"type": "preview", "ref": f"v{n}", "action": {**act["action"]}}
        look_sent = await mine.send(look)
        act_at, _ = await mine.answer(f"m{n}")
        look_at, _ = await mine.answer(f"v{n}")
        figures.act_ms.append((act_at - act_sent) * 1000)
        figures.preview_ms.append((look_at - look_sent) * 1000)
        done = [await s.answer(ref) for s, ref in zip(sockets, refs, strict=True) if s]
        for _, frame in done:
            if frame["type"] == "verdict":
                figures.judged += 1
            elif frame.get("code") == "rate_limited":
                figures.refused += 1
                figures.refused_after_reconnect += 1
            else:
                figures.other_errors.append(frame)
        if done and all(frame["type"] == "verdict" for _, frame in done):
            figures.act_first.append(act_at < max(at for at, _ in done))
        await asyncio.sleep(max(0.0, round_s - (time.perf_counter() - started)))
    for client in [*victims, *sockets]:
        if client is not None:
            await client.close()
    return figures


# -- a tree's own side: its battles, and what one attack preview costs it -------------------


def attack_seats(run: str) -> tuple[list[Seat], str]:
    """In the tree under test (Django set up, its `tabletop` imported): two attackers'
    battles on the most complex map allowed, the victim's ordinary one; their seats
    (P1's, with a login session each) and the map's description."""
    from django.contrib.sessions.backends.db import SessionStore

    from tabletop.models import Battle
    from tabletop.services import maps
    from tabletop.services.battle_setup import Table, UnitEntry
    from tests.web.factories import MECH, battle_for_people, make_battle_sync

    def cookie(user: Any) -> str:
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        return f"sessionid={session.session_key}"

    width, height, terrain = maze(*map_limits(maps))
    # A fast mech with a small base: its reach runs far along the maze's corridors.
    fast = {**MECH, "move": 20, "base": {"shape": "circle", "diameter": 1.25}}
    forces = {s: (f"{s} force", [UnitEntry(f"{s} mech", "mech", fast)]) for s in ("P1", "P2")}
    made = [
        battle_for_people(
            f"{run}a{i}-",
            "aod",
            forces,
            table=Table("Maze", width, height, terrain),
            # P1 in the corridor between the first two walls; P2 at the east edge.
            deployment_zones={
                "P1": [[5.5, 0], [8, 0], [8, height], [5.5, height]],
                "P2": [[width - 1.9, 0], [width, 0], [width, height], [width - 1.9, height]],
            },
            placements={"P1 mech": [6.75, height / 2], "P2 mech": [width - 1, height - 1.5]},
        )
        for i in range(2)
    ]
    made.append(make_battle_sync(f"{run}v-"))
    seats = []
    for n, (battle, users) in enumerate(made):
        # Orders enough for every move of the rounds (the factory's units have no points).
        Battle.objects.filter(pk=battle.pk).update(
            state={**battle.state, "state": {"orders_available": 1000}}
        )
        unit, other = (u["id"] for u in battle.state["units"])
        who = users["p1"] if n == 2 else users["gm"]
        seats.append(Seat(battle.pk, cookie(who), unit, height, who.pk, other, width))
    seats[2].height, seats[2].width, seats[2].nudged = 36.0, 36.0, ""
    corners = sum(len(t["polygon"]) for t in terrain)
    return seats, f"{len(terrain)} features of {corners // len(terrain)} corners"


def attack_preview_cpu_ms(seat: Seat) -> float:
    """The engine CPU (ms, median of 3) of one attack preview, in this process, each at a
    new position (as after a move), so that nothing parsed before is reused."""
    from django.contrib.auth import get_user_model

    from tabletop import selectors
    from tabletop.models import Battle
    from tabletop.services.table import preview
    from tabletop.services.table.actor import actor_for

    user = get_user_model().objects.get(pk=seat.user_id)
    frame = attack_preview(seat.unit, seat.height, "cost")
    costs = []
    for n in range(1, 4):
        Battle.objects.filter(pk=seat.battle_id).update(last_seq=n)
        battle, membership = selectors.battle_membership(user, seat.battle_id)
        actor = actor_for(battle, user, membership)
        started = time.thread_time()
        preview.battle_preview(
            battle_id=battle.pk, actor=actor, action=frame["action"], reach=True, alternative=True
        )
        costs.append((time.thread_time() - started) * 1000)
    Battle.objects.filter(pk=seat.battle_id).update(last_seq=0)
    return round(statistics.median(costs), 1)


def setup(run: str) -> dict[str, Any]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    django.setup()
    seats, described = attack_seats(run)
    return {
        "seats": [vars(seat) for seat in seats],
        "map": described,
        "attack_preview_cpu_ms": attack_preview_cpu_ms(seats[0]),
    }


# -- the driver -------------------------------------------------------------------------------


def measure_tree(tree: Path, label: str) -> dict[str, Any]:
    import psycopg

    base_url = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    name = f"bench_hostile_{label}"
    with psycopg.connect(base_url + "/postgres", autocommit=True) as conn:
        conn.execute(f'drop database if exists "{name}" with (force)')
        conn.execute(f'create database "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": f"{base_url}/{name}",
        "PYTHONPATH": str(tree),
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-hostile-" + "x" * 40),
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
    }
    python = [sys.executable]
    subprocess.run(
        [*python, "manage.py", "migrate", "--noinput", "-v0"], cwd=tree, env=env, check=True
    )
    made = subprocess.run(
        [*python, str(Path(__file__).resolve()), "--setup", label],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    state = json.loads(made.stdout.strip().splitlines()[-1])
    from bench.table_rtt import start_server

    servers = [start_server("tabletop.asgi:application", tree, env) for _ in range(2)]
    try:
        seats = [Seat(**seat) for seat in state["seats"]]
        bases = [f"http://127.0.0.1:{port}" for _, port in servers]
        quiet = asyncio.run(play_rounds(bases, [], seats[2], ROUNDS // 2))
        figures = asyncio.run(play_rounds(bases, seats[:2], seats[2], ROUNDS))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=10)
    result = {
        "tree": label,
        "map": state["map"],
        "attack_preview_cpu_ms": state["attack_preview_cpu_ms"],
        **figures.summary(),
        "quiet": {k: v for k, v in quiet.summary().items() if k.endswith("_ms")},
    }
    print(json.dumps(result), flush=True)
    return result


def main() -> None:
    sys.path.insert(0, str(ROOT))  # bench.table_rtt
    if sys.argv[1:2] == ["--setup"]:
        sys.path.insert(0, str(Path.cwd()))
        print(json.dumps(setup(f"h{sys.argv[2]}{time.time_ns() % 10**8}")))
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("DATABASE_URL (PostgreSQL) and REDIS_URL are required")
    trees = [Path(t).resolve() for t in sys.argv[1:]] or [ROOT]
    results = [measure_tree(tree, f"t{i}") for i, tree in enumerate(trees)]
    print(json.dumps(results))


if __name__ == "__main__":
    main()
