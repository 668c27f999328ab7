"""Issue 21's attack map: what one preview with reach costs the engine on a map built to
be expensive, and what it costs on the worst map the map limits allow.

The attack: a new account saves a map within the old limits (45 features of 200 corners,
under 100 KB of JSON), starts a battle and asks one preview with reach, then makes a new
sequence number with a cheap GM fiat and asks again. Each map here is walls of saw teeth
(every tooth a corner that shortest paths bend round; aod elevated terrain, whose reach
adds the bands where a last leg climbs on, the costliest of the kinds measured), set
across the table, the unit among them. Rows, each the median of RUNS runs, in ms of this
thread's CPU time:

- `cold`: the first preview on a map nobody has read yet (parse, verdict, reach);
- `fiat`: the first preview after a fiat (the same map, a new position: parse, verdict,
  reach), what the attacker repeats;
- `reach`: reach alone on a parsed position; `alternative`: the nearest legal
  alternative to a refused drop, alone.

The server's deadlines (tabletop/services/table/referee.py) are applied as the server
applies them where the engine has them (`rules.deadline`); on an engine without them
(the commit before issue 21) every question runs whole. Run (the second line on a
worktree of the commit before, for the "before" column):

    .venv/bin/python bench/attack_map.py
    cd /tmp/before && PYTHONPATH=. /work/main/.venv/bin/python /work/main/bench/attack_map.py

The last line is one JSON object (docs/benchmarks.md).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))

import rules  # noqa: E402
from rules.model.actions import Action  # noqa: E402
from rules.referee.questions import alternative_answer, reach_answer  # noqa: E402

RUNS = 7
#: The server's deadlines, in seconds (referee.py's REACH_DEADLINE, ALTERNATIVE_DEADLINE).
REACH_DEADLINE = 0.040
ALTERNATIVE_DEADLINE = 0.040


def walls(
    kind: str,
    features: int,
    corners: int,
    width: float,
    height: float,
    pitch: float = 4.0,
    tooth: float = 0.5,
) -> list[dict[str, Any]]:
    """`features` walls across the table, `pitch` apart, each a polygon of `corners`
    corners: a straight side and a side of saw teeth `tooth` deep every `tooth` inches,
    their open ends alternating (a corridor between each two). Short numbers (halves),
    as an attacker writes them to fit the most corners in the fewest bytes."""
    out = []
    half = corners // 2

    def short(v: float) -> float | int:
        return int(v) if v == int(v) else round(v, 1)

    for i in range(features):
        x = 1.0 + i * pitch
        y0 = 0.5 if i % 2 else height - 0.5 - tooth * (half - 1)
        ys = [short(y0 + tooth * k) for k in range(half)]
        left = [[short(x), y] for y in ys]
        right = [[short(x + 1 + (tooth if k % 2 else 0)), y] for k, y in enumerate(ys)]
        out.append({"id": f"T{i}", "type": kind, "polygon": left + right[::-1]})
    return out


def combs(kind: str, width: float = 40.0) -> list[dict[str, Any]]:
    """Two combs of 15 fingers 26" long facing each other, their fingers interleaved 1"
    apart (62 corners each): few corners, but a long edge within reach, which aod's bands
    onto elevated terrain sample every 0.02"."""
    out = []
    for i, (x0, y0, s) in enumerate(((2.0, 2.0, 1), (3.0, 30.5, -1))):
        pts: list[list[float]] = []
        for f in range(15):
            xa = x0 + 2 * f
            pts += [
                [xa, y0 + s * 26],
                [xa + 0.4, y0 + s * 26],
                [xa + 0.4, y0 + s * 0.5],
                [xa + 2, y0 + s * 0.5],
            ]
        pts[-1] = [x0 + 30 - 1.6, y0 + s * 0.5]
        pts += [[x0 + 30 - 1.6, y0], [x0, y0]]
        ring = [[round(x, 2), round(y, 2)] for x, y in pts]
        out.append({"id": f"C{i}", "type": kind, "polygon": ring if s > 0 else ring[::-1]})
    return out


def position(
    terrain: list[dict[str, Any]], width: float, height: float, at: tuple[float, float]
) -> dict[str, Any]:
    unit = {
        "side": "P1",
        "type": "mech",
        "move": 12,
        "base": {"shape": "circle", "diameter": 1.25},
        "facing": 0,
    }
    return {
        "system": "aod",
        "table": {"width": width, "height": height, "options": {}},
        "terrain": terrain,
        "units": [
            {**unit, "id": "M1", "position": list(at)},
            {**unit, "id": "M2", "side": "P2", "position": [width - 1, 1]},
        ],
        "state": {},
    }


def within(seconds: float) -> Any:
    """The server's deadline where the engine has one; none before issue 21."""
    limit = getattr(rules, "deadline", None)
    return contextlib.nullcontext() if limit is None else limit(seconds)


def forget_maps() -> None:
    """Forget the maps read so far (a map nobody has read yet), where the engine keeps them."""
    try:
        from rules.model.map_geometry import MAPS
    except ImportError:
        return
    MAPS.clear()


