"""Helpers of the live-table tests: sockets for users, the people seated at a battle,
frames by type, captured events."""

import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from tabletop import events
from tabletop.asgi import application
from tabletop.models import Battle, Event
from tabletop.services.table.position import apply_patch, position_hash

TABLE_KINDS = ("act", "fiat", "undo", "turn")


def session_cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


def in_thread(fn):
    """`fn` for async tests, run in the sync thread, whose database connection is closed
    afterwards (an open one would keep the test database from being dropped)."""

    def call(*args, **kwargs):
        from django.db import connection

        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    return sync_to_async(call)


session_cookie = in_thread(session_cookie_for)


@in_thread
def battle_row(battle_id: int) -> Battle:
    return Battle.objects.get(pk=battle_id)


@in_thread
def event_count(battle_id: int) -> int:
    return Event.objects.filter(battle_id=battle_id).count()


class Mirror:
    """What a browser keeps: the position it has applied, from snapshots and events in order."""

    def __init__(self) -> None:
        self.state: dict = {}
        self.turn: dict = {}
        self.seq = 0
        self.frames: list[dict] = []
        #: Anything a correct server would never cause: a gap, a repeat, a hash that differs.
        self.problems: list[str] = []

    def apply(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.state, self.turn, self.seq = frame["state"], frame["turn"], frame["seq"]
        elif frame["type"] == "event":
            if frame["seq"] != self.seq + 1:
                self.problems.append(f"gap or repeat: {self.seq} -> {frame['seq']}")
            self.seq = frame["seq"]
            if frame["kind"] in TABLE_KINDS:
                self.state, self.turn = apply_patch(self.state, frame)
            if frame["hash"] != self.hash:
                self.problems.append(f"hash differs after {frame['seq']}")

    @property
    def hash(self) -> str:
        return position_hash(self.state, self.turn)

    def unit(self, unit_id: str) -> dict:
        return next(u for u in self.state["units"] if u["id"] == unit_id)


class Socket(Mirror):
    """A test client on the table through Channels' WebsocketCommunicator."""

    def __init__(self, communicator: WebsocketCommunicator):
        super().__init__()
        self.io = communicator
        self.backlog: list[dict] = []

    async def send(self, frame: dict[str, Any]) -> None:
        await self.io.send_to(text_data=json.dumps(frame))

    async def send_text(self, text: str) -> None:
        await self.io.send_to(text_data=text)

    async def next(self, timeout: float = 15) -> dict[str, Any]:
        frame = json.loads(await self.io.receive_from(timeout=timeout))
        self.apply(frame)
        return frame

    async def get(self, *types: str, timeout: float = 15) -> dict[str, Any]:
        """The next frame of one of `types`. Others wait in a backlog for their own `get`,
        except presence frames, which are only kept in `frames`."""
        for i, frame in enumerate(self.backlog):
            if frame["type"] in types:
                return self.backlog.pop(i)
        while True:
            frame = await self.next(timeout)
            if frame["type"] in types:
                return frame
            if frame["type"] != "presence":
                self.backlog.append(frame)

    async def quiet(self, timeout: float = 0.2) -> bool:
        """Whether nothing but presence arrives within `timeout`."""
        while True:
            if await self.io.receive_nothing(timeout=timeout):
                return True
            frame = await self.next()
            if frame["type"] != "presence":
                return False

    def apply(self, frame: dict[str, Any]) -> None:
        super().apply(frame)
        assert not self.problems, self.problems

    async def closed_with(self, timeout: float = 5) -> int:
        """The code the server closes the socket with, waiting up to `timeout` for it;
        the frames before it are kept (`frames`) as they arrive."""
        while True:
            output = await self.io.receive_output(timeout=timeout)
            if output["type"] == "websocket.close":
                return int(output["code"])
            self.apply(json.loads(output["text"]))

    async def close(self) -> None:
        await self.io.disconnect()


async def unconnected(
    battle_id: int, user, query: str = "", cookie: bytes | None = None
) -> WebsocketCommunicator:
    """A communicator to the battle's table as `user` (a new login session of theirs, or
    the one of `cookie`), not connected yet."""
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", cookie or await session_cookie(user)),
    ]
    path = f"/ws/battles/{battle_id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)


