"""The embedded default (SQLite) under the writes of players joining a table together.

Each socket's connection is written from a thread of the sync pool (presence, places,
acts). With SQLite's default deferred transactions, a transaction that read and then
wrote failed at once with "database is locked" when another thread wrote in between,
and the socket closed with 1011 (seen in tests/live/test_draw_sockets.py). This runs the
real settings, as `make run` does, in a process of its own on a fresh SQLite file, so it
runs whatever database the rest of the suite uses.
"""

import subprocess
import sys

from tests.conftest import ROOT

# Sixteen threads, each in one transaction: read the count, let the others read too,
# then write; the deferred mode fails most of them.
WRITERS = r"""
import threading, time
import django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE seats (player INTEGER)")
errors = []

def join(player):
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM seats")
                time.sleep(0.05)
                cursor.execute("INSERT INTO seats VALUES (%s)", [player])
    except Exception as error:
        errors.append(f"{type(error).__name__}: {error}")
    finally:
        connection.close()

threads = [threading.Thread(target=join, args=(n,)) for n in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM seats")
    print(cursor.fetchone()[0], errors)
"""


def test_sixteen_players_writing_at_once_on_sqlite_all_get_their_seat(tmp_path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
    }
    run = subprocess.run(
        [sys.executable, "-c", WRITERS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "16 []"
