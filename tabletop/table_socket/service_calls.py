"""Where a frame's service runs, and the engine's time it is charged: previews and sight
in the engine's threads; on PostgreSQL every other service frame (an act, an end of turn,
a chat line: the frames that write) in threads of its own; on SQLite those in the database
thread (docs/protocol.md, Limits per user)."""

import asyncio
import concurrent.futures
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from django.db import connection

from tabletop import limits, metrics, protocol
from tabletop.services.errors import ServiceError
from tabletop.services.table import engine_budget, rights
from tabletop.services.table.actor import Actor
from tabletop.table_socket.database import db, in_pool
from tabletop.table_socket.dispatch import serve_now

#: Frames whose answer is the rules engine's work, charged to the user's engine budget.
ENGINE_FRAMES = frozenset({"preview", "act", "sight", "roll_result"})
#: Of those, the ones that write nothing: answered in a task of their own, so that the
#: socket's next frames are checked when they arrive.
ENGINE_TASKS = frozenset({"preview", "sight"})
ENGINE_SPENT = "Your share of the rules engine's time is spent; wait a moment."
#: The engine's threads for previews (and sight): a slow judgement holds up neither the
#: event loop nor the database thread that every other table's frames use
#: (docs/protocol.md, Limits per user).
ENGINE_POOL = concurrent.futures.ThreadPoolExecutor(
    max_workers=limits.ENGINE_WORKERS, thread_name_prefix="table-engine"
)
#: The threads that judge and commit acts, and serve every other frame that writes, on
#: PostgreSQL: a queue of their own, so that a move never waits behind previews, however
#: many fill ENGINE_POOL, and no write waits in the one database thread behind
#: the sockets' own reads (a long battle's snapshot), nor they behind it.
ENGINE_ACT_POOL = concurrent.futures.ThreadPoolExecutor(
    max_workers=limits.ACT_WORKERS, thread_name_prefix="table-act"
)


# The engine's threads share the GIL with the event loop: a judgement running there makes
# the loop wait up to the switch interval each time it takes the GIL back (a ping needs
# it several times). Python's default is 5 ms; 1 ms keeps other tables' frames quick.
sys.setswitchinterval(min(sys.getswitchinterval(), 0.001))

#: (the user's actor now or the code to close with, the answer or the refusal)
Served = tuple[Actor | int, dict[str, Any] | ServiceError | None]


def engine_thread(
    fn: Callable, pool: concurrent.futures.ThreadPoolExecutor = ENGINE_POOL
) -> Callable:
    """`fn` run in one of the engine's pools, its database connection handled as Channels
    does for its own database thread (closed when old)."""
    return in_pool(fn, pool)


def timed_serve(
    frame: protocol.Frame, *, battle_id: int, user: rights.Seat
) -> tuple[float, Actor | int, dict[str, Any] | ServiceError | None]:
    """`serve_now`, and the CPU milliseconds it took in this thread: the engine's time,
    which the user's budget is charged (not the time spent waiting, for the battle row's
    lock or the database, which costs the process nothing)."""
    started = time.thread_time()
    actor, answer = serve_now(frame, battle_id=battle_id, user=user)
    return (time.thread_time() - started) * 1000, actor, answer


def engine_pool(frame_type: str) -> concurrent.futures.ThreadPoolExecutor | None:
    """Where a service frame is served: previews (and sight) always in ENGINE_POOL. The
    others write (acts, ends of turn, chat, dice...): on PostgreSQL the battle row's lock
    orders them from any thread, and they have their own pool, so that the database
    thread is left to the sockets' own short reads (rights, pings, presence, snapshots);
    SQLite has no such lock, and one writer thread (the database thread, None here) keeps
    them in order. Either way no act queues behind a preview."""
    if frame_type in ENGINE_TASKS:
        return ENGINE_POOL
    return ENGINE_ACT_POOL if connection.vendor == "postgresql" else None


class ServiceCalls:
    """One socket's calls of services, for a user whose limits are `user`."""

    def __init__(self, seat: rights.Seat, battle_id: int, user: limits.UserLimits) -> None:
        self.seat = seat
        self.battle_id = battle_id
        self.user = user
        #: Engine frames answered in tasks of their own (ENGINE_TASKS), while they run.
        self.tasks: set[asyncio.Future] = set()

    def in_a_task(self, answer: Coroutine[Any, Any, None]) -> None:
        """Answers a frame in a task of its own (ENGINE_TASKS), kept until done."""
        task = asyncio.ensure_future(answer)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def reserve(self, frame: protocol.Frame) -> float | None:
        """The engine time reserved for the frame (charged before the work), or
        None when the user's balance cannot hold it. A preview counts as in flight from
        here, so that one arriving while the reservation is asked for is refused."""
        if frame.type in ENGINE_TASKS:
            self.user.engine_jobs += 1
        reserved = await engine_budget.reserve(self.seat.user_id)
        if reserved is None and frame.type in ENGINE_TASKS:
            self.user.engine_jobs -= 1
        return reserved

    async def serve(self, frame: protocol.Frame, *, reserved: float | None = None) -> Served:
        """Runs the frame's service. Engine work (`reserved` ms of the user's engine time
        taken for it) is timed, and the reservation settled with what it cost."""
        pool = engine_pool(frame.type)
        runner = db(timed_serve) if pool is None else engine_thread(timed_serve, pool)
        spent = 0.0
        try:
            spent, now, answer = await runner(frame, battle_id=self.battle_id, user=self.seat)
        finally:
            if frame.type in ENGINE_TASKS:
                self.user.engine_jobs -= 1
            if reserved is not None:
                metrics.ENGINE_SECONDS.labels(frame.type).observe(spent / 1000)
                await engine_budget.settle(self.seat.user_id, reserved=reserved, spent=spent)
        return now, answer
