"""Pings and annotations over real websockets, against a running server (issue 23).

One Daphne process on the test database; each person at the table is a `LiveClient`
(the `websockets` library), as a browser would be.
"""

import asyncio
import json
import time

import pytest

from tests.live.conftest import make_table
from tests.live.helpers import event_count, session_cookie
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)

ARROW = {"kind": "arrow", "from": [1.5, 1.5], "to": [1.5, 10]}


async def join(server: str, battle, users: dict, who: str) -> LiveClient:
    client = LiveClient(who, server, battle.id, await session_cookie(users[who]))
    await client.connect()
    await client.until(lambda: any(f["type"] == "snapshot" for f in client.frames))
    return client


async def everyone(server: str) -> tuple:
    battle, users = await make_table()
    clients = {who: await join(server, battle, users, who) for who in users}
    return battle, users, clients


def of_type(client: LiveClient, kind: str) -> list[dict]:
    return [f for f in client.frames if f["type"] == kind]


def events_of(client: LiveClient, kind: str) -> list[dict]:
    return [f for f in of_type(client, "event") if f["kind"] == kind]


async def leave(clients: dict) -> None:
    for client in clients.values():
        await client.close()


async def test_a_ping_reaches_everyone_at_the_table_with_the_pointers_name(asgi_server):
    battle, _, clients = await everyone(asgi_server)
    await clients["p1"].send({"type": "point", "at": [12.5, 20]})
    for client in clients.values():
        await client.until(lambda c=client: of_type(c, "point"))
        assert of_type(client, "point") == [
            {"type": "point", "user": "p1", "role": "player", "at": [12.5, 20]}
        ]
    assert await event_count(battle.id) == 0  # transient: not in the log
    assert of_type(clients["p1"], "error") == []
    await leave(clients)


