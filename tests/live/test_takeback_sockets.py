"""Take-backs over real websockets (a Daphne process, the `websockets` library): asked,
accepted or declined, with the opponent leaving meanwhile, refused to whoever may not
answer, and seen in order by a delayed spectator (docs/protocol.md, "Take-backs")."""

import json
import time
import urllib.request

import pytest
from django.contrib.auth import get_user_model

from tabletop.models import Membership, Role
from tests.live.conftest import make_table, move
from tests.live.helpers import event_count, in_thread, session_cookie
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)
DELAY_S = 2
#: How long a client waits for an answer: the machine running the tests may be busy.
PATIENCE_S = 90


class Board(LiveClient):
    """A real websocket client that waits as a board does: patiently, and pinging while
    it waits (a broadcast the busy server dropped comes with the next pong: docs/protocol.md,
    "ping")."""

    async def until(self, test, timeout: float = PATIENCE_S) -> None:
        deadline = time.monotonic() + max(timeout, PATIENCE_S)
        while True:
            try:
                await super().until(test, 2)
                return
            except AssertionError as error:
                if time.monotonic() > deadline or not self.connected:
                    code = None if self.ws is None else self.ws.close_code
                    raise AssertionError(f"{error}; socket closed with {code}") from None
                await self.ws.send('{"type": "ping"}')


async def client(base_url: str, battle, user, name: str) -> LiveClient:
    return (await clients(base_url, battle, {name: user}))[0]


async def clients(base_url: str, battle, users: dict) -> list[LiveClient]:
    """A connected client for each user, by name. Their logins are made first: on SQLite a
    login written while the server writes a socket's presence can find the file locked."""
    cookies = {name: await session_cookie(user) for name, user in users.items()}
    made = []
    for name, cookie in cookies.items():
        c = Board(name, base_url, battle.id, cookie)
        await c.connect()
        await c.until(lambda c=c: any(f["type"] == "snapshot" for f in c.frames))
        made.append(c)
    return made


async def two_players(base_url: str) -> tuple:
    """A new battle, its people, and P1's and P2's players at its table."""
    battle, users = await make_table()
    p1, p2 = await clients(base_url, battle, {r: users[r] for r in ("p1", "p2")})
    return battle, users, p1, p2


def of_kind(c: LiveClient, kind: str) -> list[dict]:
    return [f for f in c.frames if f["type"] == "event" and f["kind"] == kind]


@in_thread
def third_party(battle):
    """A player of the campaign with no side in this battle."""
    user = get_user_model().objects.create_user("p3", password="pw-12345678")
    Membership.objects.create(campaign=battle.campaign, user=user, role=Role.PLAYER)
    return user


def unit_of(battle, side: str) -> str:
    return next(u["id"] for u in battle.state["units"] if u["side"] == side)


async def moves(c: LiveClient, battle, side: str, to: list[float], id: str = "m-1") -> dict:
    """`c` moves `side`'s mech to `to`: the answer."""
    action = move(unit_of(battle, side), to)
    return await c.request({"type": "act", "id": id, "seen": c.seq, "action": action})


async def asks(c: LiveClient, order: int, id: str = "t-1") -> dict:
    return await c.request({"type": "takeback_ask", "id": id, "order": order})


async def test_asked_and_accepted_every_board_is_back_where_it_was(asgi_server):
    battle, users = await make_table()
    gm = await client(asgi_server, battle, users["gm"], "gm")
    assert (await gm.request({"type": "set_delay", "id": "d-1", "seconds": DELAY_S}))["type"] == (
        "ack"
    )
    p1, p2, watcher = await clients(
        asgi_server, battle, {r: users[r] for r in ("p1", "p2", "spectator")}
    )
    u1 = unit_of(battle, "P1")
    before, where = p1.hash, p1.unit(u1)["position"]
    moved = await moves(p1, battle, "P1", [1.5, 4.5])
    assert moved["type"] == "ack"
    assert (await asks(p1, moved["seq"]))["type"] == "ack"
    await p2.until(lambda: bool(of_kind(p2, "takeback")))
    asked = of_kind(p2, "takeback")[0]
    assert (asked["step"], asked["actor"], asked["order"]) == ("asked", "p1", moved["seq"])
    assert asked["unit"] == u1
    accepted = await p2.request(
        {"type": "takeback_answer", "id": "a-1", "request": asked["seq"], "accept": True}
    )
    assert accepted["type"] == "ack"
    for board in (gm, p1, p2):
        await board.at_seq(accepted["seq"])
        assert board.hash == before
        assert board.unit(u1)["position"] == where
    undo = of_kind(p1, "undo")[0]
    assert (undo["undoes"], undo["actor"]) == (moved["seq"], "p2")
    assert undo["takeback"]["step"] == "accepted"
    # The delayed spectator: the same story, in order, each step the delay late.
    await watcher.at_seq(accepted["seq"], timeout=PATIENCE_S)
    seen = [f for f in watcher.frames if f["type"] == "event"]
    assert [f["kind"] for f in seen][-3:] == ["act", "takeback", "undo"]
    assert watcher.hash == before
    # The record: the request and its answer are in the event log file.
    request = urllib.request.Request(
        f"{asgi_server}/battles/{battle.id}/events.jsonl",
        headers={"Cookie": (await session_cookie(users["p1"])).decode()},
    )
    lines = [json.loads(line) for line in urllib.request.urlopen(request).read().splitlines()]
    assert [(e["kind"], e.get("step")) for e in lines][-3:] == [
        ("act", None),
        ("takeback", "asked"),
        ("undo", None),
    ]
    for c in (gm, p1, p2, watcher):
        await c.close()


