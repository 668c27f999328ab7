"""The action-point skirmish game's part of bench/validate.py: its reference board and
figures (keys suffixed `_apskirmish`).

Reference board: 72" x 48", 24 features (rough ground, obstacles, open ground) and 20
soldiers of both sides (1" bases, every stance) with a Scavenger (3" base). A move or a
run is one straight line (APS-D5), so the paths timed are single lines: a `move` of up
to the stance distance and a `run` of up to 9", with forced outcomes for the Terrain
rolls. Reach is timed for `move` and `run`.

The headline keys the other systems report (`validate_5_p50_us_apskirmish`,
`validate_5_p99_us_apskirmish`, `reach_p50_ms_apskirmish`; targets as aod's: 5-step p50
<= 300 us, p99 <= 2 ms, reach p50 <= 50 ms) are, for a game whose move is one line: a
5-step path of four turn steps and the line's one point (APS-D4, APS-D24), and the
reach of a `move`.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_timing import percentile, time_reach, time_validate  # noqa: E402
from rules import GameState, state_from_json, validate  # noqa: E402
from rules.engine.dice import make_dice  # noqa: E402

W, H = 72.0, 48.0
KINDS = ["rough"] * 10 + ["obstacle"] * 10 + ["open"] * 4
STANCES = ["standing", "standing", "crouching", "prone"]


def apskirmish_board(seed: int = 4) -> GameState:
    rng = random.Random(seed)
    terrain = []
    for i, kind in enumerate(KINDS):
        cx, cy = rng.uniform(4, W - 4), rng.uniform(4, H - 4)
        w, h = (
            (rng.uniform(0.4, 0.8), rng.uniform(3, 7))
            if kind == "obstacle"
            else (rng.uniform(2, 6), rng.uniform(2, 6))
        )
        if rng.random() < 0.5:
            w, h = h, w
        feature: dict[str, Any] = {
            "id": f"T{i}",
            "type": kind,
            "polygon": [
                [cx - w / 2, cy - h / 2],
                [cx + w / 2, cy - h / 2],
                [cx + w / 2, cy + h / 2],
                [cx - w / 2, cy + h / 2],
            ],
        }
        if kind == "obstacle":
            feature["height"] = 1.0
        terrain.append(feature)
    units: list[dict[str, Any]] = []
    for k in range(21):
        big = k == 20
        units.append(
            {
                "id": f"U{k}",
                "side": "P1" if k % 2 else "P2",
                "type": "soldier",
                "base": {"shape": "circle", "diameter": 3.0 if big else 1.0},
                "stance": "standing" if big else STANCES[k % len(STANCES)],
                "ap": 3,
                "stats": {"PSQ": 5, "INS": 5},
                "position": [6 + (k % 7) * 10, 8 + (k // 7) * 14],
                "facing": rng.uniform(0, 360),
            }
        )
    return state_from_json(
        {
            "system": "apskirmish",
            "table": {"width": W, "height": H},
            "terrain": terrain,
            "units": units,
        }
    )


def _line(rng: random.Random, u: Any, longest: float, kind: str) -> dict[str, Any]:
    a = rng.uniform(0, 2 * math.pi)
    d = rng.uniform(0.5, longest)
    return {
        "unit": u.id,
        "type": kind,
        "path": [[u.position[0] + d * math.cos(a), u.position[1] + d * math.sin(a)]],
    }


def _five_steps(rng: random.Random, u: Any, longest: float) -> dict[str, Any]:
    """Four turn steps, then one point: the most steps a move's path has (APS-D24)."""
    action = _line(rng, u, longest, "move")
    action["path"] = [{"turn": rng.uniform(-45, 45)} for _ in range(4)] + action["path"]
    return action


def _time_validate(state: GameState, seed: str, make: Any) -> tuple[list[float], int]:
    """400 actions made by `make(rng, unit)`, their Terrain rolls failed: the fastest run
    of each (us), and how many were legal."""
    times, legal = time_validate(state, make, seed=seed, dice=lambda: make_dice([], [False]))
    return times, len(legal)


def apskirmish_figures() -> dict[str, Any]:
    """validate() of a move and a run, and reach() of both (the aod targets)."""
    state = apskirmish_board()
    validate(state, {"unit": "U0", "type": "move", "path": []})  # build the indexes
    out: dict[str, Any] = {}
    for kind, longest in (("move", 3.5), ("run", 10.0)):
        times, legal = _time_validate(
            state, kind, lambda rng, u, kind=kind, longest=longest: _line(rng, u, longest, kind)
        )
        p50, p99 = statistics.median(times), percentile(times, 99)
        print(
            f"apskirmish validate {kind}: p50 {p50:7.1f} us  p99 {p99:7.1f} us  | legal {legal}/400"
        )
        out[f"validate_{kind}_p50_us_apskirmish"] = round(p50, 1)
        out[f"validate_{kind}_p99_us_apskirmish"] = round(p99, 1)
    for kind in ("move", "run"):
        rtimes = time_reach(state, state.units, (kind,))
        r50 = statistics.median(rtimes)
        print(f"apskirmish reach {kind}: p50 {r50:.1f} ms  p99 {percentile(rtimes, 99):.1f} ms")
        out[f"reach_{kind}_p50_ms_apskirmish"] = round(r50, 2)
    # The headline keys, as the other systems report them (see the module's docstring).
    times, legal = _time_validate(state, "5-step", lambda rng, u: _five_steps(rng, u, 3.5))
    p50, p99 = statistics.median(times), percentile(times, 99)
    print(
        f"apskirmish validate 5-step (4 turns + a line): p50 {p50:7.1f} us  "
        f"p99 {p99:7.1f} us  | legal {legal}/400"
    )
    out["validate_5_p50_us_apskirmish"] = round(p50, 1)
    out["validate_5_p99_us_apskirmish"] = round(p99, 1)
    out["reach_p50_ms_apskirmish"] = out["reach_move_p50_ms_apskirmish"]
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(apskirmish_figures()))
