"""Idle sockets' pings batched per process (tabletop/table_socket/batches.py): the pings
that fall due in one window share one statement of each kind (presence rows, rights, the
logs' last seq), and each socket still gets its own outcome: a pong, a close for rights it
lost, the error its own read met."""

import asyncio
import threading

import pytest
from django.db.backends.utils import CursorWrapper

from tabletop import consumers
from tabletop.models import Membership, Role
from tabletop.services.table import rights
from tabletop.table_socket import batches, presence
from tests.live.conftest import make_table, seat
from tests.live.helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def statements(monkeypatch):
    """The SQL statements run from here on, in any thread."""
    run: list[str] = []
    real = CursorWrapper._execute

    def counted(self, sql, params, *ignored_wrappers):
        run.append(sql)
        return real(self, sql, params, *ignored_wrappers)

    monkeypatch.setattr(CursorWrapper, "_execute", counted)
    return run


@pytest.fixture
def every_ping_reads_everything(monkeypatch):
    """Each ping keeps its presence row and reads its rights again, as the board's 25 s
    pings each do; the window long enough that a loaded test machine delivers all the
    pings sent at once within it."""
    monkeypatch.setattr(consumers, "PING_RECHECK_S", 1e-9)
    monkeypatch.setattr(presence, "PRESENCE_REFRESH_S", 1e-9)
    monkeypatch.setattr(batches, "WINDOW_S", 0.5)


@pytest.fixture
async def two_tables(transactional_db):
    tables = [await seat(*await make_table(prefix)) for prefix in ("a", "b")]
    while presence._announcements:  # who is here, told once the sockets opened
        await asyncio.sleep(0.05)
    yield tables
    for table in tables:
        await table.leave()


async def _ping_all(sockets) -> None:
    await asyncio.gather(*(socket.send({"type": "ping"}) for socket in sockets))


def _kinds(run: list[str]) -> list[str]:
    """The statements of the ping's three reads, by kind (another socket's leaving, or
    who is here told, may come meanwhile)."""
    kinds = []
    for sql in run:
        if sql.startswith("UPDATE") and "tableconnection" in sql:
            kinds.append("presence")
        elif "session_data" in sql:
            kinds.append("rights")
        elif '"last_seq"' in sql and "tabletop_battle" in sql:
            kinds.append("last seq")
    return sorted(kinds)


async def test_the_pings_of_one_window_make_one_statement_of_each_kind(
    two_tables, statements, every_ping_reads_everything
):
    sockets = [s for table in two_tables for s in table.sockets]
    statements.clear()
    await _ping_all(sockets)
    for socket in sockets:
        assert (await socket.get("pong"))["type"] == "pong"
    # 8 sockets at 2 battles: one at a time, 24 statements.
    assert _kinds(statements) == ["last seq", "presence", "rights"]


def _demote(user_id: int) -> None:
    """A role changed without its notice (a queryset update sends no signal): only the
    socket's own read of its rights can find it."""
    Membership.objects.filter(user_id=user_id).update(role=Role.SPECTATOR)


async def test_a_seat_lost_is_closed_by_its_ping_in_a_batch_and_the_others_pong(
    two_tables, statements, every_ping_reads_everything
):
    first, second = two_tables
    await in_thread(_demote)(first.users["p2"].pk)
    statements.clear()
    sockets = [s for table in two_tables for s in table.sockets]
    await _ping_all(sockets)
    assert await first.p2.closed_with() == rights.CLOSE_RIGHTS_CHANGED
    for socket in sockets:
        if socket is not first.p2:
            assert (await socket.get("pong"))["type"] == "pong"
    assert _kinds(statements) == ["last seq", "presence", "rights"]


