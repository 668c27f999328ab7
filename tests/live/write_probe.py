"""The product's ASGI app as a test's Daphne serves it, plus `GET /probe/writers`: how many
times a websocket's TCP socket was registered with the event loop to be written when it
next becomes writable (Twisted's `addWriter`), since the process started.

Started by `start_asgi_server(..., app="tests.live.write_probe:application")`.
"""

from typing import Any

from daphne.ws_protocol import WebSocketProtocol
from twisted.internet.asyncioreactor import AsyncioSelectorReactor

from tabletop.asgi import application as product

registered = 0
_add_writer = AsyncioSelectorReactor.addWriter


def _counting_add_writer(self: Any, writer: Any) -> None:
    global registered
    if isinstance(getattr(writer, "protocol", None), WebSocketProtocol):
        registered += 1
    _add_writer(self, writer)


AsyncioSelectorReactor.addWriter = _counting_add_writer  # type: ignore[method-assign]


async def application(scope: dict, receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope["path"] == "/probe/writers":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(registered).encode()})
        return
    await product(scope, receive, send)