def preview(raw: dict[str, Any], drop: list[float]) -> dict[str, Any]:
    """What the server computes for one preview with reach: the position parsed, the
    verdict with dice unresolved, the reach within its deadline."""
    state = rules.state_from_json(raw)
    action = {"unit": "M1", "type": "move", "path": [drop]}
    rules.validate(state, action, rules.make_dice(unresolved=True))
    with within(REACH_DEADLINE):
        return reach_answer(state, Action("M1", "move"))


def median_ms(
    call: Callable[[], Any], before: Callable[[], Any] = lambda: None
) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(RUNS):
        before()
        t0 = time.thread_time()
        result = call()
        times.append(time.thread_time() - t0)
    return statistics.median(times) * 1e3, result


@contextlib.contextmanager
def row(name: str, figures: dict[str, float]) -> Iterator[dict[str, Any]]:
    out: dict[str, Any] = {}
    yield out
    figures[name] = round(out["ms"], 1)
    print(f"{name:<46} {out['ms']:8.1f} ms   {out.get('said', '')}", flush=True)


def said(answer: dict[str, Any]) -> str:
    return "complete" if answer["complete"] else f'cut short, exact to {answer["horizon"]}"'


def measure(
    label: str,
    terrain: list[dict[str, Any]],
    width: float,
    height: float,
    at: tuple[float, float],
    drop: list[float],
    figures: dict[str, float],
) -> None:
    raw = position(terrain, width, height, at)
    size = len(json.dumps(terrain, separators=(",", ":")))
    corners = sum(len(t["polygon"]) for t in terrain)
    print(
        f"-- {label}: {len(terrain)} features, {corners} corners, {size / 1000:.1f} kB, "
        f'{width:g}" x {height:g}"'
    )
    moved = iter(range(10**6))
    raws: list[dict[str, Any]] = []  # a fresh copy per run, made outside the timing

    def copy() -> None:
        raws.append(json.loads(json.dumps(raw)))

    def after_fiat() -> None:
        # A new position: the same terrain, M2 moved by a fiat (a new dict, as read
        # from the database at a new sequence number).
        copy()
        k = next(moved)
        raws[-1]["units"][1]["position"] = [width - 1 - (k % 50) * 0.01, 1]

    with row(f"{label}: cold", figures) as r:
        r["ms"], answer = median_ms(
            lambda: preview(raws.pop(), drop), lambda: (forget_maps(), copy())
        )
        r["said"] = said(answer)
    preview(raw, drop)
    with row(f"{label}: fiat", figures) as r:
        r["ms"], answer = median_ms(lambda: preview(raws.pop(), drop), after_fiat)
        r["said"] = said(answer)

    def fresh_state() -> Any:
        return rules.state_from_json(json.loads(json.dumps(raw)))

    states: list[Any] = []  # a parsed position per run, parsed outside the timing

    def reach_alone() -> dict[str, Any]:
        with within(REACH_DEADLINE):
            return reach_answer(states.pop(), Action("M1", "move"))

    def alternative_alone() -> dict[str, Any]:
        state = states.pop()
        action = rules.action_from_json({"unit": "M1", "type": "move", "path": [drop]}, state)
        with within(ALTERNATIVE_DEADLINE):
            return alternative_answer(state, action, legal=False)

    with row(f"{label}: reach", figures) as r:
        r["ms"], answer = median_ms(reach_alone, lambda: states.append(fresh_state()))
        r["said"] = said(answer)
    with row(f"{label}: alternative", figures) as r:
        r["ms"], answer = median_ms(alternative_alone, lambda: states.append(fresh_state()))
        found = answer["alternative"]
        r["said"] = "none" if found is None else f'off by {found["off_by"]}"'


def main() -> None:
    figures: dict[str, float] = {}
    w, h = 183.0, 52.0
    attack = walls("elevated", 45, 200, w, h)
    measure("attack, 45 x 200", attack, w, h, (3.5, 26.0), [20.0, 26.0], figures)
    measure(
        "elevated combs, 2 x 62", combs("elevated"), 40.0, 35.0, (11.2, 17.0), [20.0, 17.0], figures
    )
    limits = tuple(int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else _limits()
    if limits is not None:
        features, corners, each = limits
        count = min(features, corners // each)
        lw = 1.0 + count * 4.0 + 2
        lh = min(0.5 + 0.5 * (each // 2 - 1) + 3, 240.0)
        worst = walls("elevated", count, each, lw, lh)
        measure(
            f"at the limits, {count} x {each}",
            worst,
            lw,
            lh,
            (3.5, lh / 2),
            [20.0, lh / 2],
            figures,
        )
    print(json.dumps(figures))


def _limits() -> tuple[int, int, int] | None:
    """The web side's map limits (features, corners in all, corners a feature), where it
    has them (tabletop/services/maps.py, issue 21)."""
    try:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
        django.setup()
        from tabletop.services import maps
    except Exception:  # noqa: BLE001 (no Django here: the engine alone is measured)
        return None
    if not hasattr(maps, "MAX_CORNERS"):
        return None
    return maps.MAX_FEATURES, maps.MAX_CORNERS, maps.MAX_FEATURE_CORNERS


if __name__ == "__main__":
    main()
