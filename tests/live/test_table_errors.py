"""Every error code of the live table: an error frame, nothing changed, the socket still usable."""

import json

import pytest

from tabletop import limits
from tabletop.models import Event
from tabletop.services.table import act as act_service
from tests.live.conftest import move
from tests.live.helpers import in_thread, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

BAD_FRAMES = [
    ("bad_json", "{not json"),
    ("bad_json", "[" * 5000 + "]" * 5000),
    ("not_an_object", "[1, 2]"),
    ("unknown_type", '{"type": "teleport"}'),
    ("unknown_type", '{"kind": "act"}'),
    ("malformed", '{"type": "act", "id": "m-1", "seen": 0}'),
    ("malformed", '{"type": "ping", "extra": 1}'),
    ("malformed", '{"type": "act", "id": "bad id!", "seen": 0, "action": {}}'),
    ("malformed", '{"type": "act", "id": "m-1", "seen": 0.5, "action": {}}'),
    ("malformed", '{"type": "chat", "id": "c-1", "text": "   "}'),
    ("malformed", '{"type": "preview", "action": {"unit": "U1", "type": "move", "path": [[1]]}}'),
    ("bad_number", '{"type": "fiat", "id": "g", "unit": "U1", "position": [NaN, 1]}'),
    ("bad_number", '{"type": "fiat", "id": "g", "unit": "U1", "position": [Infinity, 1]}'),
    ("bad_number", '{"type": "fiat", "id": "g", "unit": "U1", "position": [1e999, 1]}'),
    ("bad_number", '{"type": "fiat", "id": "g", "unit": "U1", "position": [1e9, 1]}'),
    ("bad_number", '{"type": "resume", "seq": -1}'),
    ("bad_number", '{"type": "resume", "seq": 123456789012345678901234567890}'),
    ("bad_number", '{"type": "roll", "id": "r", "dice": 1000, "sides": 6}'),
    ("frame_too_large", json.dumps({"type": "chat", "id": "c", "text": "x" * 20000})),
]


@in_thread
def event_count(battle_id: int) -> int:
    return Event.objects.filter(battle_id=battle_id).count()


@pytest.mark.parametrize("code, text", BAD_FRAMES)
async def test_a_bad_frame_gets_an_error_with_its_code_and_the_socket_stays_usable(
    table, code, text
):
    await table.p1.send_text(text)
    error = await table.p1.get("error")
    assert error["code"] == code, error
    await table.p1.send({"type": "ping"})
    assert (await table.p1.get("pong"))["type"] == "pong"
    assert await event_count(table.battle.id) == 0


async def test_a_binary_frame_is_refused_as_not_text(table):
    await table.p1.io.send_to(bytes_data=b"\x00\x01")
    assert (await table.p1.get("error"))["code"] == "not_text"


async def test_a_path_longer_than_the_cap_is_refused(table):
    path = [[1.5, 1.5 + i * 0.01] for i in range(limits.PATH_STEPS + 1)]
    action = {"unit": table.u1, "type": "move", "path": path}
    await table.p1.send({"type": "act", "id": "m-1", "seen": 0, "action": action})
    error = await table.p1.get("error")
    assert (error["code"], error["ref"]) == ("too_many_steps", "m-1")


async def test_an_action_the_engine_cannot_read_is_malformed(table):
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": {"unit": table.u1, "type": "fly"}}
    )
    error = await table.p1.get("error")
    assert error["code"] == "malformed"
    assert error["field"].startswith("action")


@pytest.mark.parametrize(
    "who, frame",
    [
        (
            "spectator",
            {"type": "act", "id": "m-1", "seen": 0, "action": {"unit": "U", "type": "move"}},
        ),
        ("spectator", {"type": "preview", "action": {"unit": "U", "type": "move"}}),
        ("spectator", {"type": "roll", "id": "r-1", "dice": 1, "sides": 6}),
        ("p1", {"type": "undo", "id": "g-1", "reason": "I changed my mind"}),
        ("p1", {"type": "fiat", "id": "g-1", "unit": "U", "position": [1, 1]}),
        ("p2", {"type": "set_delay", "id": "g-1", "seconds": 5}),
    ],
)
async def test_a_role_that_may_not_send_a_frame_is_forbidden(table, who, frame):
    socket = getattr(table, who)
    await socket.send(frame)
    assert (await socket.get("error"))["code"] == "forbidden"


async def test_a_server_failure_is_an_error_frame_and_the_socket_survives(table, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(act_service.referee, "judge", broken)
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    error = await table.p1.get("error")
    assert (error["code"], error["ref"]) == ("server_error", "m-1")
    await table.p1.send({"type": "ping"})
    assert (await table.p1.get("pong"))["type"] == "pong"


async def test_frames_beyond_the_rate_are_dropped_with_rate_limited(table):
    for _ in range(limits.BURST + 10):
        await table.p1.send({"type": "ping"})
    codes = []
    for _ in range(limits.BURST + 10):
        frame = await table.p1.get("pong", "error")
        codes.append(frame.get("code", "pong"))
    assert codes.count("pong") >= limits.BURST
    assert "rate_limited" in codes


async def test_a_flood_of_bad_frames_closes_the_socket(table, monkeypatch):
    monkeypatch.setattr(limits, "ABUSE_ERRORS", 5)
    socket = await open_socket(table.battle.id, table.users["p1"])
    for _ in range(limits.ABUSE_ERRORS + 1):
        await socket.send_text("nope")
    closed = await socket.io.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await socket.io.receive_output(timeout=5)
    assert closed["code"] == limits.CLOSE_ABUSE


async def test_a_flood_beyond_the_rate_closes_the_socket(table, monkeypatch):
    monkeypatch.setattr(limits, "ABUSE_DROPS", 5)
    monkeypatch.setattr(limits, "BURST", 2)
    socket = await open_socket(table.battle.id, table.users["p1"])
    for _ in range(limits.BURST + limits.ABUSE_DROPS + 1):
        await socket.send({"type": "ping"})
    closed = await socket.io.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await socket.io.receive_output(timeout=5)
    assert closed["code"] == limits.CLOSE_ABUSE


async def test_a_grossly_oversized_frame_closes_the_socket(table):
    await table.p1.send_text("x" * (limits.ABUSIVE_FRAME_BYTES + 1))
    closed = await table.p1.io.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await table.p1.io.receive_output(timeout=5)
    assert closed["code"] == limits.CLOSE_TOO_LARGE
