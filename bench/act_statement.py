"""A move's statement as the server runs it, counted inside one process (not a test;
needs PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    .venv/bin/python bench/act_statement.py [--reps 200]

Run from a source tree's root, it measures that tree's code. On the table of
bench/table_rtt.py (aod, 24 mechs a side), one player moves every unit of its side once,
each move frame served as the server serves it: `timed_serve` in the act threads
(`engine_thread(..., ENGINE_ACT_POOL)`, Channels' DatabaseSyncToAsync, which ends a
"request" before and after each call), on a kept connection (CONN_MAX_AGE=600, as
table_rtt's servers run). For each act after the first two: the exchanges with the
database server (libpq's trace: one ReadyForQuery each) and the statements sent.

Then, where the tree has it (one_trip._run_prepared), the last act's statement run
again `--reps` times plain (parsed and planned by PostgreSQL each time) and `--reps`
times as the connection's prepared statement, alternating, each in a transaction rolled
back (nothing committed): the database server's CPU time for it (its backend process's
utime + stime from /proc, a counter, not a clock), the client's wall time, and how
often PostgreSQL used a generic plan. The last line is one JSON object.
"""

import argparse
import asyncio
import collections
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path.cwd()))
# This file's own neighbour, whichever tree is measured (the cwd's `bench` may be older).
sys.path.insert(1, str(Path(__file__).resolve().parent))
from act_round_trips import move_frame, move_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=200)
    reps = parser.parse_args().reps
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tabletop_bench")
    os.environ["CONN_MAX_AGE"] = "600"
    import django

    django.setup()
    from django.db import connection
    from psycopg.pq import Trace

    from tabletop import protocol
    from tabletop.services.table import one_trip
    from tabletop.table_socket.service_calls import ENGINE_ACT_POOL, engine_thread, timed_serve

    battle_id, xs, units, seat = move_table("st")
    traced: list[tuple[int, tuple[str, ...]]] = []
    caught: dict[str, Any] = {}

    def served(frame: protocol.Frame) -> Any:
        connection.ensure_connection()
        pgconn = connection.connection.pgconn
        with tempfile.TemporaryFile("w+") as log:
            pgconn.trace(log.fileno())
            pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
            try:
                return timed_serve(frame, battle_id=battle_id, user=seat)
            finally:
                pgconn.untrace()
                log.seek(0)
                lines = log.read().splitlines()
                sent = tuple(re.findall(r'\tQuery\t\s*"\s*([A-Z]+)', "\n".join(lines)))
                traced.append((sum("\tReadyForQuery" in line for line in lines), sent))

    prepared = hasattr(one_trip, "_run_prepared")
    run_prepared = getattr(one_trip, "_run_prepared", None)

    def catch(cursor: Any, sql: str, params: dict[str, Any]) -> None:
        caught["sql"], caught["params"] = sql, dict(params)
        assert run_prepared is not None
        run_prepared(cursor, sql, params)

    async def moves() -> None:
        seq = 0
        for i, unit in enumerate(units["P1"]):
            frame = move_frame(f"a{i}", unit, xs[unit], seq)
            _, _, answer = await engine_thread(served, ENGINE_ACT_POOL)(frame)
            assert isinstance(answer, dict) and answer["type"] == "ack", answer
            seq = answer["seq"]
            await asyncio.sleep(0.1)

    with mock.patch("tabletop.events.deliver"):
        if prepared:
            with mock.patch.object(one_trip, "_run_prepared", catch):
                asyncio.run(moves())
        else:
            asyncio.run(moves())
    rows = traced[2:]
    out: dict[str, Any] = {
        "acts": len(rows),
        "round_trips_p50": statistics.median(r[0] for r in rows),
        "round_trips_max": max(r[0] for r in rows),
        "sent": dict(collections.Counter(" + ".join(r[1]) for r in rows)),
    }
    if prepared:
        out.update(statement_cpu(connection, one_trip, caught["sql"], caught["params"], reps))
    for name, value in out.items():
        print(f"{name}: {value}")
    print(json.dumps(out))


def statement_cpu(
    connection: Any, one_trip: Any, sql: str, params: dict[str, Any], reps: int
) -> dict[str, Any]:
    """The last act's statement again, on the row as it was before it (put back by hand),
    plain and prepared, alternating, each rolled back."""
    params = {**params, "id": "again"}
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tabletop_battle SET last_seq = %(seq)s, state = (%(before)s::jsonb) -> 'state',"
            " turn_state = (%(before)s::jsonb) -> 'turn' WHERE id = %(battle)s",
            params,
        )
        cursor.execute(
            "DELETE FROM tabletop_event WHERE battle_id = %(battle)s AND seq > %(seq)s", params
        )
    pid = connection.connection.info.backend_pid
    tick = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    spent = {"plain": 0.0, "prepared": 0.0}
    walls: dict[str, list[float]] = {"plain": [], "prepared": []}
    with connection.cursor() as cursor:
        for i in range(2 * reps):
            mode = "prepared" if i % 2 else "plain"
            cursor.execute("BEGIN")
            before, started = cpu(), time.perf_counter()
            if mode == "plain":
                cursor.execute(sql, params)
            else:
                one_trip._run_prepared(cursor, sql, params)
            written = cursor.fetchone()[0]
            walls[mode].append(time.perf_counter() - started)
            spent[mode] += cpu() - before
            cursor.execute("ROLLBACK")
            assert written is not None, "the statement wrote nothing"
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = %s",
            [one_trip._prepared_form(sql)[0]],
        )
        generic, custom = cursor.fetchone()
    out: dict[str, Any] = {"reps": reps, "generic_plans": generic, "custom_plans": custom}
    for mode in spent:
        out[f"{mode}_server_cpu_ms"] = round(spent[mode] / reps * 1000, 3)
        out[f"{mode}_wall_ms_p50"] = round(statistics.median(walls[mode]) * 1000, 3)
    return out


if __name__ == "__main__":
    main()
