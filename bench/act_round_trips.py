"""Where an act's database time goes, inside one process (not a test; needs PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabletop_bench \\
    .venv/bin/python bench/act_round_trips.py

Run from a source tree's root, it measures that tree's code (so the same file measures
another checkout: `cd ../other && python <this tree>/bench/act_round_trips.py`). On the
table of bench/table_rtt.py (aod, 24 mechs a side), one player moves every unit of its
side once, as the table's socket would have it served (the rights read again, then the
act service), the battle's events sent nowhere. For each act after the first two: the
exchanges with the database server (libpq's trace: one ReadyForQuery each, BEGIN and
COMMIT included) of the rights, of the act and of the whole frame (both), the wall time
of the rights, of the act service and of the frame, and the time spent waiting for the
database in the act service. Prints medians, and last a JSON line.
"""

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
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


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tabletop_bench")
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection

    from bench.table_rtt import make_table
    from tabletop import protocol
    from tabletop.consumers import serve
    from tabletop.models import Battle
    from tabletop.services.table import rights

    call_command("migrate", verbosity=0)
    battle_id, cookies, units = make_table(f"rt{time.time_ns() % 10**10}", 0)
    xs = {u["id"]: u["position"] for u in Battle.objects.get(pk=battle_id).state["units"]}
    key = cookies["p1"].split("=", 1)[1]
    seat = rights.Seat(int(SessionStore(key)["_auth_user_id"]), key)
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
            x, y = xs[unit][:2]
            frame = protocol.parse(
                json.dumps(
                    {
                        "type": "act",
                        "id": f"a{i}",
                        "seen": seq,
                        "action": {"unit": unit, "type": "move", "path": [[x, y + 1]]},
                    }
                )
            )
            trace(pgconn, log)
            start = time.perf_counter()
            actor = rights.socket_rights(seat, battle_id)
            ruled = time.perf_counter()
            rights_trips = untrace(pgconn, log)
            trace(pgconn, log)
            waited.clear()
            started = time.perf_counter()
            with connection.execute_wrapper(timed):
                answer = serve(frame, battle_id=battle_id, actor=actor)
            done = time.perf_counter()
            trips = untrace(pgconn, log)
            assert answer["type"] == "ack", answer
            seq = answer["seq"]
            rows.append(
                (
                    trips,
                    rights_trips,
                    ruled - start,
                    done - started,
                    sum(waited),
                    trips + rights_trips,
                    done - started + ruled - start,
                )
            )
            time.sleep(0.1)  # paced like bench/table_rtt.py's acts
    rows = rows[2:]  # the first acts parse the position and fill the process's caches

    def med(i: int, scale: float = 1000) -> float:
        return round(statistics.median(r[i] for r in rows) * scale, 2)

    out = {
        "acts": len(rows),
        "frame_round_trips_p50": med(5, 1),
        "frame_round_trips_max": max(r[5] for r in rows),
        "frame_ms_p50": med(6),
        "act_round_trips_p50": med(0, 1),
        "act_round_trips_max": max(r[0] for r in rows),
        "rights_round_trips_p50": med(1, 1),
        "rights_ms_p50": med(2),
        "act_service_ms_p50": med(3),
        "act_service_db_ms_p50": med(4),
    }
    for name, value in out.items():
        print(f"{name}: {value}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
