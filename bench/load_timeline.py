"""The servers' per-second counts (bench/load_counts) beside each move's act (capacity.py's
BENCH_TIMELINE): a line a second of the measured window, `*` where a move sent in it took
over 100 ms; per process the database thread's longest queue (q), the loop's lag, the CPU
ms, and per kind of call its count / longest wait (ms). Then totals per kind of call.

    .venv/bin/python bench/load_timeline.py LOAD_LOG_DIR TIMELINE [INDEX]

INDEX: which step of the timeline file (-1, the last, by default)."""

import collections
import glob
import json
import sys
from typing import Any

KEYS = ["db:socket_rights", "db:last_seq", "db:connection_seen", "db:_Read.run"]
SHORT = ["rights", "last_seq", "seen", "snapshot"]


def per_second(load_dir: str, t0: int, t1: int) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = collections.defaultdict(dict)
    for path in sorted(glob.glob(f"{load_dir}/*.jsonl")):
        pid = path.rsplit("/", 1)[1].split(".")[0]
        for line in open(path):
            row = json.loads(line)
            if t0 <= row["t"] <= t1:
                found[row["t"]][pid] = row
    return found


def column(row: dict[str, Any]) -> str:
    calls = row["f"]
    counted = " ".join(f"{calls[k][0]}/{calls[k][2]:.0f}" if k in calls else "-" for k in KEYS)
    other = " ".join(f"{k}:{v[0]}/{v[2]:.0f}" for k, v in calls.items() if k not in KEYS)
    return (
        f"q{row['dbq_max']} lag{row['lag_ms']:.0f} cpu{row.get('cpu_ms', '?')} [{counted}] {other}"
    )


def main() -> None:
    load_dir, timeline = sys.argv[1], sys.argv[2]
    which = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    moves = [json.loads(line) for line in open(timeline)][which]["moves"]
    t0, t1 = int(moves[0][0]), int(moves[-1][0]) + 1
    seconds = per_second(load_dir, t0, t1)
    acts = collections.defaultdict(list)
    for sent, act in moves:
        acts[int(sent)].append(act * 1000)
    ordered = sorted(a * 1000 for _, a in moves)
    print(
        f"moves {len(ordered)} p50 {ordered[len(ordered) // 2]:.1f} "
        f"p99 {ordered[int(len(ordered) * 0.99)]:.1f} max {ordered[-1]:.1f} ms"
    )
    print("s   longest  moves | per process: q lag cpu [" + " ".join(SHORT) + "] others")
    for t in range(t0, t1 + 1):
        longest = max(acts.get(t, [0]))
        mark = "*" if longest > 100 else " "
        cols = " || ".join(column(row) for _, row in sorted(seconds[t].items()))
        print(f"{t - t0:3d}{mark}{longest:7.0f} {len(acts.get(t, [])):2d} | {cols}")
    totals: collections.Counter = collections.Counter()
    for by_pid in seconds.values():
        for row in by_pid.values():
            for key, value in row["f"].items():
                totals[key] += value[0]
    print(dict(totals))


if __name__ == "__main__":
    main()
