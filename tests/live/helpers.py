"""Helpers of the live-table tests: sockets for users, frames by type, captured events."""

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from tabletop import events
from tabletop.asgi import application
from tabletop.services.table.position import apply_patch, position_hash

TABLE_KINDS = ("act", "fiat", "undo", "turn")


def session_cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


session_cookie = sync_to_async(session_cookie_for)


class Socket:
    """A test client on the table: a communicator, and the position it has applied."""

    def __init__(self, communicator: WebsocketCommunicator):
        self.io = communicator
        self.state: dict = {}
        self.turn: dict = {}
        self.seq = 0
        self.frames: list[dict] = []
        self.backlog: list[dict] = []

    async def send(self, frame: dict[str, Any]) -> None:
        await self.io.send_to(text_data=json.dumps(frame))

    async def send_text(self, text: str) -> None:
        await self.io.send_to(text_data=text)

    async def next(self, timeout: float = 5) -> dict[str, Any]:
        frame = json.loads(await self.io.receive_from(timeout=timeout))
        self.apply(frame)
        return frame

    async def get(self, *types: str, timeout: float = 5) -> dict[str, Any]:
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
        """What a browser does with a frame: snapshots and table events change its position."""
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.state, self.turn, self.seq = frame["state"], frame["turn"], frame["seq"]
        elif frame["type"] == "event":
            assert frame["seq"] == self.seq + 1, f"gap or repeat: {self.seq} -> {frame['seq']}"
            self.seq = frame["seq"]
            if frame["kind"] in TABLE_KINDS:
                self.state, self.turn = apply_patch(self.state, frame)

    @property
    def hash(self) -> str:
        return position_hash(self.state, self.turn)

    def unit(self, unit_id: str) -> dict:
        return next(u for u in self.state["units"] if u["id"] == unit_id)

    async def close(self) -> None:
        await self.io.disconnect()


async def open_socket(battle_id: int, user, query: str = "") -> Socket:
    """A connected socket for `user`, with its hello and first snapshot (or resume) read."""
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", await session_cookie(user)),
    ]
    path = f"/ws/battles/{battle_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    assert connected, code
    socket = Socket(communicator)
    hello = await socket.get("hello")
    socket.hello = hello
    if not query:
        await socket.get("snapshot")
    return socket


@contextlib.contextmanager
def captured_events() -> Iterator[list[tuple[str, dict]]]:
    """What the services would send to the channel layer, instead of sending it."""
    sent: list[tuple[str, dict]] = []
    original = events.deliver
    events.deliver = lambda group, message: sent.append((group, message))
    try:
        yield sent
    finally:
        events.deliver = original


async def gather(*aws):
    return await asyncio.gather(*aws)
