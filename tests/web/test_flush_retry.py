"""The database is emptied after a test even when a server's transaction deadlocks
with the emptying (tests/conftest.py `_flush_retried_on_deadlock`).

Seen in CI: a module's Daphne still releasing a closed socket's place while Django's
TRUNCATE took the tables' locks; PostgreSQL failed the TRUNCATE, and the next test met
the last one's users ("duplicate key value violates unique constraint")."""

import re
import threading

import psycopg
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection

from tests import conftest
from tests.conftest import _database_url_of_test_db, need


@pytest.mark.django_db(transaction=True)
def test_a_flush_that_deadlocks_with_another_transaction_is_tried_again() -> None:
    need("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL is not PostgreSQL")
    User.objects.create(username="left-behind")
    statements = sql_flush(no_style(), connection, reset_sequences=False, allow_cascade=False)
    truncate = next(sql for sql in statements if sql.startswith("TRUNCATE"))
    tables = re.findall(r'"([^"]+)"', truncate)
    # The other transaction holds the TRUNCATE's last table and then asks for its first:
    # the TRUNCATE, holding the first and waiting for the last, closes the circle, and
    # PostgreSQL fails it (it waited longest, so its deadlock check runs first).
    first, last = tables[0], tables[-1]
    other = psycopg.connect(_database_url_of_test_db(), autocommit=False)
    other.execute(f'LOCK TABLE "{last}" IN ROW EXCLUSIVE MODE')
    flush_waiting = threading.Event()
    other_done: list[str] = []

    def ask_for_the_first_table() -> None:
        flush_waiting.wait(10)
        try:
            other.execute(f'SELECT count(*) FROM "{first}"').fetchone()
            other_done.append("read")
        except psycopg.errors.DeadlockDetected:
            other_done.append("deadlock")
        finally:
            other.rollback()
            other.close()

    def flush_is_waiting() -> None:
        # Once the TRUNCATE waits for the other transaction's table, the other asks.
        probe = psycopg.connect(_database_url_of_test_db(), autocommit=True)
        try:
            for _ in range(200):
                waiting = probe.execute(
                    "SELECT count(*) FROM pg_locks"
                    " WHERE NOT granted AND mode = 'AccessExclusiveLock'"
                ).fetchone()
                if waiting and waiting[0]:
                    break
                threading.Event().wait(0.02)
        finally:
            probe.close()
            flush_waiting.set()

    retries_before = len(conftest.FLUSH_RETRIES)
    threads = [threading.Thread(target=f) for f in (ask_for_the_first_table, flush_is_waiting)]
    for thread in threads:
        thread.start()
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
    for thread in threads:
        thread.join(10)

    assert other_done == ["read"], "the other transaction should have won the deadlock"
    assert len(conftest.FLUSH_RETRIES) == retries_before + 1
    assert "deadlock" in conftest.FLUSH_RETRIES[-1]
    assert not User.objects.exists()
