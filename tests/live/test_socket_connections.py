"""A socket's database work keeps its threads' connections, whatever CONN_MAX_AGE says
(tabletop/table_socket/database.py): with the deploy's CONN_MAX_AGE=0 (docs/deploy/
tabletop.env) every chat line, move, rights re-read and presence refresh of a socket
opened a database connection and closed it, and PostgreSQL started a backend process for
each. Counted with PostgreSQL's own count of sessions, against a real Daphne."""

import psycopg
import pytest
from django.db import connection

from tabletop import limits
from tests.conftest import (
    _database_url_of_test_db,
    free_port,
    need,
    start_asgi_server,
    stop_asgi_server,
)
from tests.live.conftest import make_table, move
from tests.live.helpers import session_cookie
from tests.live.wsclient import LiveClient

pytestmark = pytest.mark.django_db(transaction=True)


def sessions_begun() -> int:
    """Sessions PostgreSQL has begun on the test database (pg_stat_database, 14 and
    later), read on a connection of its own (counted too: one a read)."""
    with psycopg.connect(_database_url_of_test_db(), autocommit=True) as own:
        own.execute("SELECT pg_stat_clear_snapshot()")
        row = own.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0])


async def test_a_sockets_frames_open_no_connection_each_on_the_deploys_conn_max_age(redis_url):
    need("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL is not PostgreSQL")
    env = {"REDIS_URL": redis_url, "CONN_MAX_AGE": "0", "TABLE_FRAMES_PER_S": "1000"}
    server = start_asgi_server(port := free_port(), env)
    try:
        battle, users = await make_table()
        unit = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
        p1 = LiveClient(
            "p1", f"http://127.0.0.1:{port}", battle.id, await session_cookie(users["p1"])
        )
        await p1.connect()
        await p1.until(lambda: any(f["type"] == "snapshot" for f in p1.frames))
        before = sessions_begun()
        for n in range(11):
            answer = await p1.request({"type": "chat", "id": f"c-{n}", "text": f"line {n}"})
            assert answer["type"] == "ack"
        answer = await p1.request(
            {"type": "act", "id": "m-1", "seen": p1.seq, "action": move(unit, [1.5, 6.5])}
        )
        assert answer["type"] == "ack"
        begun = sessions_begun() - before - 1  # the count's own read
        await p1.close()
    finally:
        stop_asgi_server(server)
    # At most one for each of the socket's threads (the database thread and the two
    # pools'); twelve frames began twelve or more before.
    assert begun <= 1 + limits.ENGINE_WORKERS + limits.ACT_WORKERS, begun
