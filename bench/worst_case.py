"""The engine's worst case on the reference board: the costliest actions within its bounds.

Issue 15 asks that no action the protocol accepts cost more than 50 ms of engine time on
the reference board (bench/validate.py's: 72" x 48", 60 terrain features, 100 units,
aod). The bounds (rules/engine/bounds.py) cap what an action may ask: 64 path steps in
all, turn steps of 360 degrees and 360 degrees of turning, width + height = 120" of
travel, points in the table's box. This bench asks exactly that much, in the shapes
that cost the engine most: long paths through terrain and bases, rect bases turning as
much as allowed (sampled in 0.005" corner steps wherever their exact sweep comes near a
feature), a formation of five, and the reach of a fast unit (of the first unit, and the
slowest of TRIES units at 48"). Reach's work is bounded by a count
(rules/geometry/visibility.py, `WORK`): each reach row says whether its area is
complete or cut short, and to how many inches of path it is exact. Run:

    .venv/bin/python bench/worst_case.py

Times are thread CPU time, the fastest of REPEATS runs of each call (the machine is
shared; the fastest is the engine's own cost). For the random families, the slowest of
TRIES actions is reported. The last line is one JSON object (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from validate import H, W, board  # noqa: E402  (the reference board)

from rules import GameState, reach, validate  # noqa: E402
from rules.engine.bounds import MAX_TURNING, check_action  # noqa: E402
from rules.engine.dice import make_dice  # noqa: E402
from rules.model.actions import MAX_STEPS, MAX_TURN_STEP  # noqa: E402
from rules.model.state import BaseShape  # noqa: E402

REPEATS = 3
TRIES = 12
TRAVEL = W + H - 0.5  # just inside the bound on travel (width + height)
#: Rect bases: a vehicle's, and the largest of the systems' notes (a colossal's).
RECTS = {
    "rect_1.5x2.5": BaseShape("rect", width=1.5, length=2.5),
    "rect_3x6": BaseShape("rect", width=3.0, length=6.0),
}


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of REPEATS runs of `call`, in ms of thread CPU time, and its result."""
    best, result = math.inf, None
    for _ in range(REPEATS):
        t0 = time.thread_time()
        result = call()
        best = min(best, time.thread_time() - t0)
    return best * 1e3, result


def zigzag(
    rng: random.Random, start: tuple[float, float], steps: int, travel: float
) -> list[list[float]]:
    """`steps` waypoints of `travel` inches in all, bouncing inside the table through the
    terrain (a random heading, turned back at the edges)."""
    x, y = start
    heading = rng.uniform(0, 2 * math.pi)
    seg = travel / steps
    out = []
    for _ in range(steps):
        heading += rng.uniform(-1.2, 1.2)
        nx, ny = x + seg * math.cos(heading), y + seg * math.sin(heading)
        if not (1 <= nx <= W - 1 and 1 <= ny <= H - 1):
            heading += math.pi
            nx, ny = x + seg * math.cos(heading), y + seg * math.sin(heading)
        x, y = min(max(nx, 1), W - 1), min(max(ny, 1), H - 1)
        out.append([round(x, 3), round(y, 3)])
    return out


