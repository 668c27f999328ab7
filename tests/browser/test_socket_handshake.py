"""A board whose socket's handshake is never answered tries again, instead of waiting
"connecting" for ever (connection.js, HANDSHAKE_MS).

The board is served through a proxy in front of Daphne that holds the page's first
websocket handshake without a word, as a server or proxy that took the connection and
hung does (a process stopping with the connection in its queue); everything else it
passes through.
"""

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from dataclasses import replace
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import go_to_board, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)


class HangingProxy:
    """Passes connections through to `upstream` (host, port), except the first
    `hang` websocket handshakes, which it takes and never answers."""

    def __init__(self, upstream: tuple[str, int], hang: int) -> None:
        self.upstream = upstream
        self.hang = hang
        self.held: list[asyncio.StreamWriter] = []  # the connections it hangs on to
        self.port = 0
        self.loop: asyncio.AbstractEventLoop
        self.stop: asyncio.Event

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        if b"upgrade: websocket" in head.lower() and self.hang > 0:
            self.hang -= 1
            self.held.append(writer)
            return
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        up_writer.write(head)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    @contextlib.contextmanager
    def running(self) -> Iterator["HangingProxy"]:
        """The proxy, serving in a thread of its own (Playwright's sync API has the
        test's) until the block ends."""
        started = threading.Event()

        async def main() -> None:
            self.loop, self.stop = asyncio.get_running_loop(), asyncio.Event()
            server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            started.set()
            async with server:
                await self.stop.wait()
            for writer in self.held:
                writer.close()

        thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
        thread.start()
        assert started.wait(10)
        try:
            yield self
        finally:
            self.loop.call_soon_threadsafe(self.stop.set)
            thread.join(10)


def test_a_handshake_never_answered_is_tried_again(table, browser):
    daphne = urlsplit(table.base_url)
    with HangingProxy((daphne.hostname, daphne.port), hang=1).running() as proxy:
        # The session cookie is the host's, whatever its port: the proxy's too.
        through_proxy = replace(table, base_url=f"http://127.0.0.1:{proxy.port}")
        page = signed_in_page(browser, through_proxy, "p1")
        try:
            page.set_default_timeout(20_000)  # the first handshake's wait, then the board's
            go_to_board(page, through_proxy)
            assert proxy.hang == 0 and len(proxy.held) == 1  # it did hang the first
        finally:
            page.context.close()
