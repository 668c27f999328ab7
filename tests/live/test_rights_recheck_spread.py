"""When the sockets of one table re-read their rights (docs/protocol.md, "Rights on an
open socket"): sockets that joined together spread their periodic re-reads over the
broadcasts of the interval instead of all reading at the same one, without reading more
often and without any socket going longer than the interval between reads."""

import itertools

from tabletop import consumers
from tabletop.services.table import rights
from tabletop.table_socket import seat_rights

SOCKETS = 200
MOVE_EVERY_S = 10.0  # a move per table every 10 s, as bench/capacity.py plays
WATCHED_S = 240.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _reads_per_broadcast(monkeypatch) -> tuple[list[int], dict[int, list[float]]]:
    """Sockets that joined at one instant, a broadcast every MOVE_EVERY_S: how many
    re-reads each broadcast starts, and when each socket read."""
    clock = Clock()
    monkeypatch.setattr(seat_rights.time, "monotonic", clock.monotonic)
    every = consumers.RIGHTS_RECHECK_S
    sockets = [seat_rights.RightsReads(rights.Seat(n, f"s{n}"), 1) for n in range(SOCKETS)]
    joined = clock.now
    read_at = {n: [joined] for n in range(SOCKETS)}
    per_broadcast = []
    for tick in itertools.count(1):
        clock.now = joined + tick * MOVE_EVERY_S
        if clock.now - joined > WATCHED_S:
            break
        due = [n for n, socket in enumerate(sockets) if socket.due(every)]
        per_broadcast.append(len(due))
        for n in due:
            read_at[n].append(clock.now)
    return per_broadcast, read_at


def test_sockets_that_joined_together_do_not_all_reread_at_one_broadcast(monkeypatch):
    per_broadcast, _ = _reads_per_broadcast(monkeypatch)
    # One in three broadcasts of the interval is each socket's, on average: not all 200 at one.
    assert max(per_broadcast) <= SOCKETS // 2, per_broadcast


def test_spreading_reads_no_more_often_and_never_later_than_the_interval(monkeypatch):
    per_broadcast, read_at = _reads_per_broadcast(monkeypatch)
    every = consumers.RIGHTS_RECHECK_S
    # A revoked seat loses the table within the interval (at the first broadcast past it).
    gaps = [b - a for times in read_at.values() for a, b in itertools.pairwise(times)]
    assert max(gaps) <= every
    # As many reads as one per socket per interval, plus each socket's earlier first one.
    assert sum(per_broadcast) <= SOCKETS * (WATCHED_S // every + 1)
