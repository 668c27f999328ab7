"""A table client over a real websocket (the `websockets` library), as a browser would be.

It mirrors the position, answers requests by message id, and after a dropped
connection reconnects with `?seq=` (resume) and resends what was not answered.
"""

import asyncio
import json
import ssl
import time
from typing import Any
from urllib.parse import urlsplit

import websockets

from tests.live.helpers import Mirror


class LiveClient(Mirror):
    #: The TLS context of a wss:// connection (a client behind a TLS proxy sets one).
    tls: ssl.SSLContext | None = None
    #: Where to connect when the URL's host name is not in this machine's DNS (a site
    #: whose domain only the test knows): (address, port); TLS still checks the name.
    address: tuple[str, int] | None = None

    def __init__(self, name: str, base_url: str, battle_id: int, cookie: bytes):
        super().__init__()
        self.name = name
        self.base_url = base_url.replace("https://", "wss://").replace("http://", "ws://")
        self.origin = base_url
        self.battle_id = battle_id
        self.cookie = cookie.decode()
        self.ws: Any = None
        self.reader: asyncio.Task | None = None
        self.answers: dict[str, dict] = {}
        self.pending: dict[str, dict] = {}  # sent, not answered: resent after a reconnect
        self.changed = asyncio.Event()
        self.connected = False

    async def connect(self, resume: bool = False, wait_s: float = 30) -> None:
        url = f"{self.base_url}/ws/battles/{self.battle_id}/"
        if resume:
            url += f"?seq={self.seq}"
        deadline = time.monotonic() + wait_s
        elsewhere: dict[str, Any] = {}
        if self.address is not None:
            host, port = self.address
            elsewhere = {"host": host, "port": port, "server_hostname": urlsplit(url).hostname}
        while True:
            try:
                self.ws = await websockets.connect(
                    url,
                    additional_headers={"Cookie": self.cookie},
                    origin=self.origin,
                    ssl=self.tls,
                    max_size=2**22,
                    open_timeout=5,
                    **elsewhere,
                )
                break
            except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
                assert time.monotonic() < deadline, f"{self.name}: no connection: {error!r}"
                await asyncio.sleep(0.1)
        self.connected = True
        self.reader = asyncio.create_task(self._read())
        for frame in list(self.pending.values()):  # sent, never answered: the same ids again
            await self.ws.send(json.dumps(frame))

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                frame = json.loads(message)
                self.apply(frame)
                key = frame.get("id") or frame.get("ref")
                if frame["type"] in ("ack", "reject", "error", "verdict") and key:
                    self.answers[key] = frame
                    self.pending.pop(key, None)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.connected = False
            self.changed.set()

    async def until(self, test, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not test():
            self.changed.clear()
            left = deadline - time.monotonic()
            assert left > 0, f"{self.name}: timed out at seq {self.seq}"
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    async def send(self, frame: dict[str, Any]) -> None:
        if "id" in frame:
            self.pending[frame["id"]] = frame
        await self.ws.send(json.dumps(frame))

    async def request(self, frame: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        await self.send(frame)
        key = frame.get("id") or frame.get("ref")
        await self.until(lambda: key in self.answers, timeout)
        return self.answers[key]

    async def at_seq(self, seq: int, timeout: float = 20) -> None:
        await self.until(lambda: self.seq >= seq, timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)
