"""What an idle socket's ping costs the server (docs/protocol.md, "Rights on an open
socket"): its rights read again and the log's last seq looked up in SQL that Django's
ORM built once for the thread, not on every frame; its place kept in one Redis command
on the process's own connection, not a new connection and three commands.

The outcomes themselves (a role changed, a session ended, a place lapsed) are the other
live tests'; these check that the cheaper way reads exactly the same.
"""

import asyncio

import pytest
import redis
import redis.asyncio.client
import redis.asyncio.connection
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from tabletop import consumers, limits
from tabletop.models import TableConnection
from tabletop.services.table import engine_budget, rights, sockets
from tabletop.services.table.actor import Actor
from tabletop.table_socket import presence
from tests.live.helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def compilations(monkeypatch):
    """The SQL compilations of Django's ORM from here on, in any thread."""
    made: list[str] = []
    real = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        made.append(self.query.model.__name__ if self.query.model else "?")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    return made


def _last_seen(battle_id: int) -> list:
    return sorted(TableConnection.objects.filter(battle_id=battle_id).values_list("last_seen"))


async def test_a_ping_that_reads_the_rights_and_keeps_the_row_builds_no_sql(
    table, compilations, monkeypatch
):
    # Every ping reads the rights again and refreshes the socket's presence row.
    monkeypatch.setattr(consumers, "PING_RECHECK_S", 1e-9)
    monkeypatch.setattr(presence, "PRESENCE_REFRESH_S", 1e-9)
    await table.p1.send({"type": "ping"})  # the thread's first read builds its SQL
    await table.p1.get("pong")
    seen = await in_thread(_last_seen)(table.battle.id)
    while presence._announcements:  # who is here, told once the sockets opened: not a ping's
        await asyncio.sleep(0.05)
    compilations.clear()
    for _ in range(3):
        await table.p1.send({"type": "ping"})
        assert (await table.p1.get("pong"))["type"] == "pong"
    assert compilations == []
    assert await in_thread(_last_seen)(table.battle.id) > seen  # the row was kept


def _same_sql(user_id: int, session_key: str, battle_id: int) -> None:
    now = timezone.now()
    built = rights._seat_query(user_id, session_key, battle_id, now).query.sql_with_params()
    sql, params = rights._SEAT_QUERY.sql_with_params(user_id, session_key, battle_id, now)
    assert (sql, params) == (built[0], list(built[1]))


async def test_the_rights_compiled_once_are_the_query_built_each_time(table):
    """The very SQL and parameters the ORM builds for the seat, whatever the seat."""
    p1 = table.users["p1"]
    await in_thread(_same_sql)(p1.pk, "some-session", table.battle.id)
    await in_thread(_same_sql)(p1.pk + 1000, "", table.battle.id + 7)


def _rights_of_every_kind(table) -> list[Actor | int]:
    store = SessionStore()
    store.create()
    p1 = table.users["p1"]
    session = rights.Seat(p1.pk, store.session_key)
    ended = rights.socket_rights(session, table.battle.id)  # not p1's login
    store[SESSION_KEY] = str(p1.pk)
    store[HASH_SESSION_KEY] = p1.get_session_auth_hash()
    store.save()
    player = rights.socket_rights(session, table.battle.id)
    elsewhere = rights.socket_rights(session, table.battle.id + 1000)  # no such battle
    return [ended, player, elsewhere]


async def test_the_rights_compiled_once_still_read_every_outcome(table):
    ended, player, elsewhere = await in_thread(_rights_of_every_kind)(table)
    assert ended == rights.CLOSE_RIGHTS_CHANGED
    assert isinstance(player, Actor) and player.role == "player"
    assert player.sides == frozenset({"P1"}) and player.name == table.users["p1"].username
    assert elsewhere == limits.CLOSE_FORBIDDEN


async def test_a_place_kept_is_one_redis_command_on_an_open_connection(
    settings, redis_url, monkeypatch
):
    settings.REDIS_URL = redis_url
    key = sockets._key(-3, -3)
    client = redis.Redis.from_url(redis_url)
    client.delete(key)
    assert await sockets.claim(-3, -3, "mine")
    await sockets.keep(-3, -3, "mine")  # the script is known to Redis from here on
    before = client.zscore(key, "mine")
    commands: list[str] = []
    connections: list[object] = []
    real_execute = redis.asyncio.client.Redis.execute_command
    real_connect = redis.asyncio.connection.Connection._connect

    async def execute(self, *args, **options):
        commands.append(str(args[0]))
        return await real_execute(self, *args, **options)

    async def connect(self):
        connections.append(self)
        return await real_connect(self)

    monkeypatch.setattr(redis.asyncio.client.Redis, "execute_command", execute)
    # The TCP connection's own method (AbstractConnection's is overridden): counted there,
    # a new connection would be seen.
    monkeypatch.setattr(redis.asyncio.connection.Connection, "_connect", connect)
    await asyncio.sleep(0.01)  # Redis's clock moves on
    await sockets.keep(-3, -3, "mine")
    assert commands == ["EVALSHA"] and connections == []
    assert client.zscore(key, "mine") > before
    assert 0 < client.ttl(key) <= sockets.PLACE_TTL_S
    # A place that lapsed is not taken again by a refresh.
    await sockets.release(-3, -3, "mine")
    await sockets.keep(-3, -3, "mine")
    assert client.zscore(key, "mine") is None
    client.delete(key)


async def test_an_engine_reservation_opens_no_redis_connection_of_its_own(
    settings, redis_url, monkeypatch
):
    """A move's share of engine time is taken on the connections the sockets' places
    already hold open (tabletop/redis_clients.py), not on a second client's pool."""
    settings.REDIS_URL = redis_url
    try:
        assert await sockets.claim(-4, -4, "mine")  # the loop's client is connected
        connections: list[object] = []
        real_connect = redis.asyncio.connection.Connection._connect

        async def connect(self):
            connections.append(self)
            return await real_connect(self)

        # The TCP connection's own method: AbstractConnection's is overridden.
        monkeypatch.setattr(redis.asyncio.connection.Connection, "_connect", connect)
        reserved = engine_budget.reserve(-4)
        assert await reserved == engine_budget.reservation_ms()
        await engine_budget.settle(-4, reserved=engine_budget.reservation_ms(), spent=1.0)
        assert connections == []
        await sockets.release(-4, -4, "mine")
    finally:
        engine_budget.forget_everyone()
