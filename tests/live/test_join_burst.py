"""Sockets of one table that join at once share a snapshot read (a restart brings every
table's sockets back together): the reads on the one database thread do not grow with
the sockets joining, and each socket still gets the table as it is after its join."""

import asyncio

import pytest

from tabletop.services.table import log
from tests.live.helpers import open_socket
from tests.live.test_broadcast_fanout import more_spectators

pytestmark = pytest.mark.django_db(transaction=True)

JOINING = 12


async def test_spectators_joining_at_once_share_snapshot_reads(table, monkeypatch):
    users = await more_spectators(table.battle, JOINING)
    reads: list[int] = []
    real = log.snapshot

    def counted(battle_id, **kwargs):
        reads.append(battle_id)
        return real(battle_id, **kwargs)

    monkeypatch.setattr(log, "snapshot", counted)
    sockets = await asyncio.gather(*(open_socket(table.battle.id, user) for user in users))
    # One read under way when the first asked, and one for all who asked meanwhile (a
    # read already begun may predate their join); a few more if the joins straggle.
    assert len(reads) <= JOINING // 3, reads
    for socket in sockets:
        await socket.close()
