"""A deadline on the engine's searches, as well as their bound by count.

Reach's work is bounded by a count (visibility.py, `Work`), so that its answer is the
same on every machine; but what one visibility test costs grows with the map's corners,
so the count alone does not bound the time. A caller that serves a live table (the
server's referee) sets a deadline around a question; the searches check `expired()` at
the points where they can stop and still say how far their answer is exact (Dijkstra's
horizon, the bands of elevated terrain and contact taken nearest first, the candidates
of an alternative). Without a deadline (the CLI, the golden tests) nothing changes and
every answer is deterministic.

The deadline is a context variable: each thread (the server's engine threads) has its
own, so two questions at once never cut each other short.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: The clock of a deadline: this thread's CPU time. It bounds what a question costs the
#: server, which is what an attacker spends; a busy machine (other threads, other
#: processes) does not cut a question shorter than a quiet one would.
clock = time.thread_time

#: When the current question must stop (`clock()`), or None: no deadline.
_until: ContextVar[float | None] = ContextVar("rules_deadline", default=None)


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, searches stop once this thread has spent `seconds` more of CPU
    time (None: no deadline; a deadline already set outside is kept if it comes sooner)."""
    outer = _until.get()
    until = None if seconds is None else clock() + seconds
    if outer is not None and (until is None or outer < until):
        until = outer
    token = _until.set(until)
    try:
        yield
    finally:
        _until.reset(token)


def expired() -> bool:
    """Whether the current deadline has passed (never, without one)."""
    until = _until.get()
    return until is not None and clock() >= until


def remaining() -> float | None:
    """Seconds left before the current deadline (0 once past it), or None without one."""
    until = _until.get()
    return None if until is None else max(0.0, until - clock())
