"""Benchmark of the rules engine: validate() for 1-, 5- and 20-step paths, and reach().

Reference boards: 72" x 48", 60 terrain features, 100 units (aod); 72" x 48", 24
features of every mswars kind, 10 units (mswars, keys suffixed `_mswars`); 24 features
of every lasergrenadiers kind, 10 vehicles and infantry on 3-D paths (`_lasergrenadiers`);
the action-point skirmish game's board in validate_apskirmish.py (`_apskirmish`).
Run:

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

from bench.validate_apskirmish import apskirmish_figures  # noqa: E402
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


MSWARS_TERRAIN = (
    ["rough", "difficult", "very_difficult", "shallow_water", "deep_water"] * 2
    + ["woodland", "river", "pond", "fields", "desert", "hills", "rubble", "small_walls"]
    + ["elevated"] * 6
)
MSWARS_TYPES = ["walker", "walker", "four_legged_walker", "track", "wheel", "hover"]


def mswars_board(seed: int = 2) -> GameState:
    """24 features of every mswars kind and 10 units of every moving type (MSW reference)."""
    rng = random.Random(seed)
    terrain = []
    for i, t in enumerate(MSWARS_TERRAIN):
        cx, cy = rng.uniform(3, W - 3), rng.uniform(3, H - 3)
        feature: dict[str, Any] = {"id": f"T{i}", "type": t, "polygon": polygon(rng, cx, cy)}
        if t == "elevated":
            feature["height"] = rng.choice([1.5, 3.0, 5.0, 7.5])
        terrain.append(feature)
    units: list[dict[str, Any]] = []
    placed: list[tuple[float, float, float]] = []
    while len(units) < 10:
        d = rng.choice([1.0, 1.25, 1.75, 2.0])
        x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
        if any(math.hypot(x - px, y - py) < (d + pd) / 2 + 0.05 for px, py, pd in placed):
            continue
        placed.append((x, y, d))
        i = len(units)
        units.append({"id": f"U{i}", "side": "P1" if i % 2 else "P2",
                      "type": MSWARS_TYPES[i % len(MSWARS_TYPES)],
                      "move": rng.choice([6, 8, 10, 12]),
                      "size_class": rng.randint(0, 5), "base": {"shape": "circle", "diameter": d},
                      "position": [round(x, 3), round(y, 3)], "facing": rng.uniform(0, 360)})
    return state_from_json({"system": "mswars", "table": {"width": W, "height": H},
                            "terrain": terrain, "units": units})


def mswars_path(rng: random.Random, start: tuple[float, float], facing: float, steps: int,
                length: float) -> list[Any]:
    """`steps` straight segments ahead, each after a turn (mswars moves forward only)."""
    x, y = start
    out: list[Any] = []
    # Up to 30 degrees a step, less on long paths: a rect base turns at most 360 degrees
    # in all per action (rules/engine/bounds.py); 1- and 5-step paths are as before.
    most = min(30.0, 300.0 / steps)
    for _ in range(steps):
        turn = rng.uniform(-most, most)
        facing += turn
        seg = length / steps
        nx = min(max(x + seg * math.cos(math.radians(facing)), 1), W - 1)
        ny = min(max(y + seg * math.sin(math.radians(facing)), 1), H - 1)
        facing = math.degrees(math.atan2(ny - y, nx - x)) if (nx, ny) != (x, y) else facing
        out += [{"turn": round(turn, 3)}, [nx, ny]]
        x, y = nx, ny
    return out


def aod_action(rng: random.Random, u: Any, steps: int) -> dict[str, Any]:
    return {"unit": u.id, "type": "move",
            "path": path(rng, u.position, steps, rng.uniform(3, u.move))}


def mswars_action(rng: random.Random, u: Any, steps: int) -> dict[str, Any]:
    return {"unit": u.id, "type": "standard_move",
            "path": mswars_path(rng, u.position, u.facing, steps, rng.uniform(3, u.move))}


def time_validate(
    state: GameState, steps: int, n: int, seed: int, make: Any = aod_action
) -> tuple[list[float], list[float]]:
    """Times of all calls, and of the calls whose verdict was legal."""
    rng = random.Random(seed)
    times = []
    legal_times = []
    for k in range(n):
        u = state.units[k % len(state.units)]
        action = make(rng, u, steps)
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
    out.update(mswars_figures())
    out.update(lasergrenadiers_figures())
    out.update(apskirmish_figures())
    print(json.dumps(out))


def mswars_figures() -> dict[str, Any]:
    """The same measurements on the mswars reference board (targets: 5-step p50 <= 300 us,
    p99 <= 2 ms, reach p50 <= 50 ms)."""
    state = mswars_board()
    validate(state, {"unit": "U0", "type": "standard_move", "path": []})  # build the indexes
    out: dict[str, Any] = {}
    for steps in (1, 5, 20):
        times, legal = time_validate(state, steps, 400, seed=steps, make=mswars_action)
        p50, p99 = statistics.median(times), percentile(times, 99)
        print(f"mswars validate {steps:>2}-step: p50 {p50:7.1f} us  p99 {p99:7.1f} us  | "
              f"legal {len(legal)}/400")
        out[f"validate_{steps}_p50_us_mswars"] = round(p50, 1)
        if steps == 5:
            out["validate_5_p99_us_mswars"] = round(p99, 1)
    rtimes = []
    for u in state.units:
        for action_type in ("standard_move", "run"):
            best = math.inf
            for _ in range(REPEATS):
                fresh = replace(state)  # reach is cached per state: time it uncached
                t0 = time.thread_time()
                reach(fresh, u.id, action_type)
                best = min(best, time.thread_time() - t0)
            rtimes.append(best * 1e3)
    r50 = statistics.median(rtimes)
    print(f"mswars reach: p50 {r50:.1f} ms  p99 {percentile(rtimes, 99):.1f} ms")
    out["reach_p50_ms_mswars"] = round(r50, 2)
    return out


LG_TERRAIN = (["soft", "vegetation", "low_obstacle", "road", "building", "river"] * 3
              + ["slope", "bridge", "ford", "high_wall", "antitank_obstacle", "lake"])
LG_TYPES = ["grav", "tracked", "wheeled", "hover", "walker", "foot", "jetpack", "gravpack",
            "crew_weapon", "thruster"]


def lasergrenadiers_board(seed: int = 3) -> GameState:
    """24 features of every lasergrenadiers kind, 10 vehicles and infantry (LG reference)."""
    rng = random.Random(seed)
    terrain = []
    for i, t in enumerate(LG_TERRAIN):
        cx, cy = rng.uniform(3, W - 3), rng.uniform(3, H - 3)
        feature: dict[str, Any] = {"id": f"T{i}", "type": t, "polygon": polygon(rng, cx, cy)}
        if t == "slope":
            feature["uphill"] = rng.uniform(0, 360)
        if t == "building":
            feature.update(height=4.0, vehicle_access=rng.random() < 0.5)
        terrain.append(feature)
    units: list[dict[str, Any]] = []
    placed: list[tuple[float, float, float]] = []
    while len(units) < 10:
        i = len(units)
        kind = LG_TYPES[i % len(LG_TYPES)]
        d = 2.5 if i < 5 or kind == "thruster" else 1.0
        x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
        if any(math.hypot(x - px, y - py) < (d + pd) / 2 + 0.05 for px, py, pd in placed):
            continue
        placed.append((x, y, d))
        units.append({"id": f"U{i}", "side": "P1" if i % 2 else "P2", "type": kind,
                      "move": 24 if d > 2 else 12, "base": {"shape": "circle", "diameter": d},
                      "position": [round(x, 3), round(y, 3)], "facing": rng.uniform(0, 360)})
    return state_from_json({"system": "lasergrenadiers", "table": {"width": W, "height": H},
                            "terrain": terrain, "units": units})


def lasergrenadiers_action(rng: random.Random, u: Any, steps: int) -> dict[str, Any]:
    """One turn (each costs a fraction of the rate), then straight segments ahead; the
    last point of a flyer 0-4" up (a 3-D path)."""
    route = mswars_path(rng, u.position, u.facing, steps, rng.uniform(3, u.move * 0.7))
    route = [route[0]] + [s for s in route[1:] if isinstance(s, list)]
    if u.type in ("grav", "jetpack", "gravpack", "thruster"):
        route[-1] = [*route[-1], round(rng.uniform(0, 4), 2)]
    return {"unit": u.id, "type": "move", "path": route}


