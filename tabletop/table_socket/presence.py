"""A socket's presence at its table: its place under the user's cap of sockets
(services/table/sockets.py) and its row in who is here (services/table/presence.py),
and the table told who is here."""

import asyncio
import time

from tabletop import events
from tabletop.services.table import presence, sockets
from tabletop.services.table.actor import Actor
from tabletop.table_socket import batches
from tabletop.table_socket.database import db

#: How often a busy socket refreshes its presence row (the timeout is 90 s).
PRESENCE_REFRESH_S = 20.0
PRESENCE_COALESCE_S = 0.25
#: (event loop, battle id) with an announcement pending in this process; the tasks.
_announcing: set[tuple[asyncio.AbstractEventLoop, int]] = set()
_announcements: set[asyncio.Future] = set()


def announce_presence(battle_id: int) -> None:
    """Tells the table who is here, soon: joins and leaves in a burst (200 spectators
    arriving for a final) make one announcement per process, not one each."""
    key = (asyncio.get_running_loop(), battle_id)
    if key in _announcing:
        return
    _announcing.add(key)

    async def announce() -> None:
        await asyncio.sleep(PRESENCE_COALESCE_S)
        _announcing.discard(key)
        rows = await db(presence.present)(key[1])
        await events.send_presence(key[1], events.presence(rows))

    _announcements.add(task := asyncio.ensure_future(announce()))
    task.add_done_callback(_announcements.discard)


#: Seconds between tries to give a place back while Redis does not answer: a place left
#: taken keeps the user's next socket out until it lapses (sockets.PLACE_TTL_S, 90 s).
RELEASE_RETRIES_S = (0.5, 2.0, 8.0, 30.0)
_giving_back: set[asyncio.Future] = set()


async def _give_back(battle_id: int, user_id: int, channel_name: str) -> None:
    """Gives a socket's place back; when Redis fails, tries again in the background (the
    socket's consumer is ending), until the place would have lapsed anyway."""
    try:
        await sockets.release(battle_id, user_id, channel_name)
        return
    except events.LAYER_ERRORS as error:
        events.layer_failed(error)

    async def again() -> None:
        for wait in RELEASE_RETRIES_S:
            await asyncio.sleep(wait)
            try:
                await sockets.release(battle_id, user_id, channel_name)
                return
            except events.LAYER_ERRORS as error:
                events.layer_failed(error)
        # Given up: the place lapses by itself, or is given back at the process's exit.

    _giving_back.add(task := asyncio.ensure_future(again()))
    task.add_done_callback(_giving_back.discard)


class TablePresence:
    """One socket's place and presence row at battle `battle_id`."""

    def __init__(self, battle_id: int, user_id: int, channel_name: str) -> None:
        self.battle_id = battle_id
        self.user_id = user_id
        self.channel_name = channel_name
        #: The claim of the place, once made (True: taken).
        self.claiming: asyncio.Future[bool] | None = None
        self.touched = time.monotonic()

    async def claim(self) -> bool:
        """A place under the user's cap, taken atomically (raises events.LAYER_ERRORS)."""
        # A task, shielded: a socket cancelled while its claim is under way (the server
        # ends a consumer whose client left) must know whether it took the place, to give
        # it back (`release`); a claim cut off midway may have taken it unseen.
        self.claiming = asyncio.ensure_future(
            sockets.claim(self.battle_id, self.user_id, self.channel_name)
        )
        placed = await asyncio.shield(self.claiming)
        self.touched = time.monotonic()
        return placed

    async def release(self) -> None:
        """Gives the place back, if the claim took it (waiting for a claim under way)."""
        claiming, self.claiming = self.claiming, None
        if claiming is None:
            return
        try:
            taken = await claiming
        except events.LAYER_ERRORS:
            taken = True  # it may have timed out after taking the place: give it back
        if taken:
            await _give_back(self.battle_id, self.user_id, self.channel_name)

    async def arrived(self, actor: Actor) -> None:
        """The socket's row says who it is (again, when its rights changed)."""
        await db(presence.connection_open)(
            battle_id=self.battle_id, actor=actor, channel_name=self.channel_name
        )

    async def refresh(self, *, urgent: bool = True) -> None:
        """Keeps a busy socket's row and place from timing out (`urgent`: at once, not
        in a window shared with other sockets: batches.py)."""
        if time.monotonic() - self.touched > PRESENCE_REFRESH_S:
            self.touched = time.monotonic()
            await batches.connection_seen(self.channel_name, urgent=urgent)
            try:
                await sockets.keep(self.battle_id, self.user_id, self.channel_name)
            except events.LAYER_ERRORS as error:
                events.layer_failed(error)

    async def left(self) -> None:
        await db(presence.connection_close)(channel_name=self.channel_name)
