"""Markers on pieces over real websockets, against a running server (issue 23).

One Daphne process on the test database; each person at the table is a `LiveClient`
(the `websockets` library), as a browser would be.
"""

import asyncio
import json

import pytest

from tests.live.helpers import event_count
from tests.live.test_draw_sockets import events_of, everyone, join, leave, of_type

pytestmark = pytest.mark.django_db(transaction=True)


def pieces(battle) -> dict[str, str]:
    return {s: next(u["id"] for u in battle.state["units"] if u["side"] == s) for s in ("P1", "P2")}


def mark(unit: str, text: str = "pinned", colour: str = "magenta", msg: str = "m-1") -> dict:
    return {"type": "mark", "id": msg, "unit": unit, "text": text, "colour": colour}


async def test_a_marker_shows_for_everyone_after_a_reload_until_removed(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    u1 = pieces(battle)["P1"]
    answer = await clients["p1"].request(mark(u1, "objective", "blue"))
    assert answer == {"type": "ack", "id": "m-1", "seq": 1}
    marker = {"seq": 1, "by": "p1", "unit": u1, "text": "objective", "colour": "blue"}
    for client in clients.values():  # the other player, the GM and the spectator too
        await client.at_seq(1)
        assert [e["marker"] for e in events_of(client, "mark")] == [marker]
    reloaded = await join(asgi_server, battle, users, "p2")
    assert of_type(reloaded, "snapshot")[0]["markers"] == [marker]
    removed = await clients["p1"].request({"type": "unmark", "id": "u-1", "marker": 1})
    assert removed == {"type": "ack", "id": "u-1", "seq": 2}
    await reloaded.at_seq(2)
    assert [(e["marker"], e["unit"]) for e in events_of(reloaded, "unmark")] == [(1, u1)]
    again = await join(asgi_server, battle, users, "spectator")
    assert of_type(again, "snapshot")[0]["markers"] == []
    await again.close()
    await reloaded.close()
    await leave(clients)


async def test_someone_elses_piece_and_a_unit_not_on_the_table_are_refused_in_words(
    asgi_server,
):
    battle, users, clients = await everyone(asgi_server)
    side = pieces(battle)
    theirs = await clients["p2"].request(mark(side["P1"], msg="m-1"))
    assert theirs["type"] == "reject"
    assert [r["code"] for r in theirs["reasons"]] == ["not_your_unit"]
    assert theirs["reasons"][0]["message"].endswith(
        "belongs to P1: only its player or the GM may mark it."
    )
    assert theirs["reasons"][0]["rule"] == "Who moves what, table rules"
    ghost = await clients["gm"].request(mark("ghost", msg="m-2"))
    assert [r["message"] for r in ghost["reasons"]] == ["There is no unit 'ghost' on the table."]
    await asyncio.sleep(0.3)
    assert await event_count(battle.id) == 0
    assert events_of(clients["p1"], "mark") == []
    await leave(clients)


async def test_a_spectator_may_neither_mark_nor_remove(asgi_server):
    battle, _, clients = await everyone(asgi_server)
    u1 = pieces(battle)["P1"]
    assert (await clients["p1"].request(mark(u1)))["type"] == "ack"
    watcher = clients["spectator"]
    await watcher.send(mark(u1, msg="s-1"))
    await watcher.send({"type": "unmark", "id": "s-2", "marker": 1})
    await watcher.until(lambda: len(of_type(watcher, "error")) == 2)
    for error in of_type(watcher, "error"):
        assert error["code"] == "forbidden"
        assert error["message"] == "Spectators watch; they cannot change the table."
    await asyncio.sleep(0.3)
    assert await event_count(battle.id) == 1
    await leave(clients)


#: Frames a client may send wrongly, and the error each gets (code, field, words).
BAD_FRAMES = [
    (
        json.dumps(mark("U1", "x" * 25)),
        "malformed",
        "text",
        "text: a marker is at most 24 characters (25 given)",
    ),
    (json.dumps(mark("U1", "   ")), "malformed", "text", "text: a marker needs a word or two"),
    (
        json.dumps(mark("U1", colour="chartreuse")),
        "malformed",
        "colour",
        "colour: choose a colour of the palette: blue, teal, purple, magenta, brown, slate, "
        "yellow",
    ),
    (json.dumps(mark("U1", colour="#ff0000")), "malformed", "colour", None),
    ('{"type": "mark", "id": "m-1", "unit": "U1", "text": NaN, "colour": "blue"}', None, None,
     None),
    (json.dumps(mark("U1", "a\u0000b")), "malformed", "text", None),
    (json.dumps({**mark("U1"), "at": [1, 2]}), "malformed", "at", None),
    (json.dumps({"type": "mark", "id": "m-1", "text": "pinned", "colour": "blue"}), "malformed",
     "unit", None),
    ('{"type": "unmark", "id": "u-1", "marker": NaN}', "bad_number", None, None),
    (json.dumps({"type": "unmark", "id": "u-1", "marker": "1"}), "malformed", "marker", None),
    (json.dumps(mark("U1", "x" * 20000)), "frame_too_large", None, None),
]  # fmt: skip


async def test_bad_input_gets_a_clear_error_and_changes_nothing(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    p1 = clients["p1"]
    for text, *_ in BAD_FRAMES:
        await p1.ws.send(text)
    await p1.until(lambda: len(of_type(p1, "error")) == len(BAD_FRAMES))
    for error, (text, code, field, words) in zip(of_type(p1, "error"), BAD_FRAMES, strict=True):
        assert error["message"], text
        if code is not None:
            assert error["code"] == code, (text, error)
        if field is not None:
            assert error.get("field") == field, (text, error)
        if words is not None:
            assert error["message"] == words
    await asyncio.sleep(0.3)
    assert await event_count(battle.id) == 0
    assert events_of(clients["p2"], "mark") == []
    fresh = await join(asgi_server, battle, users, "p2")
    assert of_type(fresh, "snapshot")[0]["markers"] == []
    await fresh.close()
    await leave(clients)


async def test_a_delayed_spectator_sees_a_marker_once_the_delay_passes(asgi_server):
    battle, users, clients = await everyone(asgi_server)
    u1 = pieces(battle)["P1"]
    delay = 3
    set_delay = {"type": "set_delay", "id": "g-1", "seconds": delay}
    assert (await clients["gm"].request(set_delay))["type"] == "ack"
    await asyncio.sleep(delay + 0.2)  # the delay event itself is behind the horizon now
    watcher = clients["spectator"]
    await watcher.at_seq(1)
    assert (await clients["p1"].request(mark(u1)))["type"] == "ack"
    # A spectator arriving now: the marker is newer than their horizon.
    late = await join(asgi_server, battle, users, "spectator")
    assert of_type(late, "snapshot")[0]["markers"] == []
    assert events_of(watcher, "mark") == []
    await watcher.until(lambda: events_of(watcher, "mark"))
    await late.until(lambda: events_of(late, "mark"))
    assert events_of(late, "mark")[0]["marker"]["text"] == "pinned"
    await late.close()
    await leave(clients)