async def test_pings_are_limited_per_user_whatever_their_sockets(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    second = await join(asgi_server, battle, users, "p1")
    first = clients["p1"]
    for _ in range(2):
        await first.send({"type": "point", "at": [5, 5]})
    await first.until(lambda: len(of_type(first, "point")) == 2)
    # The user's third and fourth, from another socket: the burst is 3 a user, not a socket.
    for _ in range(2):
        await second.send({"type": "point", "at": [5, 5]})
    await second.until(lambda: of_type(second, "error"))
    assert of_type(second, "error") == [
        {"type": "error", "code": "rate_limited", "message": "Too many pings; wait a moment."}
    ]
    p2 = clients["p2"]
    await p2.until(lambda: len(of_type(p2, "point")) >= 3)
    await asyncio.sleep(0.5)
    assert len(of_type(p2, "point")) == 3
    await second.close()
    await leave(clients)


async def test_a_spectator_may_neither_ping_nor_draw_nor_remove(asgi_server):
    battle, _, clients = await everyone(asgi_server)
    answer = await clients["p1"].request({"type": "annotate", "id": "a-1", "shape": ARROW})
    assert answer["type"] == "ack"
    watcher = clients["spectator"]
    await watcher.send({"type": "point", "at": [5, 5]})
    await watcher.send({"type": "annotate", "id": "s-1", "shape": ARROW})
    await watcher.send({"type": "erase", "id": "s-2", "annotation": 1})
    await watcher.until(lambda: len(of_type(watcher, "error")) == 3)
    for error in of_type(watcher, "error"):
        assert error["code"] == "forbidden"
        assert error["message"] == "Spectators watch; they cannot change the table."
        assert error["rule"] == "Who may do what, table rules"
    await asyncio.sleep(0.3)
    assert of_type(clients["p2"], "point") == []
    assert await event_count(battle.id) == 1
    await leave(clients)


#: Frames a client may send wrongly, and the error each gets (code, field).
BAD_FRAMES = [
    ('{"type": "point", "at": [NaN, 3]}', "bad_number", None),
    ('{"type": "point", "at": [Infinity, 3]}', "bad_number", None),
    ('{"type": "point", "at": [1e300, 3]}', "bad_number", "at[0]"),
    ('{"type": "point", "at": [40, 3]}', "off_table", "at"),
    (
        '{"type": "annotate", "id": "b-1",'
        ' "shape": {"kind": "line", "from": [1, NaN], "to": [2, 2]}}',
        "bad_number",
        None,
    ),
    (
        '{"type": "annotate", "id": "b-2",'
        ' "shape": {"kind": "circle", "at": [1, 1], "radius": -2}}',
        "bad_number",
        "shape.radius",
    ),
    (
        json.dumps(
            {
                "type": "annotate",
                "id": "b-3",
                "shape": {"kind": "label", "at": [1, 1], "text": "x" * 61},
            }
        ),
        "malformed",
        "shape.text",
    ),
    (
        json.dumps(
            {
                "type": "annotate",
                "id": "b-4",
                "shape": {"kind": "label", "at": [1, 1], "text": "a\u0000b"},
            }
        ),
        "malformed",
        "shape.text",
    ),
    (
        json.dumps({"type": "annotate", "id": "b-5", "shape": {"kind": "polygon", "at": [1, 1]}}),
        "malformed",
        "shape.kind",
    ),
    (
        json.dumps({"type": "annotate", "id": "b-6", "shape": {"kind": "line", "from": [1, 1]}}),
        "malformed",
        "shape.to",
    ),
    (json.dumps({"type": "erase", "id": "b-7", "annotation": "1"}), "malformed", "annotation"),
]


async def test_bad_input_gets_a_clear_error_and_changes_nothing(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    p1 = clients["p1"]
    for text, _, _ in BAD_FRAMES:
        await p1.ws.send(text)
    await p1.until(lambda: len(of_type(p1, "error")) == len(BAD_FRAMES))
    got = [(e["code"], e.get("field")) for e in of_type(p1, "error")]
    want = [(code, field) for _, code, field in BAD_FRAMES]
    assert [g for g, w in zip(got, want, strict=True) if w[1] is not None] == [
        w for w in want if w[1] is not None
    ]
    assert [code for code, _ in got] == [code for code, _ in want]
    # Readable words, never an exception's text.
    off = of_type(p1, "error")[3]
    assert off["message"] == "(40, 3) is off the table."
    # The rules of the table refuse these with a reason, and spend the id.
    off_table = await p1.request(
        {"type": "annotate", "id": "b-8", "shape": {"kind": "label", "at": [3, 40], "text": "here"}}
    )
    assert [r["code"] for r in off_table["reasons"]] == ["off_table"]
    unknown = await p1.request({"type": "erase", "id": "b-9", "annotation": 7})
    assert [r["message"] for r in unknown["reasons"]] == [
        "There is no annotation #7 on the table (removed already?)."
    ]
    await asyncio.sleep(0.3)
    assert await event_count(battle.id) == 0
    assert of_type(clients["p2"], "point") == [] and events_of(clients["p2"], "annotate") == []
    fresh = await join(asgi_server, battle, users, "p2")
    assert of_type(fresh, "snapshot")[0]["annotations"] == []
    await fresh.close()
    await leave(clients)


async def test_an_annotation_shows_for_everyone_after_a_reload_until_removed(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    answer = await clients["p1"].request({"type": "annotate", "id": "a-1", "shape": ARROW})
    assert answer == {"type": "ack", "id": "a-1", "seq": 1}
    drawn = {"seq": 1, "by": "p1", **ARROW}
    for client in clients.values():
        await client.at_seq(1)
        assert [e["annotation"] for e in events_of(client, "annotate")] == [drawn]
    refused = await clients["p2"].request({"type": "erase", "id": "e-1", "annotation": 1})
    assert refused["type"] == "reject"
    assert [r["code"] for r in refused["reasons"]] == ["not_your_annotation"]
    reloaded = await join(asgi_server, battle, users, "p2")
    assert of_type(reloaded, "snapshot")[0]["annotations"] == [drawn]
    removed = await clients["gm"].request({"type": "erase", "id": "e-2", "annotation": 1})
    assert removed == {"type": "ack", "id": "e-2", "seq": 2}
    await reloaded.at_seq(2)
    assert events_of(reloaded, "erase")[0]["annotation"] == 1
    again = await join(asgi_server, battle, users, "spectator")
    assert of_type(again, "snapshot")[0]["annotations"] == []
    await again.close()
    await reloaded.close()
    await leave(clients)


async def test_a_delayed_spectator_sees_annotations_and_pings_once_the_delay_passes(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    delay = 3
    assert (await clients["gm"].request({"type": "set_delay", "id": "g-1", "seconds": delay}))[
        "type"
    ] == "ack"
    await asyncio.sleep(delay + 0.2)  # the delay event itself is behind the horizon now
    watcher = clients["spectator"]
    await watcher.at_seq(1)
    drawn_at = time.monotonic()
    await clients["p1"].request({"type": "annotate", "id": "a-1", "shape": ARROW})
    await clients["p1"].send({"type": "point", "at": [7, 7]})
    # A spectator arriving now: the annotation is newer than their horizon.
    late = await join(asgi_server, battle, users, "spectator")
    assert of_type(late, "snapshot")[0]["annotations"] == []
    await asyncio.sleep(1)
    assert events_of(watcher, "annotate") == [] and of_type(watcher, "point") == []
    await watcher.until(lambda: events_of(watcher, "annotate") and of_type(watcher, "point"))
    assert time.monotonic() - drawn_at >= delay - 0.5
    await late.until(lambda: events_of(late, "annotate"))
    assert events_of(late, "annotate")[0]["annotation"]["by"] == "p1"
    await late.close()
    await leave(clients)
