"""A websocket's text frame written to its TCP socket at once, as asyncio's own transports
write, instead of on the event loop's next turn.

Daphne hands each frame to autobahn, which frames it and hands it to Twisted's transport.
Twisted only buffers it and registers the socket with the event loop for writing (an
epoll_ctl), writes it when the loop next polls and finds the socket writable, then
unregisters it (epoll_ctl again). A broadcast to 200 spectators was therefore 400 epoll_ctl
calls, 200 readiness callbacks through Twisted's logging context and 200 passes through
autobahn's framing (which formats a debug line's arguments for every write whether or
not it is logged): in a profile at 200 spectators, nearly twice the time of the send() calls
themselves (docs/benchmarks.md, "Fan-out to 200 (session 35)").

Here a text frame whose socket has nothing waiting in Twisted's buffer is framed as autobahn
frames it (final, unmasked, uncompressed: the same bytes) and given to the kernel with one
send(). What the kernel does not take at once goes to Twisted's buffer as before, and
anything sent later queues behind it there, so frames keep their order. Every other case
(compression negotiated, a TLS transport, a frame already waiting, a closing socket, a
send that fails) takes Daphne's own path, unchanged.
"""

import contextlib
import logging
import struct
from typing import Any

from channels.sessions import InstanceSessionWrapper
from twisted.internet import tcp

#: An unfragmented text frame's first byte: FIN, no RSV bits, opcode 1 (RFC 6455, 5.2).
_FINAL_TEXT = 0x81

_installed = False

logger = logging.getLogger(__name__)


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame of `payload` (a server's frame, RFC 6455, 5.2): the
    length in 7 bits, or 126 and 16 bits, or 127 and 64 bits."""
    size = len(payload)
    if size <= 125:
        header = struct.pack("!BB", _FINAL_TEXT, size)
    elif size <= 0xFFFF:
        header = struct.pack("!BBH", _FINAL_TEXT, 126, size)
    else:
        header = struct.pack("!BBQ", _FINAL_TEXT, 127, size)
    return header + payload


def _frames_plainly(protocol: Any, size: int) -> bool:
    """Would autobahn write this message as one plain frame, now, with nothing before it?"""
    return (
        protocol.state == protocol.STATE_OPEN
        and protocol.send_state == protocol.SEND_STATE_GROUND
        and protocol._perMessageCompress is None
        and not protocol.send_queue
        and not protocol.maskServerFrames
        and not (protocol.autoFragmentSize and size > protocol.autoFragmentSize)
        and not (protocol.maxMessagePayloadSize and size > protocol.maxMessagePayloadSize)
        and not (protocol.logFrames or protocol.logOctets or protocol.trackedTimings)
    )


def _idle_tcp(transport: Any) -> bool:
    """Is `transport` a plain Twisted TCP connection, open, with nothing waiting to be
    written? (Its producer, Daphne's HTTP channel, is paused only when the buffer grows:
    what the kernel does not take goes to the buffer through `write`, which sees to it.)"""
    return bool(
        isinstance(transport, tcp.Connection)
        and type(transport).writeSomeData is tcp.Connection.writeSomeData
        and not getattr(transport, "TLS", False)
        and transport.connected
        and not transport.disconnecting
        and not transport._writeDisconnected
        and not transport._tempDataBuffer
        and transport.offset == len(transport.dataBuffer)
    )


def write_text(protocol: Any, text: str) -> bool:
    """Writes `text` as a frame on `protocol` (an autobahn server protocol on Twisted) at
    once; False, having written nothing, where it must take autobahn's own way."""
    payload = text.encode("utf8")
    transport = protocol.transport
    if not (_frames_plainly(protocol, len(payload)) and _idle_tcp(transport)):
        return False
    frame = text_frame(payload)
    socket_send, buffer_write = transport.socket.send, transport.write
    try:
        sent = socket_send(frame)
    except OSError:
        # Full, or the connection failing: Twisted writes it, or finds the failure and
        # closes the connection, in its own way.
        sent = 0
    if sent < len(frame):
        buffer_write(frame[sent:])
    # Autobahn's counts, as its own write keeps them; the frame is gone, so nothing here
    # may send the caller to Daphne's way (a second copy of it).
    with contextlib.suppress(AttributeError):
        stats = protocol.trafficStats
        stats.outgoingWebSocketMessages += 1
        stats.outgoingWebSocketFrames += 1
        stats.outgoingOctetsAppLevel += len(payload)
        stats.outgoingOctetsWebSocketLevel += len(payload)
        stats.outgoingOctetsWireLevel += len(frame)
    return True


def past_session_wrapper(send: Any) -> Any:
    """The send that Channels' session middleware wraps (`send` itself if none does): the
    wrapper saves the session before an HTTP response and does nothing for a websocket
    frame but read the session's state, on every frame of every socket."""
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper):
        return wrapper.real_send
    return send


class FallingBack:
    """Daphne's `serverSend` with text frames written by `write_text` first.

    What `write_text` reads of autobahn and Twisted is theirs, not public: an upgrade that
    renames any of it turns this way off for the process (logged once) and every frame
    takes Daphne's own way, never an error on a socket (tests/live/test_frame_writes.py
    fails then, saying so)."""

    def __init__(self, daphne_send: Any) -> None:
        self.daphne_send = daphne_send
        self.usable = True

    def send(self, protocol: Any, content: Any, binary: bool = False) -> None:
        if self.usable and not binary:
            try:
                if write_text(protocol, content):
                    return
            except AttributeError:
                self.usable = False
                logger.warning("frame_writes: off, Daphne writes every frame", exc_info=True)
        self.daphne_send(protocol, content, binary)


def install() -> None:
    """Makes Daphne's websocket protocol write text frames through `write_text` (once; in
    the server process, before it accepts a connection)."""
    global _installed
    if _installed:
        return
    from daphne.ws_protocol import WebSocketProtocol

    sends = FallingBack(WebSocketProtocol.serverSend)

    def serverSend(self: Any, content: Any, binary: bool = False) -> None:
        sends.send(self, content, binary)

    serverSend.__doc__ = sends.daphne_send.__doc__
    WebSocketProtocol.serverSend = serverSend
    _installed = True
