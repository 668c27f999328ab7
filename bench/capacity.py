"""Capacity: how many live tables one machine holds at a human pace (not a test; issue 25).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/capacity.py \\
        [--tables 50,100,200,300,400,500] [--spectators 2] [--interval 10] [--duration 60] \\
        [--processes 1,2] [--tables-per-client 50] [--limit-ms 100]

T tables (aod, 72" x 48", `--units` mechs a side), each with two players and S spectators,
every one a real `websockets` client with its own account, on 1 and then 2 Daphne
processes (the product's app, DEBUG off, as in production) sharing PostgreSQL and Redis.
Each table moves once every `--interval` seconds (the tables' turns spread evenly over
the interval): the player to act moves a unit one inch, or ends the turn when all its
units have moved. Every socket pings every 25 s as the board does. For each T of the
ramp, on fresh server processes:
  - act: from a player sending a move until its own `ack` arrives (p50, p99);
  - fan-out: from that send until each other socket of the table (the opponent and the
    spectators) has the event (p50, p99 over every socket and move);
  - server CPU per move: the Daphne processes' user + system time over the measured
    window, divided by the moves in it (idle sockets' pings and presence included);
  - memory: each process's RSS, and per idle socket the RSS added by the second half of
    the sockets over the first half (so that what the first socket loads is not counted);
  - the clients' own CPU: the client processes' total, per move, and the busiest one's
    share of a core. Clients run in processes of `--tables-per-client` tables each so
    that the figures are the server's; a busiest share near 1 means the client is the
    limit;
  - how long the event loops (the servers', the clients') were ready to run but waited
    for a core, per move (/proc/<pid>/schedstat): on a shared machine, how much of the
    latency is other programs' doing.
Each table's first move of a step is a warm-up (the fresh processes' first parse of the
position), outside every figure. The ramp, per process count, stops at the first T whose
act p99 exceeds `--limit-ms` (or that had an error; `--whole-ramp` goes on all the
same); the largest T before it is the capacity. Tables are made once per process count
(bulk: users and sessions in one statement each) and played on through the ramp.

`BENCH_BEFORE=<another checkout>` measures its code beside this one's in the same run:
each step is played on that tree's servers, then on this one's, on the same tables
(its rows are printed first, marked "before"; the capacity is this tree's).

`BENCH_TIMELINE=<file>` appends, per step, each measured move's send time and act, to lay
beside the servers' per-second counts (bench/load_counts, bench/load_timeline.py).

The last line printed is one JSON object with the headline figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import multiprocessing
import os
import queue
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.table_rtt import (  # noqa: E402
    Arrivals,
    Client,
    Game,
    cpu_seconds,
    make_battle,
    make_users,
    open_all,
    percentile,
    server_env,
    session_cookies,
    set_up,
    start_server,
)

#: What a table's game carries from one step of the ramp to the next (its clients do not).
GAME_STATE = ("side", "index", "n", "stepped", "direction", "xs")
#: The board's own ping period (static/js/board/connection.js, PING_MS).
PING_S = 25.0
#: Another source tree whose code is measured beside this one's, step by step.
BEFORE = os.environ.get("BENCH_BEFORE", "")


# -- figures: pure functions --------------------------------------------------------------


def largest_within(rows: list[dict[str, Any]], limit_ms: float) -> int | None:
    """The largest number of tables of a ramp (rows in the order run) whose act p99 is
    within `limit_ms` with no error, counting only up to the first that is not."""
    best = None
    for row in rows:
        if row["errors"] or row["act_p99_ms"] is None or row["act_p99_ms"] > limit_ms:
            break
        best = row["tables"]
    return best


def per_socket_kb(rss_kb: tuple[int, int], sockets: tuple[int, int]) -> float | None:
    """RSS added per socket between two counts of open sockets (kB), or None if the
    counts are the same."""
    added = sockets[1] - sockets[0]
    return round((rss_kb[1] - rss_kb[0]) / added, 1) if added > 0 else None


def client_groups(count: int, per_client: int) -> list[range]:
    """The tables (by index) of each client process: as even as `per_client` allows."""
    processes = max(1, math.ceil(count / per_client))
    size, extra = divmod(count, processes)
    groups, start = [], 0
    for i in range(processes):
        end = start + size + (1 if i < extra else 0)
        groups.append(range(start, end))
        start = end
    return groups


def per_move(seconds: float, moves: int) -> float | None:
    """Milliseconds per move, or None for no move."""
    return round(seconds * 1000 / moves, 2) if moves else None


def distribution(values: list[float]) -> tuple[float | None, float | None]:
    """(p50, p99) in ms, or (None, None) for no values."""
    if not values:
        return None, None
    return round(statistics.median(values) * 1000, 2), round(percentile(values, 0.99) * 1000, 2)


# -- the client processes -----------------------------------------------------------------


class PacedGame(Game):
    """Game's moves one frame at a time: an act, or the end of the side's turn once each
    of its units has moved; each timed from the send."""

    def __init__(self, clients: list[Client], units: dict[str, list[str]], xs: dict):
        """`clients`: P1's, P2's, then the spectators' (one Arrivals for all)."""
        super().__init__({"P1": clients[0], "P2": clients[1]}, units, xs, clients[0].arrivals)
        self.clients = clients

    async def move(self) -> tuple[float, list[float]]:
        """One move; (seconds to the mover's ack, seconds to each other socket's event)."""
        player = self.players[self.side]
        if self.index < len(self.units[self.side]):
            frame = self.next_act()
            frame["seen"] = player.seq
            turn_over = False
        else:
            self.n += 1
            frame = {"type": "end_turn", "id": f"e{self.n}"}
            turn_over = True
        start = time.perf_counter()
        answer = await self.send(frame)
        if turn_over:
            self.side = "P2" if self.side == "P1" else "P1"
            self.index = 0
        await self.arrivals.all_have(answer["seq"])
        others = [c for c in self.clients if c is not player]
        return (
            player.answered_at[frame["id"]] - start,
            [c.arrived[answer["seq"]] - start for c in others],
        )


