"""Where an act's database time goes, inside one process (not a test; needs PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    .venv/bin/python bench/act_round_trips.py

Run from a source tree's root, it measures that tree's code (so the same file measures
another checkout: `cd ../other && python <this tree>/bench/act_round_trips.py`). On the
table of bench/table_rtt.py (aod, 24 mechs a side), one player moves every unit of its
side once, each move frame served as the table's socket serves it (`serve_now`: the
socket's rights and the act service), the battle's events sent nowhere. For each act
after the first two: the exchanges with the database server of the whole frame (libpq's
trace: one ReadyForQuery each, BEGIN and COMMIT included), the statements Django sent
for it, its wall time, the part of it spent waiting for the database, and the CPU time
of the thread that served it (`time.thread_time`: the server's own work). Prints medians,
and last a JSON line.
"""

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path.cwd()))


def trace(pgconn, log) -> None:
    from psycopg.pq import Trace

    log.seek(0)
    log.truncate()
    pgconn.trace(log.fileno())
    pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)


def untrace(pgconn, log) -> int:
    """The exchanges with the server since `trace`: one ReadyForQuery each."""
    pgconn.untrace()
    log.seek(0)
    return sum("\tReadyForQuery" in line for line in log)


def move_table(run: str) -> tuple[int, dict[str, list[float]], dict[str, list[str]], Any]:
    """(After django.setup.) The database migrated and a fresh table of bench/table_rtt.py:
    (its battle id, each unit's position, the unit ids by side, the seat of P1's player)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from bench.table_rtt import make_table
    from tabletop.models import Battle
    from tabletop.services.table import rights

    call_command("migrate", verbosity=0)
    battle_id, cookies, units = make_table(f"{run}{time.time_ns() % 10**10}", 0)
    xs = {u["id"]: u["position"] for u in Battle.objects.get(pk=battle_id).state["units"]}
    key = cookies["p1"].split("=", 1)[1]
    return battle_id, xs, units, rights.Seat(int(SessionStore(key)["_auth_user_id"]), key)


def move_frame(msg_id: str, unit: str, position: list[float], seen: int) -> Any:
    """The move frame that moves `unit` (at `position`) one inch north."""
    from tabletop import protocol

    x, y = position[:2]
    action = {"unit": unit, "type": "move", "path": [[x, y + 1]]}
    return protocol.parse(json.dumps({"type": "act", "id": msg_id, "seen": seen, "action": action}))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tabletop_bench")
    import django

    django.setup()
    from django.db import connection

    from tabletop.consumers import serve_now

    battle_id, xs, units, seat = move_table("rt")
    waited: list[float] = []

    def timed(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            waited.append(time.perf_counter() - start)

    rows = []
    seq = 0
    connection.ensure_connection()
    with mock.patch("tabletop.events.deliver"), tempfile.TemporaryFile("w+") as log:
        pgconn = connection.connection.pgconn
        for i, unit in enumerate(units["P1"]):
            frame = move_frame(f"a{i}", unit, xs[unit], seq)
            trace(pgconn, log)
            waited.clear()
            started, cpu = time.perf_counter(), time.thread_time()
            with connection.execute_wrapper(timed):
                _, answer = serve_now(frame, battle_id=battle_id, user=seat)
            done, cpu = time.perf_counter(), time.thread_time() - cpu
            trips = untrace(pgconn, log)
            assert isinstance(answer, dict) and answer["type"] == "ack", answer
            seq = answer["seq"]
            rows.append((trips, len(waited), done - started, sum(waited), cpu))
            time.sleep(0.1)  # paced like bench/table_rtt.py's acts
    rows = rows[2:]  # the first acts parse the position and fill the process's caches

    def med(i: int, scale: float = 1000) -> float:
        return round(statistics.median(r[i] for r in rows) * scale, 2)

    out = {
        "acts": len(rows),
        "frame_round_trips_p50": med(0, 1),
        "frame_round_trips_max": max(r[0] for r in rows),
        "frame_statements_p50": med(1, 1),
        "frame_statements_max": max(r[1] for r in rows),
        "frame_ms_p50": med(2),
        "frame_db_ms_p50": med(3),
        "frame_cpu_ms_p50": med(4),
    }
    for name, value in out.items():
        print(f"{name}: {value}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