def lasergrenadiers_figures() -> dict[str, Any]:
    """The same measurements on the lasergrenadiers reference board (the aod targets)."""
    state = lasergrenadiers_board()
    validate(state, {"unit": "U0", "type": "move", "path": []})  # build the indexes
    out: dict[str, Any] = {}
    for steps in (1, 5, 20):
        times, legal = time_validate(state, steps, 400, seed=steps,
                                     make=lasergrenadiers_action)
        p50, p99 = statistics.median(times), percentile(times, 99)
        print(f"lasergrenadiers validate {steps:>2}-step: p50 {p50:7.1f} us  p99 {p99:7.1f} us"
              f"  | legal {len(legal)}/400")
        out[f"validate_{steps}_p50_us_lasergrenadiers"] = round(p50, 1)
        if steps == 5:
            out["validate_5_p99_us_lasergrenadiers"] = round(p99, 1)
    rtimes = []
    for u in state.units:
        best = math.inf
        for _ in range(REPEATS):
            fresh = replace(state)  # reach is cached per state: time it uncached
            t0 = time.thread_time()
            reach(fresh, u.id)
            best = min(best, time.thread_time() - t0)
        rtimes.append(best * 1e3)
    r50 = statistics.median(rtimes)
    print(f"lasergrenadiers reach: p50 {r50:.1f} ms  p99 {percentile(rtimes, 99):.1f} ms")
    out["reach_p50_ms_lasergrenadiers"] = round(r50, 2)
    return out


if __name__ == "__main__":
    main()
