"""A command's broadcast never holds up a process that is stopping.

Found by the deployment test: a process told to stop (SIGTERM) while a table command
was broadcasting its event never exited by itself: the command's database thread
waited for ever for the stopped event loop (`deliver` in tabletop/events.py). The wait
is bounded now; the event is committed either way and clients get it from the log
(docs/protocol.md, Delivery guarantees).
"""

import asyncio
import os
import threading
import time

from asgiref.sync import SyncToAsync

from tabletop import events

MESSAGE = {"type": "table.event", "seq": 1, "at": "2026-01-01T00:00:00Z", "text": "{}"}


def deliver_from_a_database_thread(loop: asyncio.AbstractEventLoop) -> threading.Thread:
    """Calls `deliver` as a command does: from a `sync_to_async` thread of `loop`'s server."""

    def command_thread() -> None:
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        events.deliver([(events.players_group(1), MESSAGE)])

    thread = threading.Thread(target=command_thread, daemon=True)
    thread.start()
    return thread


def test_a_broadcast_after_the_event_loop_stopped_returns_at_once():
    loop = asyncio.new_event_loop()  # as the server's loop after SIGTERM: stopped, not closed
    try:
        thread = deliver_from_a_database_thread(loop)
        thread.join(timeout=3)
        assert not thread.is_alive(), "deliver waits for a stopped event loop"
    finally:
        loop.close()


def test_a_broadcast_the_loop_stops_before_running_gives_up_after_the_timeout(monkeypatch):
    monkeypatch.setattr(events, "DELIVER_TIMEOUT_S", 0.5)
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    # The loop is still running while the command commits, then stops (SIGTERM) before
    # it gets to the broadcast.
    loop.call_soon_threadsafe(time.sleep, 0.3)
    loop.call_soon_threadsafe(loop.stop)
    while not loop.is_running():
        time.sleep(0.01)
    started = time.monotonic()
    thread = deliver_from_a_database_thread(loop)
    thread.join(timeout=3)
    assert not thread.is_alive(), "deliver waits for ever for a loop that stopped"
    assert time.monotonic() - started < 2
    runner.join(timeout=3)
    loop.close()
