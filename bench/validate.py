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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_timing import percentile, time_reach, time_validate  # noqa: E402
from bench.validate_apskirmish import apskirmish_figures  # noqa: E402
from rules import GameState, state_from_json, state_to_json, validate  # noqa: E402
from rules.engine.dice import make_dice  # noqa: E402

W, H = 72.0, 48.0
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


def scatter_terrain(
    rng: random.Random, kinds: list[str], more: Callable[[str], dict[str, Any]] = lambda t: {}
) -> list[dict[str, Any]]:
    """A feature of each kind at a random place; `more(kind)` adds its other keys."""
    terrain = []
    for i, t in enumerate(kinds):
        cx, cy = rng.uniform(3, W - 3), rng.uniform(3, H - 3)
        terrain.append({"id": f"T{i}", "type": t, "polygon": polygon(rng, cx, cy), **more(t)})
    return terrain


def scatter_units(
    rng: random.Random,
    count: int,
    diameter: Callable[[int], float],
    keys: Callable[[int, float], dict[str, Any]],
) -> list[dict[str, Any]]:
    """`count` units on circle bases (unit i's `diameter(i)`) at random places clear of
    one another, sides alternating; `keys(i, diameter)` gives a unit's type and stats."""
    units: list[dict[str, Any]] = []
    placed: list[tuple[float, float, float]] = []
    while len(units) < count:
        i = len(units)
        d = diameter(i)
        x, y = rng.uniform(1.5, W - 1.5), rng.uniform(1.5, H - 1.5)
        if any(math.hypot(x - px, y - py) < (d + pd) / 2 + 0.05 for px, py, pd in placed):
            continue
        placed.append((x, y, d))
        units.append(
            {
                "id": f"U{i}",
                "side": "P1" if i % 2 else "P2",
                **keys(i, d),
                "base": {"shape": "circle", "diameter": d},
                "position": [round(x, 3), round(y, 3)],
                "facing": rng.uniform(0, 360),
            }
        )
    return units


def reference_state(system: str, terrain: list[dict], units: list[dict]) -> GameState:
    return state_from_json(
        {"system": system, "table": {"width": W, "height": H}, "terrain": terrain, "units": units}
    )


def board(seed: int = 1) -> GameState:
    rng = random.Random(seed)
    terrain = scatter_terrain(rng, TERRAIN_TYPES)
    units = scatter_units(
        rng,
        100,
        lambda i: rng.choice([1.0, 1.25, 1.75, 2.0]),
        lambda i, d: {"type": UNIT_TYPES[i % len(UNIT_TYPES)], "move": rng.choice([6, 8, 10, 12])},
    )
    return reference_state("aod", terrain, units)


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


MSWARS_TERRAIN = (
    ["rough", "difficult", "very_difficult", "shallow_water", "deep_water"] * 2
    + ["woodland", "river", "pond", "fields", "desert", "hills", "rubble", "small_walls"]
    + ["elevated"] * 6
)
MSWARS_TYPES = ["walker", "walker", "four_legged_walker", "track", "wheel", "hover"]


def mswars_board(seed: int = 2) -> GameState:
    """24 features of every mswars kind and 10 units of every moving type (MSW reference)."""
    rng = random.Random(seed)
    terrain = scatter_terrain(
        rng,
        MSWARS_TERRAIN,
        lambda t: {"height": rng.choice([1.5, 3.0, 5.0, 7.5])} if t == "elevated" else {},
    )
    units = scatter_units(
        rng,
        10,
        lambda i: rng.choice([1.0, 1.25, 1.75, 2.0]),
        lambda i, d: {
            "type": MSWARS_TYPES[i % len(MSWARS_TYPES)],
            "move": rng.choice([6, 8, 10, 12]),
            "size_class": rng.randint(0, 5),
        },
    )
    return reference_state("mswars", terrain, units)


def mswars_path(
    rng: random.Random, start: tuple[float, float], facing: float, steps: int, length: float
) -> list[Any]:
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
    return {
        "unit": u.id,
        "type": "move",
        "path": path(rng, u.position, steps, rng.uniform(3, u.move)),
    }


def mswars_action(rng: random.Random, u: Any, steps: int) -> dict[str, Any]:
    return {
        "unit": u.id,
        "type": "standard_move",
        "path": mswars_path(rng, u.position, u.facing, steps, rng.uniform(3, u.move)),
    }


LG_TERRAIN = ["soft", "vegetation", "low_obstacle", "road", "building", "river"] * 3 + [
    "slope",
    "bridge",
    "ford",
    "high_wall",
    "antitank_obstacle",
    "lake",
]
LG_TYPES = [
    "grav",
    "tracked",
    "wheeled",
    "hover",
    "walker",
    "foot",
    "jetpack",
    "gravpack",
    "crew_weapon",
    "thruster",
]


