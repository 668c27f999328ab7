"""Fixtures shared by the whole suite: the real services, and a running ASGI server.

With REQUIRE_SERVICES=1 (CI) a missing PostgreSQL, Redis or Chromium is a failure;
elsewhere the tests that need one are skipped with the reason.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

#: The hashers of the product's settings, as the servers the tests start have them.
PRODUCT_PASSWORD_HASHERS = list(django_settings.PASSWORD_HASHERS)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _own_redis_database_per_worker() -> None:
    """Under pytest-xdist (make test runs the suite in workers) each worker has its own
    test database (pytest-django's suffix) and here its own Redis database: the next
    numbers after REDIS_URL's. Otherwise two workers' battles with the same id would
    share a table's channel group, and their users with the same id the account limits.
    Django has read REDIS_URL by now but made no layer or cache yet; the Daphne
    processes a test starts read the new URL from the environment."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("REDIS_URL", "")
    if not (worker.startswith("gw") and url):
        return
    from urllib.parse import urlsplit, urlunsplit

    from django.conf import settings

    from tabletop.settings import redis_channel_layer

    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + 1 + int(worker.removeprefix("gw"))
    url = urlunsplit(parts._replace(path=f"/{database}"))
    os.environ["REDIS_URL"] = url
    settings.REDIS_URL = url
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url, settings.REDIS_LAYER)}
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}


_own_redis_database_per_worker()


def _flush_retried_on_deadlock() -> None:
    """After a test that used committed data (transactional_db, every `asgi_server`
    test) Django empties the database with one TRUNCATE of all tables, which takes their
    locks one after another. The module's Daphne may still be finishing a closed socket's
    work (releasing its place, its presence) in a transaction that holds one table and
    wants another: PostgreSQL then ends the deadlock by failing one side, and when that
    is the TRUNCATE the next test finds the last one's users. The TRUNCATE runs in a
    transaction, so it is tried again (the server's side has finished by then)."""
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.utils import OperationalError

    flush = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        for attempt in range(FLUSH_ATTEMPTS):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                deadlock = getattr(error.__cause__, "sqlstate", None) == "40P01"
                if not deadlock or attempt == FLUSH_ATTEMPTS - 1:
                    raise
                FLUSH_RETRIES.append(str(error))
                time.sleep(0.2 * (attempt + 1))

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]


#: How often the flush is tried, and the deadlocks it met (tests/web/test_flush_retry.py).
FLUSH_ATTEMPTS = 5
FLUSH_RETRIES: list[str] = []

_flush_retried_on_deadlock()


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "") in {"1", "true", "yes"}


def need(what: str, available: bool, why: str) -> None:
    """Skips the test when `what` is missing, or fails it when services are required."""
    if available:
        return
    message = f"{what} is not available: {why}"
    if services_required():
        pytest.fail(message + " (REQUIRE_SERVICES=1)")
    pytest.skip(message)


#: What a shell sets by itself; not the file's.
_SHELL_OWN = {"PWD", "OLDPWD", "SHLVL", "_"}


