"""How bench/validate.py and bench/validate_apskirmish.py time the rules engine: one loop
for validate() and one for reach(), whatever the system's board.

Times are thread CPU time, the fastest of REPEATS runs of each call: the machine is
shared, and the fastest run is the engine's cost without interference.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from rules import GameState, reach, validate
from rules.engine.dice import make_dice

REPEATS = 7


def fastest(call: Callable[[Any], Any], fresh: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of REPEATS runs of `call(fresh())` in seconds (`fresh()` untimed), and
    the last run's result."""
    best = math.inf
    result = None
    for _ in range(REPEATS):
        arg = fresh()
        t0 = time.thread_time()
        result = call(arg)
        best = min(best, time.thread_time() - t0)
    return best, result


def time_validate(
    state: GameState,
    make: Callable[[random.Random, Any], dict[str, Any]],
    *,
    seed: int | str,
    n: int = 400,
    dice: Callable[[], Any] = lambda: make_dice([6] * 4),
) -> tuple[list[float], list[float]]:
    """validate() of `n` actions `make(rng, unit)`, the units in turn: the times of all
    calls and of the calls whose verdict was legal (us)."""
    rng = random.Random(seed)
    times: list[float] = []
    legal_times: list[float] = []
    for k in range(n):
        action = make(rng, state.units[k % len(state.units)])
        best, verdict = fastest(lambda d, action=action: validate(state, action, d), dice)
        times.append(best * 1e6)
        if verdict.legal:
            legal_times.append(best * 1e6)
    return times, legal_times


def time_reach(
    state: GameState, units: Iterable[Any], kinds: Iterable[str | None] = (None,)
) -> list[float]:
    """reach() of each unit for each action type (None: the system's default) on a fresh
    copy of the state, so that it builds the per-state indexes it caches (ms)."""
    kinds = list(kinds)
    times = []
    for u in units:
        for kind in kinds:
            extra = () if kind is None else (kind,)
            best, _ = fastest(
                lambda s, u=u, extra=extra: reach(s, u.id, *extra), lambda: replace(state)
            )
            times.append(best * 1e3)
    return times


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))
    return xs[k]