def with_turns(path: list[list[float]], turning: float) -> list[Any]:
    """Half the steps waypoints, half turn steps sharing `turning` degrees, alternating."""
    points = path[: MAX_STEPS // 2]
    turn = turning / len(points)
    assert abs(turn) <= MAX_TURN_STEP
    out: list[Any] = []
    for i, p in enumerate(points):
        out += [{"turn": turn if i % 2 else -turn}, p]
    return out


def judge(state: GameState, action: dict[str, Any]) -> tuple[float, Any]:
    check_action(validate_action(state, action), state)  # within the bounds, by construction
    return timed(lambda: validate(state, action, make_dice([6] * 8)))


def validate_action(state: GameState, action: dict[str, Any]) -> Any:
    from rules import action_from_json

    return action_from_json(action, state)


def slowest(
    state: GameState, make: Callable[[random.Random, Any], dict[str, Any]], units: list[Any]
) -> tuple[float, str]:
    """The slowest of TRIES random actions of one family, and what its verdict said."""
    worst, said = 0.0, ""
    for k in range(TRIES):
        rng = random.Random(k)
        unit = units[k % len(units)]
        ms, verdict = judge(state, make(rng, unit))
        if ms > worst:
            worst, said = ms, ",".join(verdict.codes[:3]) or "legal"
    return worst, said


def main() -> None:
    state = board()
    validate(state, {"unit": "U0", "type": "move", "path": [[1, 1]]})  # build the indexes
    units = list(state.units[:TRIES])
    figures: dict[str, float] = {}

    def report(name: str, ms: float, said: str) -> None:
        figures[name] = round(ms, 1)
        print(f"{name:<44} {ms:7.1f} ms   ({said})", flush=True)

    def long_path(rng: random.Random, unit: Any) -> dict[str, Any]:
        return {
            "unit": unit.id,
            "type": "move",
            "path": zigzag(rng, unit.position, MAX_STEPS, TRAVEL),
        }

    def turning_path(rng: random.Random, unit: Any) -> dict[str, Any]:
        path = zigzag(rng, unit.position, MAX_STEPS // 2, TRAVEL)
        return {
            "unit": unit.id,
            "type": "move",
            "path": with_turns(path, MAX_TURNING - 180),
            "facing": unit.facing + 180,
        }

    def board_path(rng: random.Random, unit: Any) -> dict[str, Any]:
        """What the board sends at most: waypoints and a final facing half a turn away."""
        return {
            "unit": unit.id,
            "type": "move",
            "facing": unit.facing + 180,
            "path": zigzag(rng, unit.position, MAX_STEPS, TRAVEL),
        }

    report('circle, 64 steps, 120"', *slowest(state, long_path, units))
    for label, shape in RECTS.items():
        rect_state = state.with_units(*(replace(u, base=shape) for u in units))
        validate(rect_state, {"unit": "U0", "type": "move", "path": [[1, 1]]})
        report(f'{label}, 64 steps, 120"', *slowest(rect_state, long_path, units))
        report(
            f'{label}, 64 steps, 120", final facing +180 deg',
            *slowest(rect_state, board_path, units),
        )
        report(
            f'{label}, 32 steps + 32 turns, {MAX_TURNING:g} deg, 120"',
            *slowest(rect_state, turning_path, units),
        )
        spin = {"unit": "U0", "type": "move", "path": [{"turn": MAX_TURN_STEP}]}
        ms, verdict = judge(rect_state, spin)
        report(f"{label}, a full turn in place", ms, ",".join(verdict.codes) or "legal")
    report('formation of 5, 64 steps, 120" in all', *formation_case(state))
    for move in (12, 24, 48):
        report(f'reach, a unit of move {move}"', *reach_case(state, move))
    report(f'reach, move 48", slowest of {TRIES} units', *slowest_reach(state, 48, units))
    report('reach, formation of 5, move 48"', *formation_reach_case(state))
    report('reach, board, move 48"', *transport_reach_case(state, "board"))
    report('reach, disembark, move 48"', *transport_reach_case(state, "disembark"))
    report(
        'reach, disembark at cruising, move 48"',
        *transport_reach_case(state, "disembark", cruising=True),
    )
    actions = {k: v for k, v in figures.items() if not k.startswith("reach")}
    print(json.dumps({"worst_action_ms": max(actions.values()), **figures}))


def formation_case(state: GameState) -> tuple[float, str]:
    """Five infantry in a chain, each moving 12 steps, 24" (the steps and travel caps
    shared out), through the board's terrain."""
    rng = random.Random(7)
    x0, y0 = 6.0, 24.0
    members = [
        replace(
            state.units[i],
            type="infantry",
            side="P9",
            base=BaseShape("circle", diameter=1.0),
            position=(x0 + i * 1.0, y0),
            facing=0.0,
        )
        for i in range(5)
    ]
    placed = state.with_units(*members)
    steps = MAX_STEPS // 5
    moves = [{"unit": m.id, "path": zigzag(rng, m.position, steps, TRAVEL / 5)} for m in members]
    action = {"unit": members[0].id, "type": "formation_move", "moves": moves}
    ms, verdict = judge(placed, action)
    return ms, ",".join(verdict.codes[:3]) or "legal"


#: Where the formation and transport reach rows stand (the slowest of them is reported):
#: among the board's most crowded places.
CROWDED = [(28.0, 22.0), (22.0, 28.0), (34.0, 28.0), (46.0, 28.0), (20.0, 10.0), (36.0, 24.0)]


def said(found: Any) -> str:
    exact = "complete" if found.complete else f'cut short, exact to {found.horizon:.1f}"'
    area = 0.0 if found.area is None or found.area.is_empty else found.area.area
    return f"area {area:.0f} sq in, {exact}"


def formation_reach_case(state: GameState) -> tuple[float, str]:
    """The reach of a formation of five infantry in a row, of move 48" (000 [29])."""
    cases = []
    for x0, y0 in CROWDED:
        members = [
            replace(
                state.units[i],
                type="infantry",
                side="P9",
                move=48,
                base=BaseShape("circle", diameter=1.0),
                position=(x0 + i * 1.0, y0),
                facing=0.0,
            )
            for i in range(5)
        ]
        placed = state.with_units(*members)
        ms, found = timed(
            lambda placed=placed, lead=members[0].id: reach(replace(placed), lead, "formation_move")
        )
        cases.append((ms, f"at {x0:g},{y0:g}: {said(found)}"))
    return max(cases)


def transport_reach_case(
    state: GameState, action_type: str, cruising: bool = False
) -> tuple[float, str]:
    """The reach of a tracked transport (or a VTOL at cruising) of move 48" boarding the
    two infantry at its rear, or setting them down there (001 [18-19], 000 [19])."""
    cases = []
    kind = {"type": "vtol", "altitude": "cruising"} if cruising else {"type": "tracked"}
    for x0, y0 in CROWDED:
        t = replace(
            state.units[0],
            type=kind["type"],
            move=48,
            side="P9",
            base=BaseShape("circle", diameter=2.0),
            position=(x0, y0),
            facing=0.0,
            props={**state.units[0].props, "capacity": 8, **kind},
        )
        riders = [
            replace(
                state.units[i],
                type="infantry",
                side="P9",
                base=BaseShape("circle", diameter=1.0),
                position=(x0 - 1.394, y0 + dy),
                facing=0.0,
                aboard=t.id if action_type == "disembark" else None,
                props={**state.units[i].props, "jump_jets": cruising},
            )
            for i, dy in ((1, -0.563), (2, 0.563))
        ]
        placed = state.with_units(t, *riders)
        ms, found = timed(lambda placed=placed, tid=t.id: reach(replace(placed), tid, action_type))
        cases.append((ms, f"at {x0:g},{y0:g}: {said(found)}"))
    return max(cases)


def reach_case(state: GameState, move: float, unit: Any = None) -> tuple[float, str]:
    """reach for a unit (the first, by default) of `move` inches on a fresh copy of the
    state (reach is cached per state). Not an action, and no bound caps a unit's move;
    reach's own work bound does: its area says how far it is exact."""
    unit = replace(unit or state.units[0], move=move)
    fast = state.with_units(unit)
    ms, found = timed(lambda: reach(replace(fast), unit.id))
    exact = "complete" if found.complete else f'cut short, exact to {found.horizon:.1f}"'
    return ms, f"{unit.id}, area {found.area.area:.0f} sq in, {exact}"


def slowest_reach(state: GameState, move: float, units: list[Any]) -> tuple[float, str]:
    """The slowest reach of `move` inches among `units`, and what it found."""
    return max((reach_case(state, move, unit) for unit in units), key=lambda case: case[0])


if __name__ == "__main__":
    main()