def lasergrenadiers_board(seed: int = 3) -> GameState:
    """24 features of every lasergrenadiers kind, 10 vehicles and infantry (LG reference)."""
    rng = random.Random(seed)

    def more(t: str) -> dict[str, Any]:
        if t == "slope":
            return {"uphill": rng.uniform(0, 360)}
        if t == "building":
            return {"height": 4.0, "vehicle_access": rng.random() < 0.5}
        return {}

    def kind(i: int) -> str:
        return LG_TYPES[i % len(LG_TYPES)]

    terrain = scatter_terrain(rng, LG_TERRAIN, more)
    units = scatter_units(
        rng,
        10,
        lambda i: 2.5 if i < 5 or kind(i) == "thruster" else 1.0,
        lambda i, d: {"type": kind(i), "move": 24 if d > 2 else 12},
    )
    return reference_state("lasergrenadiers", terrain, units)


def lasergrenadiers_action(rng: random.Random, u: Any, steps: int) -> dict[str, Any]:
    """One turn (each costs a fraction of the rate), then straight segments ahead; the
    last point of a flyer 0-4" up (a 3-D path)."""
    route = mswars_path(rng, u.position, u.facing, steps, rng.uniform(3, u.move * 0.7))
    route = [route[0]] + [s for s in route[1:] if isinstance(s, list)]
    if u.type in ("grav", "jetpack", "gravpack", "thruster"):
        route[-1] = [*route[-1], round(rng.uniform(0, 4), 2)]
    return {"unit": u.id, "type": "move", "path": route}


@dataclass(frozen=True)
class System:
    """A system's hooks: its reference board, its paths of `steps` steps, the first
    validate that builds the board's indexes; its JSON keys' suffix and what reach times."""

    board: Callable[[], GameState]
    action: Callable[[random.Random, Any, int], dict[str, Any]]
    warm: dict[str, Any]
    suffix: str = ""
    reach_kinds: tuple[str | None, ...] = (None,)
    reach_units: int | None = None  # the first so many units; None: all


SYSTEMS = {
    "aod": System(
        board, aod_action, {"unit": "U0", "type": "move", "path": [[1, 1]]}, reach_units=60
    ),
    "mswars": System(
        mswars_board,
        mswars_action,
        {"unit": "U0", "type": "standard_move", "path": []},
        "_mswars",
        ("standard_move", "run"),
    ),
    "lasergrenadiers": System(
        lasergrenadiers_board,
        lasergrenadiers_action,
        {"unit": "U0", "type": "move", "path": []},
        "_lasergrenadiers",
    ),
}


def figures(name: str, system: System) -> dict[str, Any]:
    """validate() of 400 paths of 1, 5 and 20 steps and reach() on the system's board
    (targets: 5-step p50 <= 300 us, p99 <= 2 ms, reach p50 <= 50 ms)."""
    state = system.board()
    validate(state, system.warm)  # build the indexes
    label = "" if name == "aod" else f"{name} "
    out: dict[str, Any] = {}
    for steps in (1, 5, 20):
        times, legal = time_validate(
            state, lambda rng, u, steps=steps: system.action(rng, u, steps), seed=steps
        )
        p50, p99 = statistics.median(times), percentile(times, 99)
        legal_p50 = statistics.median(legal) if legal else math.nan
        legal_p99 = percentile(legal, 99) if legal else math.nan
        print(
            f"{label}validate {steps:>2}-step: p50 {p50:7.1f} us  p99 {p99:7.1f} us  | "
            f"legal only ({len(legal)}/400): p50 {legal_p50:7.1f} us  p99 {legal_p99:7.1f} us"
        )
        out[f"validate_{steps}_p50_us{system.suffix}"] = round(p50, 1)
        if steps == 5:
            out[f"validate_5_p99_us{system.suffix}"] = round(p99, 1)
    if name == "aod":
        print_cold(state)
    rtimes = time_reach(state, state.units[: system.reach_units], system.reach_kinds)
    r50 = statistics.median(rtimes)
    print(
        f"{label}reach: p50 {r50:.1f} ms  p99 {percentile(rtimes, 99):.1f} ms ({len(rtimes)} calls)"
    )
    out[f"reach_p50_ms{system.suffix}"] = round(r50, 2)
    return out


def print_cold(state: GameState) -> None:
    """The state's parse and first validate, its indexes built anew, 20 times."""
    cold = []
    raw = state_to_json(state)
    for k in range(20):
        t0 = time.thread_time()
        fresh = state_from_json(raw)
        validate(fresh, {"unit": f"U{k}", "type": "move", "path": [[36, 24]]}, make_dice([6]))
        cold.append((time.thread_time() - t0) * 1e3)
    print(
        f"cold (state_from_json + first validate, indexes built): "
        f"p50 {statistics.median(cold):.1f} ms"
    )


def main() -> None:
    out: dict[str, Any] = {}
    for name, system in SYSTEMS.items():
        out.update(figures(name, system))
    out.update(apskirmish_figures())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