async def table_communicator(
    battle_id: int, user, query: str = "", timeout: float = 5, cookie: bytes | None = None
) -> WebsocketCommunicator:
    """A communicator connected to the battle's table as `user`, no frame read yet. The
    handshake is waited for up to `timeout` (it must come: a second was too short for a
    worker's first socket on a loaded CI machine)."""
    communicator = await unconnected(battle_id, user, query, cookie)
    connected, code = await communicator.connect(timeout=timeout)
    assert connected, code
    return communicator


async def refused_with(
    battle_id: int, user, query: str = "", cookie: bytes | None = None
) -> int | None:
    """The code a new socket of `user` at the table is closed with before any frame
    (refused at the handshake, or accepted and closed), or None when it got a frame."""
    communicator = await unconnected(battle_id, user, query, cookie)
    connected, code = await communicator.connect(timeout=5)
    if not connected:
        return int(code)
    output = await communicator.receive_output(timeout=5)
    await communicator.disconnect()
    return int(output["code"]) if output["type"] == "websocket.close" else None


async def open_socket(battle_id: int, user, query: str = "", cookie: bytes | None = None) -> Socket:
    """A connected socket for `user`, with its hello and first snapshot (or resume) read."""
    socket = Socket(await table_communicator(battle_id, user, query, cookie=cookie))
    hello = await socket.get("hello")
    socket.hello = hello
    if not query:
        await socket.get("snapshot")
    return socket


@dataclass
class Seats:
    """A battle with a socket for each of its people: the GM, P1, P2 and a spectator."""

    battle: Any
    users: dict
    gm: Socket
    p1: Socket
    p2: Socket
    spectator: Socket

    @property
    def sockets(self) -> list[Socket]:
        return [self.gm, self.p1, self.p2, self.spectator]

    async def leave(self) -> None:
        for socket in self.sockets:
            await socket.close()


async def open_sockets(battle, users: dict) -> dict[str, Socket]:
    """A socket for each of `users` (by role) at `battle`."""
    return {role: await open_socket(battle.id, users[role]) for role in users}


@dataclass
class NamedTable(Seats):
    """Seats at a battle whose pieces the tests call by name: `ids` gives their unit ids."""

    ids: dict


@contextlib.asynccontextmanager
async def seated_by_name(battle, users: dict) -> AsyncIterator[NamedTable]:
    """Everyone at `battle`, its pieces by name (the factories' unit labels); they leave
    the table afterwards."""
    ids = {label["name"]: unit_id for unit_id, label in battle.unit_labels.items()}
    table = NamedTable(battle, users, ids=ids, **await open_sockets(battle, users))
    try:
        yield table
    finally:
        await table.leave()


@contextlib.contextmanager
def captured_events() -> Iterator[list[tuple[str, dict]]]:
    """What the services would send to the channel layer, instead of sending it."""
    sent: list[tuple[str, dict]] = []
    original = events.deliver
    events.deliver = sent.extend
    try:
        yield sent
    finally:
        events.deliver = original


def assert_beside_the_rules(battle, actor, action: dict, add_and_remove: Callable[[], Any]):
    """`add_and_remove()` (drawings, markers: what lies beside the rules) leaves the
    engine's position, the hash, `action`'s preview verdict and its act's verdict as they
    were; an order that saw none of it is not stale. Returns the act's event payload."""
    from tabletop.services.table import log
    from tabletop.services.table.act import battle_act
    from tabletop.services.table.preview import battle_preview

    before = Battle.objects.get(pk=battle.id)
    verdict_before = battle_preview(battle_id=battle.id, actor=actor, action=action)
    with captured_events() as sent:
        add_and_remove()
    after = Battle.objects.get(pk=battle.id)
    assert (after.state, after.turn_state) == (before.state, before.turn_state)
    hashes = {json.loads(message["text"])["hash"] for _, message in sent}
    assert hashes == {log.snapshot(battle.id)[0]["hash"]}
    verdict_after = battle_preview(battle_id=battle.id, actor=actor, action=action)
    assert verdict_after["verdict"] == verdict_before["verdict"]
    with captured_events():
        reply = battle_act(
            battle_id=battle.id, actor=actor, client_msg_id="order-1", seen=0, action=action
        )
    assert reply["type"] == "ack"
    moved = Event.objects.get(battle=battle, kind="act").payload
    assert moved["verdict"] == verdict_before["verdict"]
    return moved
