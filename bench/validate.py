"""Benchmark of the rules engine: validate() for 1-, 5- and 20-step paths, and reach().

Reference board: 72" x 48", 60 terrain features, 100 units (aod). Run:

    .venv/bin/python bench/validate.py

Times are thread CPU time, the fastest of REPEATS runs of each call. The last line
is one JSON object with the headline figures (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import GameState, reach, state_from_json, state_to_json, validate  # noqa: E402
from rules.engine.dice import make_dice  # noqa: E402

W, H = 72.0, 48.0
#: Each call is timed this many times and the fastest kept: the machine is shared,
#: and the fastest run is the engine's cost without interference.
REPEATS = 7
TERRAIN_TYPES = (
    ["hindering"] * 25
    + ["blocking"] * 15
    + ["shallow_water"] * 6
    + ["deep_water"] * 4
    + ["elevated"] * 6
    + ["abrupt_elevated"] * 4
)
UNIT_TYPES = (
    ["mech"] * 40 + ["infantry"] * 30 + ["tracked"] * 15 + ["hover"] * 10 + ["quad_mech"] * 5
)


def polygon(rng: random.Random, cx: float, cy: float) -> list[list[float]]:
    """An irregular convex-ish polygon of 5-8 vertices, 1.5"-4" across."""
    n = rng.randint(5, 8)
    r = rng.uniform(0.75, 2.0)
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n + rng.uniform(-0.2, 0.2)
        rr = r * rng.uniform(0.7, 1.0)
        pts.append([round(cx + rr * math.cos(a), 3), round(cy + rr * math.sin(a), 3)])
    return pts


def board(seed: int = 1) -> GameState:
    rng = random.Random(seed)
    terrain = []
    for i, t in enumerate(TERRAIN_TYPES):
        cx, cy = rng.uniform(3, W - 3), rng.uniform(3, H - 3)
        terrain.append({"id": f"T{i}", "type": t, "polygon": polygon(rng, cx, cy)})
    units: list[dict[str, Any]] = []
    placed: list[tuple[float, float, float]] = []
    while len(units) < 100:
        d = rng.choice([1.0, 1.25, 1.75, 2.0])
        x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
        if any(math.hypot(x - px, y - py) < (d + pd) / 2 + 0.05 for px, py, pd in placed):
            continue
        placed.append((x, y, d))
        i = len(units)
        units.append(
            {
                "id": f"U{i}",
                "side": "P1" if i % 2 else "P2",
                "type": UNIT_TYPES[i % len(UNIT_TYPES)],
                "move": rng.choice([6, 8, 10, 12]),
                "base": {"shape": "circle", "diameter": d},
                "position": [round(x, 3), round(y, 3)],
                "facing": rng.uniform(0, 360),
            }
        )
    return state_from_json(
        {"system": "aod", "table": {"width": W, "height": H}, "terrain": terrain, "units": units}
    )


def path(
    rng: random.Random, start: tuple[float, float], steps: int, length: float
) -> list[list[float]]:
    """A random walk of `steps` segments with total length about `length`."""
    x, y = start
    out = []
    heading = rng.uniform(0, 2 * math.pi)
    for _ in range(steps):
        heading += rng.uniform(-0.8, 0.8)
        seg = length / steps
        x = min(max(x + seg * math.cos(heading), 1), W - 1)
        y = min(max(y + seg * math.sin(heading), 1), H - 1)
        out.append([round(x, 3), round(y, 3)])
    return out


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))
    return xs[k]


def time_validate(
    state: GameState, steps: int, n: int, seed: int
) -> tuple[list[float], list[float]]:
    """Times of all calls, and of the calls whose verdict was legal."""
    rng = random.Random(seed)
    times = []
    legal_times = []
    for k in range(n):
        u = state.units[k % len(state.units)]
        action = {
            "unit": u.id,
            "type": "move",
            "path": path(rng, u.position, steps, rng.uniform(3, u.move)),
        }
        best = math.inf
        for _ in range(REPEATS):
            dice = make_dice([6] * 4)
            t0 = time.thread_time()
            v = validate(state, action, dice)
            best = min(best, time.thread_time() - t0)
        times.append(best * 1e6)
        if v.legal:
            legal_times.append(best * 1e6)
    return times, legal_times


def main() -> None:
    state = board()
    validate(state, {"unit": "U0", "type": "move", "path": [[1, 1]]})  # build the indexes
    figures: dict[str, Any] = {}
    for steps in (1, 5, 20):
        times, legal = time_validate(state, steps, 400, seed=steps)
        p50, p99 = statistics.median(times), percentile(times, 99)
        print(
            f"validate {steps:>2}-step: p50 {p50:7.1f} us  p99 {p99:7.1f} us  | "
            f"legal only ({len(legal)}/400): p50 {statistics.median(legal):7.1f} us  "
            f"p99 {percentile(legal, 99):7.1f} us"
        )
        figures[f"validate_{steps}_p50_us"] = round(p50, 1)
        figures[f"validate_{steps}_p99_us"] = round(p99, 1)
    cold = []
    raw = state_to_json(state)
    for k in range(20):
        t0 = time.thread_time()
        fresh = state_from_json(raw)
        validate(fresh, {"unit": f"U{k}", "type": "move", "path": [[36, 24]]}, make_dice([6]))
        cold.append((time.thread_time() - t0) * 1e3)
    print(f"cold (state_from_json + first validate, indexes built): "
          f"p50 {statistics.median(cold):.1f} ms")
    rtimes = []
    for u in state.units[:60]:
        best = math.inf
        for _ in range(REPEATS):
            fresh = replace(state)  # reach is cached per state: time it uncached
            t0 = time.thread_time()
            reach(fresh, u.id)
            best = min(best, time.thread_time() - t0)
        rtimes.append(best * 1e3)
    r50, r99 = statistics.median(rtimes), percentile(rtimes, 99)
    print(f"reach: p50 {r50:.1f} ms  p99 {r99:.1f} ms (60 units)")
    out = {
        "validate_1_p50_us": figures["validate_1_p50_us"],
        "validate_5_p50_us": figures["validate_5_p50_us"],
        "validate_5_p99_us": figures["validate_5_p99_us"],
        "validate_20_p50_us": figures["validate_20_p50_us"],
        "reach_p50_ms": round(r50, 2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
