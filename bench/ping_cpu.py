"""An idle socket's cost: the server CPU of a ping, as the board sends one (not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 [BENCH_BEFORE=<another checkout>] [BENCH_ROUNDS=2] \\
        .venv/bin/python bench/ping_cpu.py [--tables 25] [--spectators 2] [--every 21]
        [--duration 42]

T tables (capacity.py's: two players and S spectators each, every one a real websocket
client) sit idle on one fresh Daphne process (the product's app, DEBUG off) while every
socket pings every `--every` seconds, more than the 20 s after which a ping refreshes the
socket's presence row and place, as the board's 25 s pings each do; every ping also reads
the socket's rights again and the log's last seq. Nothing else happens: the process's
user + system CPU over the window, divided by the pongs that came back, is a ping's
server CPU, and a ping every 25 s of it is an idle socket's share of a core.

`BENCH_BEFORE=<another checkout>` measures its code beside this one's on the same
tables, alternating, `BENCH_ROUNDS` times each (its servers run from that tree).

The last line printed is one JSON object with the results.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.capacity import PING_S, load, make_tables  # noqa: E402
from bench.table_rtt import (  # noqa: E402
    Arrivals,
    Client,
    cpu_seconds,
    open_all,
    server_env,
    set_up,
    start_server,
)

BEFORE = os.environ.get("BENCH_BEFORE", "")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1"))


class Pinger(Client):
    """A client that counts the pongs it is sent."""

    pongs = 0

    async def read(self) -> None:
        async for message in self.ws:
            if json.loads(message).get("type") == "pong":
                self.pongs += 1


async def pinging(client: Pinger, every: float, until: float) -> None:
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        await client.ws.send('{"type": "ping"}')
        await asyncio.sleep(every)


async def measure(tables: list[dict[str, Any]], tree: str, args: argparse.Namespace) -> dict:
    """The tables' sockets idle on a fresh server of `tree` (or this one), pinging."""
    where: dict[str, Any] = {}
    if tree:
        where = {"cwd": Path(tree), "env": {**server_env(), "PYTHONPATH": str(Path(tree))}}
    server, port = start_server(app="tabletop.asgi:application", **where)
    base = f"127.0.0.1:{port}"
    clients = [
        Pinger(f"ws://{base}/ws/battles/{t['battle']}/", cookie, f"http://{base}", Arrivals(1))
        for t in tables
        for name, cookie in t["cookies"].items()
        if name != "gm"
    ]
    try:
        for i in range(0, len(clients), 4):  # a few at a time: the handshakes, not a storm
            await open_all(clients[i : i + 4])
        await asyncio.sleep(3)  # the joins' presence announcements are over
        # Every socket has pinged once, so that the window's pings all find a presence
        # row `--every` seconds old, as the board's do.
        until = time.monotonic() + args.every
        await asyncio.gather(*(pinging(c, args.every, until) for c in clients))
        for c in clients:
            c.pongs = 0
        cpu, wall = cpu_seconds(server.pid), time.perf_counter()
        until = time.monotonic() + args.duration
        await asyncio.gather(*(pinging(c, args.every, until) for c in clients))
        await asyncio.sleep(2)  # the last pongs
        cpu, wall = cpu_seconds(server.pid) - cpu, time.perf_counter() - wall
        pongs = sum(c.pongs for c in clients)
    finally:
        for c in clients:
            if c.ws is not None:
                await c.close()
        server.terminate()
        server.wait()
    per_ping = cpu * 1000 / pongs if pongs else None
    return {
        "sockets": len(clients),
        "pongs": pongs,
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_ping": None if per_ping is None else round(per_ping, 2),
        "core_share_per_1000_idle_sockets": (
            None if per_ping is None else round(per_ping / 1000 / PING_S * 1000, 3)
        ),
        "window_s": round(wall, 1),
        "load": load(),
    }


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--spectators", type=int, default=2, help="per table")
    parser.add_argument("--every", type=float, default=21.0, help="s between a socket's pings")
    parser.add_argument("--duration", type=float, default=42.0, help="s measured")
    return parser.parse_args()


async def run(tables: list[dict[str, Any]], args: argparse.Namespace) -> None:
    trees = [("before", BEFORE), ("after", "")] if BEFORE else [("after", "")]
    results: dict[str, list[dict]] = {label: [] for label, _ in trees}
    print(f"load at start: {load()}", flush=True)
    for _ in range(ROUNDS):
        for label, tree in trees:
            row = await measure(tables, tree, args)
            results[label].append(row)
            print(f"{label}: {json.dumps(row)}", flush=True)
    summary: dict[str, Any] = {"load_at_end": load()}
    for label, rows in results.items():
        per_ping = [r["server_cpu_ms_per_ping"] for r in rows if r["server_cpu_ms_per_ping"]]
        summary[label] = {
            "server_cpu_ms_per_ping_median": statistics.median(per_ping) if per_ping else None
        }
    print(json.dumps(summary))


def main() -> None:
    args = arguments()
    set_up()
    tables = make_tables(f"p{time.time_ns() % 10**10}", args.tables, args.spectators, 4)
    asyncio.run(run(tables, args))


if __name__ == "__main__":
    main()