async def test_a_read_that_fails_fails_its_own_socket_only(
    two_tables, statements, every_ping_reads_everything, monkeypatch
):
    """The batched read fails (here: on one seat's row); each socket's read is then run
    alone, and only the socket whose own read fails is answered with the error."""
    first, second = two_tables
    failing = first.users["p1"].pk
    real = rights._rights_of

    def rights_of(seat, user):
        if seat.user_id == failing:
            raise RuntimeError("this seat's row cannot be read")
        return real(seat, user)

    monkeypatch.setattr(rights, "_rights_of", rights_of)
    statements.clear()
    sockets = [s for table in two_tables for s in table.sockets]
    await _ping_all(sockets)
    refused = await first.p1.get("error", "pong")
    assert (refused["type"], refused["code"]) == ("error", "server_error")
    for socket in sockets:
        if socket is not first.p1:
            assert (await socket.get("pong"))["type"] == "pong"
    # The rights read once for all, then for each socket alone; the other kinds batched.
    assert _kinds(statements) == ["last seq", "presence", *["rights"] * (1 + len(sockets))]


# -- the batches themselves --------------------------------------------------------------


class Reads:
    """A stand-in for a kind of read: the keys read together, each batch's."""

    def __init__(self, failing: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.batches: list[list[str]] = []
        self.failing = failing

    def one(self, key: str) -> str:
        self.batches.append([key])
        if key in self.failing:
            raise LookupError(key)
        return key.upper()

    def many(self, keys: list[str]) -> list[str]:
        self.batches.append(list(keys))
        if self.failing & set(keys):
            raise LookupError(keys)
        return [key.upper() for key in keys]


async def test_a_call_whose_socket_closed_before_its_batch_is_left_out(monkeypatch):
    monkeypatch.setattr(batches, "WINDOW_S", 0.2)
    reads = Reads()
    batched = batches.Batched(reads.one, reads.many)
    staying = asyncio.ensure_future(batched("a", urgent=False))
    leaving = asyncio.ensure_future(batched("b", urgent=False))
    shared = asyncio.ensure_future(batched("a", urgent=False))
    await asyncio.sleep(0.05)
    leaving.cancel()
    assert await staying == "A" and await shared == "A"
    assert leaving.cancelled()
    assert reads.batches == [["a"]]


async def test_calls_while_a_batch_runs_wait_for_the_next_one_together():
    """The database thread busy with one batch: the calls meanwhile make one batch after
    it, however long it takes, not one each."""
    reads = Reads()
    busy, running = threading.Event(), threading.Event()

    def slow_one(key: str) -> str:
        running.set()
        busy.wait(5)
        return reads.one(key)

    batched = batches.Batched(slow_one, reads.many)
    first = asyncio.ensure_future(batched("a", urgent=False))
    # Its batch runs (not a fixed sleep: on a loaded machine the loop may not have closed
    # the first window yet when a sleep of two windows ends).
    assert await asyncio.to_thread(running.wait, 5)
    later = []
    for key in "bcd":
        later.append(asyncio.ensure_future(batched(key, urgent=False)))
        await asyncio.sleep(batches.WINDOW_S * 2)  # each past the window of the one before
    busy.set()
    assert await first == "A"
    assert await asyncio.gather(*later) == ["B", "C", "D"]
    assert reads.batches == [["a"], ["b", "c", "d"]]


async def test_a_failing_batch_gives_each_call_its_own_outcome():
    reads = Reads(failing={"b"})
    batched = batches.Batched(reads.one, reads.many)
    outcomes = await asyncio.gather(
        *(batched(key, urgent=False) for key in "abc"), return_exceptions=True
    )
    assert outcomes[0] == "A" and outcomes[2] == "C"
    assert isinstance(outcomes[1], LookupError)
    assert reads.batches == [["a", "b", "c"], ["a"], ["b"], ["c"]]


async def test_an_urgent_call_closes_its_window_at_once_taking_the_others_along(monkeypatch):
    """A frame's own read (a resume, a notice of changed rights) waits for no window; the
    periodic reads waiting in it go with it."""
    monkeypatch.setattr(batches, "WINDOW_S", 30.0)
    reads = Reads()
    batched = batches.Batched(reads.one, reads.many)
    periodic = asyncio.ensure_future(batched("a", urgent=False))
    await asyncio.sleep(0.01)
    assert await asyncio.wait_for(batched("b", urgent=True), 5) == "B"
    assert await periodic == "A"
    assert reads.batches == [["a", "b"]]