async def test_a_delayed_spectator_gets_each_step_no_sooner_than_the_delay(asgi_server):
    battle, users = await make_table()
    gm = await client(asgi_server, battle, users["gm"], "gm")
    await gm.request({"type": "set_delay", "id": "d-1", "seconds": DELAY_S})
    p1, p2, watcher = await clients(
        asgi_server, battle, {r: users[r] for r in ("p1", "p2", "spectator")}
    )
    moved = await moves(p1, battle, "P1", [1.5, 4.5])
    asked = await asks(p1, moved["seq"])
    declined = await p2.request(
        {"type": "takeback_answer", "id": "a-1", "request": asked["seq"], "accept": False}
    )
    assert declined["type"] == "ack"
    told = time.monotonic()
    await watcher.at_seq(declined["seq"], timeout=PATIENCE_S)
    assert time.monotonic() - told > DELAY_S / 2  # held back, not sent at once
    steps = [f.get("step") for f in of_kind(watcher, "takeback")]
    assert steps == ["asked", "declined"]
    for c in (gm, p1, p2, watcher):
        await c.close()


async def test_the_opponent_who_left_finds_the_request_on_coming_back(asgi_server):
    battle, users, p1, p2 = await two_players(asgi_server)
    moved = await moves(p1, battle, "P1", [1.5, 4.5])
    await p2.close()  # the opponent's browser closes
    asked = await asks(p1, moved["seq"])
    assert asked["type"] == "ack"
    p2 = await client(asgi_server, battle, users["p2"], "p2 again")
    snapshot = next(f for f in p2.frames if f["type"] == "snapshot")
    assert snapshot["takeback"]["request"]["seq"] == asked["seq"]
    assert snapshot["takeback"]["order"] is None
    declined = await p2.request(
        {"type": "takeback_answer", "id": "a-1", "request": asked["seq"], "accept": False}
    )
    assert declined["type"] == "ack"
    await p1.until(lambda: any(f.get("step") == "declined" for f in of_kind(p1, "takeback")))
    again = await asks(p1, moved["seq"], "t-2")
    assert again["reasons"][0]["message"] == "p2 has declined to take back #1 already."
    for c in (p1, p2):
        await c.close()


async def test_who_may_not_answer_and_bad_frames_change_nothing(asgi_server):
    battle, users = await make_table()
    outsider = await third_party(battle)
    p1, p2, watcher, p3 = await clients(
        asgi_server,
        battle,
        {"p1": users["p1"], "p2": users["p2"], "spectator": users["spectator"], "p3": outsider},
    )
    moved = await moves(p1, battle, "P1", [1.5, 4.5])
    asked = await asks(p1, moved["seq"])
    logged = await event_count(battle.id)
    answer = {"type": "takeback_answer", "request": asked["seq"], "accept": True}
    spectator = await watcher.request({**answer, "id": "s-1"})
    assert (spectator["type"], spectator["code"]) == ("error", "forbidden")
    third = await p3.request({**answer, "id": "x-1"})
    assert third["reasons"][0]["code"] == "not_the_opponent"
    own = await p1.request({**answer, "id": "o-1"})
    assert own["reasons"][0]["message"] == "You asked; your opponent or the game master answers."
    second = await asks(p1, moved["seq"], "t-2")
    assert second["reasons"][0]["code"] == "takeback_pending"
    bad = [
        ({**answer, "id": "b-1", "accept": "yes"}, "malformed"),
        ({**answer, "id": "b-2", "request": -1}, "bad_number"),
        ({**answer, "id": "b-3", "why": "no"}, "malformed"),
        ({"type": "takeback_ask", "id": "b-4"}, "malformed"),
        ({"type": "takeback_withdraw", "id": "b-5\u0000", "request": 2}, "malformed"),
    ]
    for frame, _ in bad:
        await p2.send(frame)
    await p2.until(lambda: sum(f["type"] == "error" for f in p2.frames) >= len(bad))
    assert [f["code"] for f in p2.frames if f["type"] == "error"] == [code for _, code in bad]
    await p2.ws.send('{"type": "takeback_answer", "id": "b-6", "request": NaN, "accept": true}')
    await p2.until(lambda: sum(f["type"] == "error" for f in p2.frames) > len(bad))
    assert [f for f in p2.frames if f["type"] == "error"][-1]["code"] == "bad_number"
    assert await event_count(battle.id) == logged
    # The request still waits, and its opponent may still answer it.
    assert (await p2.request({**answer, "id": "a-1"}))["type"] == "ack"
    for c in (p1, p2, watcher, p3):
        await c.close()


async def test_the_askers_next_order_lets_the_request_lapse_and_a_late_accept_says_so(asgi_server):
    battle, users, p1, p2 = await two_players(asgi_server)
    moved = await moves(p1, battle, "P1", [1.5, 4.5])
    asked = await asks(p1, moved["seq"])
    ended = await p1.request({"type": "end_turn", "id": "e-1", "seen": p1.seq})
    assert ended["type"] == "ack"
    await p2.at_seq(ended["seq"])
    assert of_kind(p2, "turn")[0]["takeback_lapsed"] == asked["seq"]
    late = await p2.request(
        {"type": "takeback_answer", "id": "a-1", "request": asked["seq"], "accept": True}
    )
    assert late["reasons"][0]["message"] == (
        "The table has changed since (#3, p1): the request lapsed."
    )
    # p2 acts; p1's end of turn may no longer be taken back, in p1's words.
    acted = await moves(p2, battle, "P2", [1.5, 28.5], "m-2")
    assert acted["type"] == "ack"
    refused = await asks(p1, ended["seq"], "t-2")
    assert refused["reasons"][0]["message"] == (
        "p2 has acted since (#4); #3 can no longer be taken back."
    )
    for c in (p1, p2):
        await c.close()
