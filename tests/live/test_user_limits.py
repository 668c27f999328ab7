"""Limits per user, not only per socket (docs/protocol.md, "Limits per user"; issue 15).

One spectator's 10 sockets wrote 249 chat lines in 3 s, and 40 `resume` frames from seq
0 (1 KB sent) returned 5.9 MB: every limit was per socket, so more sockets meant more.
Now a user's sockets at a table are capped, and all of them draw on the user's shared
buckets: frames, writes (frames that add an event) and bytes replayed.
"""

import json
import time

import pytest
from channels.testing import WebsocketCommunicator

from tabletop.services.table import chat, limits
from tests.live.helpers import (
    Socket,
    captured_events,
    in_thread,
    open_socket,
    table_communicator,
)
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)


async def close_code(communicator: WebsocketCommunicator) -> int | None:
    """The close code the server sent first, or None when it sent a hello instead."""
    output = await communicator.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        return output["code"]
    return None


async def test_a_users_sockets_at_one_table_are_capped(table):
    """The spectator already has one socket; the next ones up to the cap open, the one
    after is closed with 4409 before any frame."""
    opened = []
    for _ in range(limits.USER_SOCKETS - 1):
        opened.append(await open_socket(table.battle.id, table.users["spectator"]))
    extra = await table_communicator(table.battle.id, table.users["spectator"])
    assert await close_code(extra) == limits.CLOSE_TOO_MANY_SOCKETS
    # Another user is not affected.
    other = await open_socket(table.battle.id, table.users["p2"])
    for socket in [*opened, other]:
        await socket.close()


async def test_one_users_sockets_share_one_write_budget(table):
    """Eight sockets of one spectator send 40 chat lines each at once: the table takes
    what one user's write bucket allows, not eight sockets' worth."""
    sockets = [table.spectator]
    for _ in range(limits.USER_SOCKETS - 1):
        sockets.append(await open_socket(table.battle.id, table.users["spectator"]))
    started = time.monotonic()
    for n in range(40):
        for i, socket in enumerate(sockets):
            await socket.send({"type": "chat", "id": f"c-{i}-{n}", "text": "spam"})
    answers = {"ack": 0, "error": 0}
    for socket in sockets:
        for _ in range(40):
            answer = await socket.get("ack", "error")
            answers[answer["type"]] += 1
            assert answer["type"] == "ack" or answer["code"] == "rate_limited"
    elapsed = time.monotonic() - started
    rates = limits.user_rates()
    allowed = rates["write_burst"] + rates["writes_per_s"] * elapsed + 1
    print(f"\n{answers['ack']} chat lines taken of 320 in {elapsed:.1f} s (allowed {allowed:.0f})")
    assert answers["ack"] <= allowed
    assert answers["ack"] + answers["error"] == 320
    for socket in sockets[1:]:
        await socket.close()


@in_thread
def chat_lines(battle_id: int, count: int) -> None:
    from tabletop.models import Battle

    battle = Battle.objects.get(pk=battle_id)
    p1 = actors(battle)["p1"]
    with captured_events():
        for n in range(count):
            chat.battle_chat(
                battle_id=battle_id, actor=p1, client_msg_id=f"l-{n}", text="a long line " * 20
            )


async def test_resumes_from_seq_0_are_capped_by_the_bytes_they_replay(table, monkeypatch):
    monkeypatch.setattr(limits, "RESUME_BURST_BYTES", 200_000)
    monkeypatch.setattr(limits, "RESUME_BYTES_PER_S", 20_000)
    await chat_lines(table.battle.id, 200)  # ~60 KB to replay from seq 0
    watcher = Socket(await table_communicator(table.battle.id, table.users["spectator"]))
    await watcher.get("hello")
    await watcher.get("snapshot")
    received = 0
    started = time.monotonic()
    for _ in range(40):
        await watcher.send({"type": "resume", "seq": 0})
    answers = {"resumed": 0, "error": 0}
    while sum(answers.values()) < 40:
        text = await watcher.io.receive_from(timeout=15)
        received += len(text)
        frame = json.loads(text)
        if frame["type"] in answers:
            answers[frame["type"]] += 1
            assert frame["type"] == "resumed" or frame["code"] == "rate_limited"
    elapsed = time.monotonic() - started
    one = received / max(1, answers["resumed"])
    print(
        f"\n{answers['resumed']} of 40 resumes answered, {received / 1e6:.2f} MB in {elapsed:.1f} s"
    )
    assert received <= 200_000 + 20_000 * elapsed + one
    assert answers["error"] > 0
    await watcher.close()
