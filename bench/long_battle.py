"""Issue 25: a battle of 5,000 events loads its board, its report and its export about as
fast as a new one, and the export streams.

Two battles on an open table (two mechs a side; bench/records.py builds them: GM fiats,
a turn ended every tenth, a 600 s spectator delay): a new one of NEW events and a long one
of LONG. Each read in a fresh process (its CPU time, SQLite's work included, and how much
its peak resident memory rose), for both battles, and the ratio long / new:

- `board`: the GM's GET /battles/<id>/board/ and the snapshot its socket is sent;
- `report`: GET /battles/<id>/report/ (the GM: the whole log);
- `events_jsonl`: GET /battles/<id>/events.jsonl, read to its end.

Each read is made twice in its process; `again` is the second (what the cache keeps).

    .venv/bin/python bench/long_battle.py

SQLite in a temporary directory, the in-memory cache (`BENCH_LONG=5000`, `BENCH_NEW=20`).
The last line is one JSON object (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))

from bench.records import build, measure, setup_django  # noqa: E402

LONG = int(os.environ.get("BENCH_LONG", "5000"))
NEW = int(os.environ.get("BENCH_NEW", "20"))
READS = ("board", "report", "events_jsonl")


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True
    )
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, events in (("new", NEW), ("long", LONG)):
            db = Path(tmp) / f"{name}.sqlite3"
            battle_id = run("--build", str(db), str(events))
            size_mb = db.stat().st_size / 2**20
            print(f"{name}: {events} events, database {size_mb:.1f} MB", flush=True)
            figures[name] = {"events": events, "db_mb": round(size_mb, 1)}
            for what in READS:
                figures[name].update(json.loads(run("--measure", str(db), battle_id, what)))
    for what in READS:
        new, long = (figures[n][f"{what}_cpu_s"] for n in ("new", "long"))
        rss = (figures[n][f"{what}_rss_mb"] for n in ("new", "long"))
        ratio = round(long / new, 2) if new else None
        figures[f"{what}_ratio"] = ratio
        again = [figures[n][f"{what}_again_cpu_s"] for n in ("new", "long")]
        print(
            f"  {what:13} new {new:6.3f} s  long {long:6.3f} s  ratio {ratio}   "
            f"memory +{next(rss):5.1f} MB / +{next(rss):5.1f} MB   "
            f"again {again[0]:6.3f} s / {again[1]:6.3f} s",
            flush=True,
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--build":
        setup_django(Path(sys.argv[2]))
        print(build(Path(sys.argv[2]), int(sys.argv[3]), complex_map=False))
    elif len(sys.argv) == 5 and sys.argv[1] == "--measure":
        setup_django(Path(sys.argv[2]))
        print(json.dumps(measure(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4])))
    else:
        main()