def documented_environment() -> dict[str, str]:
    """docs/deploy/tabletop.env as the docs' commands read it: sourced by a shell
    (`set -a; . tabletop.env`), which stops at a line it cannot parse (an unquoted `<`
    or space), so a file the docs cannot use fails here. systemd's EnvironmentFile reads
    the same values (it removes the quotes too)."""
    path = ROOT / "docs" / "deploy" / "tabletop.env"
    sourced = subprocess.run(
        ["env", "-i", "bash", "-c", 'set -a; . "$1" || exit 1; env -0', "-", str(path)],
        capture_output=True,
        text=True,
    )
    assert sourced.returncode == 0 and not sourced.stderr, (
        f"a shell cannot source {path}: {sourced.stderr}"
    )
    pairs = (entry.partition("=") for entry in sourced.stdout.split("\0") if entry)
    return {name: value for name, _, value in pairs if name not in _SHELL_OWN}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's PBKDF2 at one iteration, for the users a test makes for a server in
    another process to sign in: that server (the product's hashers) verifies the hash by
    the iterations written in it, and upgrades it at a sign-in as it would an old one.
    The real count cost half a second of CPU for each user, four for each table."""

    iterations = 1


#: For tests whose users sign in at a server in another process: the quick hasher makes
#: new hashes, the product's verify them.
QUICK_PASSWORD_HASHERS = ["tests.conftest.QuickPBKDF2PasswordHasher", *PRODUCT_PASSWORD_HASHERS]


@pytest.fixture
def redis_url() -> str:
    """The Redis the channel layer should use; needs REDIS_URL and a live server."""
    url = os.environ.get("REDIS_URL", "")
    need("Redis", bool(url), "REDIS_URL is not set")
    import redis

    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError as error:
        need("Redis", False, f"{url} does not answer ({error})")
    return url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    need("Chromium", Path(CHROMIUM).exists() or bool(shutil.which("chromium")), CHROMIUM)
    return CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))


def _database_url_of_test_db() -> str:
    """A DATABASE_URL for the test database pytest-django created, for other processes."""
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "postgresql":
        user = db.get("USER") or "postgres"
        host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
        return f"postgres://{user}@{host}:{port}/{db['NAME']}"
    return f"sqlite:///{db['NAME']}"


def start_asgi_server(
    port: int,
    extra_env: dict[str, str] | None = None,
    daphne_options: tuple[str, ...] = (),
    app: str = "tabletop.asgi:application",
) -> subprocess.Popen:
    """Starts Daphne serving `app` (the product's) on `port`, sharing the test database."""
    # Not the leave some browser tests give their own sync calls (tests/browser): the
    # server keeps Django's check that no request or consumer touches the database
    # from its event loop.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {
        **inherited,
        "DATABASE_URL": _database_url_of_test_db(),
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
        **(extra_env or {}),
    }
    # A file, not a pipe nobody reads: a server that logs 64 KB would block on it.
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            *daphne_options,
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            app,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    process.log = log  # type: ignore[attr-defined]
    # 60 s: three test workers and a clean-machine install share two cores in CI.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited: {server_log(process)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("daphne did not start listening within 60 s")


def server_log(process: subprocess.Popen, tail: int = 4000) -> str:
    """The end of what the server wrote to stderr."""
    log = process.log  # type: ignore[attr-defined]
    log.seek(0)
    return log.read().decode(errors="replace")[-tail:]


def stop_asgi_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    # Shown with a failing test's captured output, so that a hang can be read.
    if log := server_log(process):
        sys.stderr.write(f"--- daphne :{process.args[-2]} stderr (end) ---\n{log}\n")
    process.log.close()  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def module_asgi_server(django_db_setup: None) -> Iterator[subprocess.Popen]:
    """One Daphne process for a test module's tests that ask for `asgi_server`: starting
    one (Django, the engine, shapely) took most of a browser test's time on a loaded CI
    machine. It keeps nothing a test could see: the database is emptied after each test
    (transactional_db) without resetting its ids, so a later test's battles and users are
    new to the process's per-battle and per-user state, as the Redis database is."""
    process = start_asgi_server(free_port())
    try:
        yield process
    finally:
        stop_asgi_server(process)


@pytest.fixture
def asgi_server(transactional_db: None, module_asgi_server: subprocess.Popen) -> Iterator[str]:
    """A real Daphne process serving the app on the test database; yields its base URL.

    Data a test creates must be committed (this fixture implies transactional_db). The
    process is the module's (module_asgi_server); what it wrote to stderr during the test
    is shown with a failing test's output.
    """
    process = module_asgi_server
    if process.poll() is not None:
        raise RuntimeError(f"the module's daphne exited: {server_log(process)}")
    # Read with pread: the file's offset is the server's too (its stderr), a seek would
    # move where it writes.
    log = process.log.fileno()  # type: ignore[attr-defined]
    start = os.fstat(log).st_size
    try:
        yield f"http://127.0.0.1:{process.args[-2]}"
    finally:
        end = os.fstat(log).st_size
        if written := os.pread(log, end - start, start).decode(errors="replace")[-4000:]:
            sys.stderr.write(f"--- daphne :{process.args[-2]} stderr (this test) ---\n{written}\n")
