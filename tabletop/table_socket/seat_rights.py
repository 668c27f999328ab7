"""When an open socket reads its rights again, and whether it keeps its seat
(docs/protocol.md, "Rights on an open socket"; tabletop/services/table/rights.py)."""

import asyncio
import random
import time

from tabletop.services.table import rights
from tabletop.services.table.actor import Actor
from tabletop.table_socket import batches


def kept_actor(current: Actor | None, now: Actor | int) -> Actor | int:
    """The actor the socket goes on as, or the code it is closed with: a new role closes
    it with 4401, and the board reconnects in that role (a demoted player to the
    spectators' delayed stream, from a snapshot of the delay's horizon); one no longer a
    member, or deactivated, is closed with 4403, a login session that ended with 4401
    (`now` is then that code). New sides (a roster given a side) keep the seat."""
    if not isinstance(now, Actor) or now == current:
        return now
    if current is None or now.role != current.role:
        return rights.CLOSE_RIGHTS_CHANGED
    return now


class RightsReads:
    """The reads of one socket's rights, and when the last was.

    The first periodic re-read comes after a random part of the interval, not all of it:
    the sockets of a table that joined together (a restart, a club night) would otherwise
    all read at the same broadcast, every interval, each read queued on the one database
    thread. Later re-reads keep the whole interval, so the number of reads is unchanged
    and each socket keeps its own phase; no read is ever later than the interval."""

    def __init__(self, seat: rights.Seat, battle_id: int) -> None:
        self.seat = seat
        self.battle_id = battle_id
        self.read_at = time.monotonic()
        self.first_part = random.random()
        #: The reads waiting for their batch (`stop`).
        self.reading: set[asyncio.Future] = set()

    def fresh(self, older_than: float) -> bool:
        """The last read is younger than `older_than` seconds (0: never fresh enough)."""
        return bool(older_than) and time.monotonic() - self.read_at < older_than

    def due(self, every: float) -> bool:
        """The last read is `every` seconds old (the first time, this socket's part of it):
        True, and the next one counts as done now."""
        if time.monotonic() - self.read_at < every * self.first_part:
            return False
        self.read_at = time.monotonic()
        self.first_part = 1.0
        return True

    async def read(self, *, urgent: bool = True) -> Actor | int:
        """The socket's actor now, or the code to close it with (batched with the other
        sockets' reads of the moment, `urgent` or in their window: batches.py)."""
        self.read_at = time.monotonic()
        reading = asyncio.ensure_future(
            batches.socket_rights((self.seat, self.battle_id), urgent=urgent)
        )
        self.reading.add(reading)
        try:
            return await reading
        finally:
            self.reading.discard(reading)

    def stop(self) -> None:
        """The socket closed: its reads not run yet are left out of their batch (a read
        under way raises asyncio.CancelledError in its caller)."""
        for reading in list(self.reading):
            reading.cancel()

    def ended(self, message: dict) -> bool:
        """A notice of changed rights names this socket's login session as ended."""
        return bool(message.get("ended_session") == rights.session_digest(self.seat.session_key))