@dataclass
class Played:
    """What a client process measured over the play window."""

    acts: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    #: (wall time the move was sent, its act in s), for BENCH_TIMELINE.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    cpu_s: float = 0.0
    wall_s: float = 0.0
    #: Seconds its event loop was ready to run but waited for a core (the kernel's count).
    waited_s: float = 0.0


class Seated:
    """One table's sockets in a client process, and the game its players play."""

    def __init__(self, table: dict[str, Any], index: int, ports: list[int]):
        self.table = table
        names = ["p1", "p2"] + [n for n in table["cookies"] if n not in ("gm", "p1", "p2")]
        arrivals = Arrivals(len(names))
        self.clients = []
        for j, name in enumerate(names):
            base = f"127.0.0.1:{ports[(index + j) % len(ports)]}"
            url = f"ws://{base}/ws/battles/{table['battle']}/"
            self.clients.append(Client(url, table["cookies"][name], f"http://{base}", arrivals))
        self.game = PacedGame(self.clients, table["units"], table["xs"])
        for key in GAME_STATE:
            setattr(self.game, key, table[key])

    def state(self) -> dict[str, Any]:
        return {**self.table, **{key: getattr(self.game, key) for key in GAME_STATE}}

    async def play(self, first: float, measure_from: float, until: float, interval: float,
                   out: Played) -> None:  # fmt: skip
        """Moves at `first` and every `interval` s after (later if one is slow) until
        `until`; those from `measure_from` on are counted. An error ends the table's play."""
        next_at = first
        while next_at < until:
            await asyncio.sleep(max(0.0, next_at - time.time()))
            sent = time.time()
            try:
                act, fanout = await self.game.move()
            except Exception as error:
                out.errors.append(f"battle {self.table['battle']}: {error!r}")
                return
            if next_at >= measure_from:
                out.acts.append(act)
                out.timeline.append((sent, act))
                out.fanout.extend(fanout)
                out.moves += 1
            next_at = max(next_at + interval, time.time())


async def keep_pinging(client: Client, every: float) -> None:
    await asyncio.sleep(random.uniform(0, every))
    while True:
        await client.ws.send('{"type": "ping"}')
        await asyncio.sleep(every)


