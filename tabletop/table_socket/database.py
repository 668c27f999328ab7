"""The table socket's database calls, and the connections its threads keep.

A socket's database work runs in a few threads that live as long as the process:
Channels' database thread (`db`: presence, rights, snapshots, takebacks) and the
engine's two pools (service_calls.ENGINE_POOL, ENGINE_ACT_POOL: previews and acts),
1 + TABLE_ENGINE_WORKERS + TABLE_ACT_WORKERS threads in all. With the deploy's
CONN_MAX_AGE=0 (right for Django's views, each run in a thread of its own request:
docs/deploy/README.md, "Connections and sizing") every one of those calls opened a
database connection and closed it again: PostgreSQL starts a backend process for each,
a few milliseconds of both sides' CPU (4.6 ms of wall time on loopback with trust
authentication, the act's statement itself 1-2 ms), on every move, rights re-read and
presence refresh of every socket. These threads keep theirs for KEPT_S instead (Django's
health check still runs before a kept connection is used again), which bounds a
process's connections to those threads' number.
"""

import time
from collections.abc import Callable
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.db import connections

#: Seconds a socket thread's connection is kept, however short CONN_MAX_AGE is.
KEPT_S = 60.0


def keep_connections() -> None:
    """This thread's open connections closed no sooner than KEPT_S after they opened (a
    kept one is not kept longer: it is made again now and then, as CONN_MAX_AGE does)."""
    for connection in connections.all(initialized_only=True):
        opened = connection.connection
        if opened is None or getattr(connection, "kept_connection", None) is opened:
            continue
        connection.kept_connection = opened  # type: ignore[attr-defined]
        if connection.close_at is not None:
            connection.close_at = max(connection.close_at, time.monotonic() + KEPT_S)


def db(fn: Callable) -> Callable:
    """`fn` run in the database thread (as channels.db.database_sync_to_async)."""
    return DatabaseSyncToAsync(_call_keeping(fn))


def in_pool(fn: Callable, pool: Any) -> Callable:
    """`fn` run in one of the engine's pools, its connection handled as the database
    thread's."""
    return DatabaseSyncToAsync(_call_keeping(fn), thread_sensitive=False, executor=pool)


def _call_keeping(fn: Callable) -> Callable:
    """`fn`, then its thread's connections kept: before DatabaseSyncToAsync closes the
    old ones as the call ends."""

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            keep_connections()

    return call