async def serve(job: dict[str, Any], inbox: Any, outbox: Any) -> None:
    """Answers the bench's commands: ("open", k) opens the sockets of the first k tables;
    ("play", start, measure_from, until) plays them; ("close",) closes them and hands
    back the games' states."""
    ports, interval, count = job["ports"], job["interval"], job["count"]
    seated = [Seated(table, i, ports) for i, table in job["tables"]]
    opened = 0
    pingers = []
    while True:
        command, *args = await asyncio.to_thread(inbox.get)
        if command == "open":
            fresh = [c for s in seated[opened : args[0]] for c in s.clients]
            await open_all(fresh)
            pingers += [asyncio.create_task(keep_pinging(c, job["ping_s"])) for c in fresh]
            opened = args[0]
            outbox.put(("opened", len(fresh)))
        elif command == "play":
            start, measure_from, until = args
            out = Played()
            cpu, wall, waited = (
                time.process_time(),
                time.perf_counter(),
                waited_for_cpu(os.getpid()),
            )
            await asyncio.gather(
                *(
                    s.play(start + interval * i / count, measure_from, until, interval, out)
                    for s, (i, _) in zip(seated, job["tables"], strict=True)
                )
            )
            out.cpu_s, out.wall_s = time.process_time() - cpu, time.perf_counter() - wall
            out.waited_s = waited_for_cpu(os.getpid()) - waited
            outbox.put(("played", out))
        else:
            for task in pingers:
                task.cancel()
            for s in seated:
                for c in s.clients:
                    await c.close()
            outbox.put(("closed", [s.state() for s in seated]))
            return


def client_process(job: dict[str, Any], inbox: Any, outbox: Any) -> None:
    gc.freeze()
    asyncio.run(serve(job, inbox, outbox))


# -- the bench process: tables, servers, steps ---------------------------------------------


def make_tables(run: str, count: int, spectators: int, units: int) -> list[dict[str, Any]]:
    """`count` active battles, each of its own gm, two players and `spectators`
    spectators; each table as the client processes need it."""
    from django.db import transaction

    from tabletop.models import Battle

    roles = ["gm", "p1", "p2"] + [f"s{i}" for i in range(spectators)]
    users = make_users(run, [f"t{t}-{role}" for t in range(count) for role in roles])
    cookies = session_cookies(users)
    tables = []
    for t in range(count):
        with transaction.atomic():
            seated = {role: users[f"t{t}-{role}"] for role in roles}
            battle_id, by_side = make_battle(f"{run}-t{t}", seated, units)
        tables.append(
            {
                "battle": battle_id,
                "cookies": {role: cookies[f"t{t}-{role}"] for role in roles},
                "units": by_side,
                "side": "P1",
                "index": 0,
                "n": 0,
                "stepped": set(),
                "direction": {},
            }
        )
    states = dict(
        Battle.objects.filter(pk__in=[t["battle"] for t in tables]).values_list("pk", "state")
    )
    for table in tables:
        table["xs"] = {u["id"]: tuple(u["position"]) for u in states[table["battle"]]["units"]}
    return tables


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def waited_for_cpu(pid: int) -> float:
    """Seconds the process's main thread (its event loop) has been ready to run but waited
    for a core: /proc/<pid>/schedstat's run-queue time. On a shared machine it tells how
    much of a latency is other programs' doing."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Crew:
    """The client processes of one step, and a word to all of them."""

    def __init__(self, jobs: list[dict[str, Any]]):
        context = multiprocessing.get_context("spawn")
        self.outbox = context.Queue()
        self.inboxes = [context.Queue() for _ in jobs]
        self.processes = [
            context.Process(target=client_process, args=(job, inbox, self.outbox))
            for job, inbox in zip(jobs, self.inboxes, strict=True)
        ]
        for process in self.processes:
            process.start()

    def tell(self, *command: Any, per_process: list[Any] | None = None) -> None:
        """Sends `command` (and each process's own argument) to all."""
        for i, inbox in enumerate(self.inboxes):
            inbox.put(command + ((per_process[i],) if per_process else ()))

    def answers(self) -> list[Any]:
        """One answer from each process; a process that died fails the step."""
        answers: list[Any] = []
        while len(answers) < len(self.inboxes):
            try:
                answers.append(self.outbox.get(timeout=5)[1])
            except queue.Empty:
                if any(process.exitcode for process in self.processes):
                    raise RuntimeError("a client process died (its traceback is above)") from None
        return answers

    def ask(self, *command: Any, per_process: list[Any] | None = None) -> list[Any]:
        self.tell(*command, per_process=per_process)
        return self.answers()

    def stop(self) -> None:
        """Waits for the processes to end (they do after "close"), ending any still on."""
        for process in self.processes:
            process.join(timeout=30 if process.exitcode is None else 0)
            if process.is_alive():
                process.terminate()
                process.join()


def measure_step(
    tables: list[dict[str, Any]], processes: int, args: argparse.Namespace, tree: str = ""
) -> dict:
    """One step of the ramp: the tables on `processes` fresh Daphne processes (of the
    source tree `tree`, or this one). The tables' game states are updated in place for
    the next step."""
    where: dict[str, Any] = {}
    if tree:
        where = {"cwd": Path(tree), "env": {**server_env(), "PYTHONPATH": str(Path(tree))}}
    servers = [start_server(app="tabletop.asgi:application", **where) for _ in range(processes)]
    pids = [s.pid for s, _ in servers]
    groups = client_groups(len(tables), args.tables_per_client)
    jobs = [
        {
            "tables": [(i, tables[i]) for i in group],
            "ports": [port for _, port in servers],
            "interval": args.interval,
            "count": len(tables),
            "ping_s": PING_S,
        }
        for group in groups
    ]
    per_table = args.spectators + 2
    crew = None
    try:
        crew = Crew(jobs)
        # Half the sockets, then all: the RSS they add, without what the first one loads.
        halves = [len(group) // 2 for group in groups]
        settle = 2 + len(tables) * per_table / 500
        rss = [sum(rss_kb(p) for p in pids)]
        opened = [0]
        for counts in (halves, [len(group) for group in groups]):
            opened.append(opened[-1] + sum(crew.ask("open", per_process=counts)))
            time.sleep(settle)
            rss.append(sum(rss_kb(p) for p in pids))
        idle_rss = [rss_kb(p) for p in pids]
        start = time.time() + 1
        measure_from = start + args.interval
        until = measure_from + args.duration
        crew.tell("play", start, measure_from, until)
        time.sleep(max(0.0, measure_from - time.time()))
        cpu, wall = sum(cpu_seconds(p) for p in pids), time.perf_counter()
        waited = sum(waited_for_cpu(p) for p in pids)
        played: list[Played] = crew.answers()
        cpu, wall = sum(cpu_seconds(p) for p in pids) - cpu, time.perf_counter() - wall
        waited = sum(waited_for_cpu(p) for p in pids) - waited
        busy_rss = [rss_kb(p) for p in pids]
        states = [state for answer in crew.ask("close") for state in answer]
    finally:
        if crew is not None:
            crew.stop()
        for process, _ in servers:
            process.terminate()
            process.wait()
    by_battle = {state["battle"]: state for state in states}
    tables[:] = [by_battle[t["battle"]] for t in tables]
    acts = [x for p in played for x in p.acts]
    if os.environ.get("BENCH_TIMELINE"):
        # Each measured move's send time and act (s), to lay beside the servers' own logs.
        timeline = sorted(x for p in played for x in p.timeline)
        with open(os.environ["BENCH_TIMELINE"], "a") as out:
            line = {"tree": tree or "this", "tables": len(tables), "moves": timeline}
            out.write(json.dumps(line) + "\n")
    fanout = [x for p in played for x in p.fanout]
    moves = sum(p.moves for p in played)
    errors = [e for p in played for e in p.errors]
    act_p50, act_p99 = distribution(acts)
    fanout_p50, fanout_p99 = distribution(fanout)
    return {
        "processes": processes,
        "tables": len(tables),
        "sockets": opened[-1],
        "moves": moves,
        "act_p50_ms": act_p50,
        "act_p99_ms": act_p99,
        "fanout_p50_ms": fanout_p50,
        "fanout_p99_ms": fanout_p99,
        "cpu_ms_per_move": per_move(cpu, moves),
        "server_cpu_cores": round(cpu / wall, 2),
        "server_waited_ms_per_move": per_move(waited, moves),
        "kb_per_idle_socket": per_socket_kb((rss[1], rss[2]), (opened[1], opened[2])),
        "rss_mb_per_process_idle": [round(kb / 1024, 1) for kb in idle_rss],
        "rss_mb_per_process_playing": [round(kb / 1024, 1) for kb in busy_rss],
        "client_processes": len(played),
        "client_cpu_cores": round(sum(p.cpu_s for p in played) / wall, 3),
        "client_cpu_ms_per_move": per_move(sum(p.cpu_s for p in played), moves),
        "busiest_client_core_share": round(max(p.cpu_s / p.wall_s for p in played), 3),
        "client_waited_ms_per_move": per_move(sum(p.waited_s for p in played), moves),
        "errors": len(errors),
        "first_errors": errors[:3],
        "load": load(),
    }


def failed_or(step: Any, tables: list[dict[str, Any]], *args: Any) -> dict[str, Any]:
    """A step's row, or one that says it failed: a client process died opening its
    sockets (every handshake of one refused or dropped, retried as the board does), so
    no move was played and the tables are as they were for the next step."""
    try:
        return dict(step(tables, *args))
    except RuntimeError as error:
        return {"tables": len(tables), "failed": str(error), "errors": 1, "act_p99_ms": None,
                "load": load()}  # fmt: skip


def arguments() -> argparse.Namespace:
    def numbers(text: str) -> list[int]:
        return [int(n) for n in text.split(",")]

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=numbers, default=[50, 100, 200, 300, 400, 500],
                        help="the ramp: numbers of tables, ascending")  # fmt: skip
    parser.add_argument("--spectators", type=int, default=2, help="per table")
    parser.add_argument("--units", type=int, default=4, help="mechs a side")
    parser.add_argument("--interval", type=float, default=10.0, help="s between a table's moves")
    parser.add_argument("--duration", type=float, default=60.0, help="s measured per step")
    parser.add_argument("--processes", type=numbers, default=[1, 2], help="Daphne processes")
    parser.add_argument("--tables-per-client", type=int, default=50)
    parser.add_argument("--limit-ms", type=float, default=100.0, help="act p99 allowed")
    parser.add_argument("--whole-ramp", action="store_true",
                        help="go on past the first T over the limit (same capacity)")  # fmt: skip
    return parser.parse_args()


def main() -> None:
    args = arguments()
    set_up()
    run = f"c{time.time_ns() % 10**10}"
    print(f"load at start: {load()}", flush=True)
    summary: dict[str, Any] = {
        "spectators": args.spectators,
        "interval_s": args.interval,
        "duration_s": args.duration,
        "limit_ms": args.limit_ms,
        "load_at_start": load(),
    }
    for processes in args.processes:
        made = time.perf_counter()
        tables = make_tables(f"{run}-{processes}", max(args.tables), args.spectators, args.units)
        print(f"{len(tables)} tables made in {time.perf_counter() - made:.1f} s", flush=True)
        rows = []
        for count in args.tables:
            step = tables[:count]
            if BEFORE:
                row = failed_or(measure_step, step, processes, args, BEFORE)
                summary.setdefault("before", []).append(row)
                print(f"before: {json.dumps(row)}", flush=True)
            row = failed_or(measure_step, step, processes, args)
            tables[:count] = step
            rows.append(row)
            print(json.dumps(row), flush=True)
            if largest_within(rows, args.limit_ms) != count and not args.whole_ramp:
                break
        capacity = largest_within(rows, args.limit_ms)
        print(f"{processes} process(es): {capacity} tables within {args.limit_ms} ms", flush=True)
        best = next((r for r in rows if r["tables"] == capacity), rows[-1])
        summary[f"{processes}proc"] = {
            "capacity_tables": capacity,
            **{k: v for k, v in best.items() if k not in ("first_errors", "processes")},
        }
    summary["load_at_end"] = load()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
