"""The documented deployment, for real: Debian's nginx (docs/deploy/nginx.conf) with TLS in
front of two Daphne processes (the systemd unit's command, docs/deploy/tabletop.env) on
PostgreSQL and Redis. Chromium logs in and plays a move through the proxy; a websocket
client keeps acting while each process in turn is restarted, and loses nothing it was
told was done; /readyz reports a Redis that stopped.

Run with `pytest tests/deploy -s` to read the test's account of the deployment.
"""

import asyncio
import gzip
import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.models import Event
from tests.browser.conftest import TIMEOUT_MS, drag_piece, expected_transform, transform
from tests.conftest import free_port, need
from tests.deploy.acting import PASSWORD, check_acts_in_log, rolling_restart
from tests.deploy.stack import (
    DEPLOY_DOCS,
    AsgiProcess,
    Stack,
    get,
    production_environment,
    start_stack,
    unverified_tls,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.deploy]

HASHED = re.compile(r"\.[0-9a-f]{12}\.(js|css)$")


@pytest.fixture
def stack(nginx, postgresql: str, redis_url: str, tmp_path: Path) -> Iterator[Stack]:
    running = start_stack(tmp_path, postgresql, redis_url)
    try:
        yield running
    finally:
        running.stop()


def asset_sizes(static_root: Path, names: list[str]) -> str:
    """The files the board page loaded, as collectstatic wrote them: raw, gzip, brotli."""
    files = [static_root / name for name in names]
    raw = sum(path.stat().st_size for path in files)
    gz = sum(Path(f"{path}.gz").stat().st_size for path in files)
    br = sum(Path(f"{path}.br").stat().st_size for path in files)
    return f"{len(files)} files, {raw:,} bytes; gzip {gz:,} bytes; brotli {br:,} bytes"


def test_chromium_plays_through_nginx_and_a_rolling_restart_loses_no_acknowledged_act(
    stack: Stack, battle_and_people, chromium_path: str
) -> None:
    battle, users = battle_and_people
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    cookies: dict[str, bytes] = {}  # the sessions Chromium got by logging in through nginx

    # -- Chromium: log in over https through nginx, open the board, play a move.
    from playwright.sync_api import expect, sync_playwright

    modules: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        context = browser.new_context(
            ignore_https_errors=True, viewport={"width": 1280, "height": 720}
        )
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        stylesheets: list[str] = []
        page_errors: list[str] = []
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        page.on("console", lambda m: page_errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: modules.append(r.url) if r.url.endswith(".js") else None)
        page.on("request", lambda r: stylesheets.append(r.url) if r.url.endswith(".css") else None)
        page.goto(f"{stack.base_url}/accounts/login/")
        page.fill("#id_username", "d-p1")
        page.fill("#id_password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{stack.base_url}/")
        secure_cookie = next(c for c in context.cookies() if c["name"] == "sessionid")
        stack.say(
            f"chromium logged in as d-p1 at {stack.base_url}/accounts/login/ "
            f"(CSRF origin https, session cookie secure={secure_cookie['secure']})"
        )
        page.goto(f"{stack.base_url}/battles/{battle.pk}/board/")
        try:
            page.wait_for_selector("body[data-ready='1']")
        except Exception as not_ready:
            raise AssertionError(f"the board did not start: {page_errors}") from not_ready
        page.wait_for_selector("#conn[data-state='live']")
        before = transform(page, u1)
        drag_piece(page, u1, 0, 5)
        expect(page.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
        moved = expected_transform(page, u1)
        assert moved != before
        stack.say(f"chromium moved {u1} 5 in over wss through nginx: {before} -> {moved}")

        # The GM invites: behind the proxy the link is https.
        gm = browser.new_context(ignore_https_errors=True)
        gm_page = gm.new_page()
        gm_page.goto(f"{stack.base_url}/accounts/login/")
        gm_page.fill("#id_username", "d-gm")
        gm_page.fill("#id_password", PASSWORD)
        gm_page.click("form button[type=submit]")
        gm_page.wait_for_url(f"{stack.base_url}/")
        gm_page.goto(f"{stack.base_url}/campaigns/{battle.campaign_id}/")
        gm_page.click("text=Create invitation link")
        gm_page.wait_for_selector(".invite-link")
        link = re.search(r"(\w+)://127\.0\.0\.1:\d+/join/[\w-]+/", gm_page.content())
        assert link, gm_page.content()[:3000]
        assert link.group(1) == "https"
        stack.say(f"invitation link through the proxy: {link.group(0)}")
        for role, logged_in in (("p1", context), ("gm", gm)):
            session = next(c["value"] for c in logged_in.cookies() if c["name"] == "sessionid")
            cookies[role] = f"sessionid={session}".encode()
        browser.close()

    names = [url.rsplit("/static/", 1)[-1] for url in modules if "/static/" in url]
    assert names and all(HASHED.search(name) for name in names), names
    assert len(names) == len(set(names)), "a module loaded twice"
    unhashed = [HASHED.sub(r".\1", name) for name in names]
    assert len(unhashed) == len(set(unhashed)), "a module loaded under two names"
    stack.say(f"board page loaded {len(names)} JS modules, each once, all by hashed name")
    styles = sorted({url.rsplit("/static/", 1)[-1] for url in stylesheets})
    stack.say(
        f"board page's assets (its modules and stylesheets) as served: "
        f"{asset_sizes(stack.static_root, names + styles)}"
    )
    # collectstatic minifies what it serves (tabletop/static_storage.py): every served
    # file is smaller than its source, and the board above still played a move with them.
    sources = Path(__file__).resolve().parents[2] / "static"
    larger = [
        n
        for n in names + styles
        if (stack.static_root / n).stat().st_size
        >= (sources / HASHED.sub(r".\1", n)).stat().st_size
    ]
    assert not larger, f"served as large as their sources (not minified): {larger}"

    main_js = next(n for n in names if n.startswith("js/board/main."))
    status, headers, body = get(f"{stack.base_url}/static/{main_js}", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert "immutable" in headers.get("Cache-Control", "")
    assert b'from "./svg.' in gzip.decompress(body)  # its imports name hashed files
    stack.say(
        f"nginx served /static/{main_js}: gzip {len(body):,} bytes, "
        f"Cache-Control: {headers['Cache-Control']}"
    )

    # https only: plain http is redirected, and browsers are told to remember it (HSTS).
    plain = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=10)
    plain.request("GET", "/accounts/login/", headers={"Host": "table.example.org"})
    redirect = plain.getresponse()
    assert redirect.status == 301
    assert redirect.getheader("Location") == "https://table.example.org/accounts/login/"
    plain.close()
    # But a certificate renewal's challenge is answered over plain http, from certbot's
    # webroot (issue 22: it was redirected to https, where Django answers 404, and the
    # site went dark when the certificate expired).
    token = secrets.token_urlsafe(32)
    challenge = stack.acme_webroot / ".well-known" / "acme-challenge"
    challenge.mkdir(parents=True, exist_ok=True)
    (challenge / token).write_text(f"{token}.thumbprint")
    plain = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=10)
    plain.request(
        "GET", f"/.well-known/acme-challenge/{token}", headers={"Host": "table.example.org"}
    )
    answered = plain.getresponse()
    assert (answered.status, answered.read()) == (200, f"{token}.thumbprint".encode())
    plain.request("GET", "/.well-known/acme-challenge/none", headers={"Host": "table.example.org"})
    missing = plain.getresponse()
    assert missing.status == 404  # not redirected: certbot sees the real answer
    missing.read()
    plain.close()
    # Another host name gets no answer at all (444), over http or https: it never reaches
    # the processes (issue 22: an unknown Host was a traceback in their log).
    for stranger in (
        http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=10),
        http.client.HTTPSConnection(
            "127.0.0.1", stack.https_port, timeout=10, context=unverified_tls()
        ),
    ):
        stranger.request("GET", "/accounts/login/", headers={"Host": "evil.example"})
        with pytest.raises(http.client.RemoteDisconnected):
            stranger.getresponse()
        stranger.close()
    status, headers, _ = get(f"{stack.base_url}/accounts/login/")
    assert status == 200
    # An hour, no preload (docs/deploy/tabletop.env): a lapsed certificate locks visitors
    # out for an hour at most.
    assert headers.get("Strict-Transport-Security") == "max-age=3600; includeSubDomains"
    # The app's Content-Security-Policy arrives once: nginx adds none and strips none.
    page = urllib.request.urlopen(
        f"{stack.base_url}/accounts/login/", timeout=10, context=unverified_tls()
    )
    policies = page.headers.get_all("Content-Security-Policy") or []
    page.close()
    assert len(policies) == 1 and "'unsafe-inline'" not in policies[0], policies
    stack.say(
        f"http :{stack.http_port} -> 301 {redirect.getheader('Location')}, "
        f"but /.well-known/acme-challenge/ -> {answered.status} from the webroot; "
        f"https answers Strict-Transport-Security: {headers['Strict-Transport-Security']}"
    )

    # Without nginx's /static/ location the processes serve the same files (ServeStatic);
    # as nginx would proxy them, with the scheme header (else: the https redirect).
    direct = stack.processes[0].url(f"/static/{main_js}")
    status, headers, body = get(direct, {"Accept-Encoding": "br", "X-Forwarded-Proto": "https"})
    assert status == 200 and headers.get("Content-Encoding") == "br"
    assert "immutable" in headers.get("Cache-Control", "")
    stack.say(f"daphne served {direct} itself: brotli {len(body):,} bytes")
    # Metrics: each process's own, for the monitoring host; nginx never proxies them.
    assert get(f"{stack.base_url}/metrics")[0] == 404
    status, _, body = get(stack.processes[0].url("/metrics"))
    assert status == 200 and b"tabletop_build_info" in body

    # Its access log is in the journal while it runs (issue 22: block-buffered, it
    # appeared only when the process exited): the unit runs it unbuffered.
    # Daphne writes the line once the response is done, a moment after the client has it
    # (a streamed file's line may never come, if the client hangs up first: the metrics
    # page, one piece, is the request looked for).
    for _ in range(50):
        log = stack.processes[0].log.read_text().splitlines()
        access = [line for line in log if '"GET /' in line]
        if any('"GET /metrics"' in line for line in access):
            break
        time.sleep(0.1)
    assert any('"GET /metrics"' in line for line in access), access[-5:]
    stack.say(f"daphne :{stack.processes[0].port} logged {len(access)} requests while running")

    # -- A rolling restart while two websocket clients keep acting through nginx.
    acts = asyncio.run(rolling_restart(stack, battle.pk, cookies))

    # -- Counts: every acknowledged act is in the log, with its seq, once.
    rolls = check_acts_in_log(stack, battle, acts)
    assert Event.objects.filter(battle=battle).count() == rolls + 1  # and Chromium's move


def test_readyz_reports_a_stopped_redis(postgresql: str, tmp_path: Path) -> None:
    """A second redis-server on its own port (never the machine's), stopped under a process.
    It asks for a password, as on a Redis of its own host (docs/deploy, section 14): the
    process is ready with the password in REDIS_URL."""
    need(
        "redis-server",
        bool(subprocess.run(["which", "redis-server"], capture_output=True).returncode == 0),
        "apt-get install redis-server",
    )
    port = free_port()
    password = secrets.token_urlsafe(24)
    redis = subprocess.Popen(
        [
            "redis-server",
            "--requirepass",
            password,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
    )
    asgi = AsgiProcess(
        free_port(),
        production_environment(
            postgresql, f"redis://:{password}@127.0.0.1:{port}/0", tmp_path / "static"
        ),
        tmp_path / "daphne.log",
    )
    try:
        asgi.start()  # waits for /readyz 200
        assert health_check(asgi.port, tmp_path) == (0, [], "")  # all well: nothing done
        redis.terminate()
        redis.wait(timeout=10)
        status, _, body = get(asgi.url("/readyz"))
        report = json.loads(body)
        print(f"deploy: Redis :{port} stopped under daphne :{asgi.port}: /readyz {status} {report}")
        assert status == 503
        assert report["status"] == "unavailable"
        assert report["database"] == "ok"
        assert report["channel_layer"] != "ok"
        assert get(asgi.url("/healthz"))[0] == 200  # the process itself is up
        # The health timer reports it, and restarts nothing: a restart would not mend Redis.
        code, restarts, said = health_check(asgi.port, tmp_path)
        assert (code, restarts) == (1, [])
        assert f"tabletop@{asgi.port} is not ready" in said and "(HTTP 503)" in said
        # A hung process (its event loop blocked: stopped here) answers nothing but is alive
        # to systemd: the health timer restarts it.
        assert asgi.process is not None
        asgi.process.send_signal(signal.SIGSTOP)
        try:
            code, restarts, said = health_check(asgi.port, tmp_path)
        finally:
            asgi.process.send_signal(signal.SIGCONT)
        print(f"deploy: health-check.sh on a hung daphne :{asgi.port}: {said.strip()}")
        assert (code, restarts) == (1, [f"restart tabletop@{asgi.port}"])
    finally:
        if asgi.process is not None:
            asgi.stop()
        if redis.poll() is None:
            redis.kill()
            redis.wait()


def health_check(port: int, directory: Path) -> tuple[int, list[str], str]:
    """docs/deploy/health-check.sh on one process, as tabletop-health.service runs it
    (quicker: 1 s timeouts); systemctl, which no test can reach here, only recorded.
    Returns its exit code, the systemctl calls it made and what it said."""
    calls = directory / "systemctl-calls"
    calls.unlink(missing_ok=True)
    recorder = directory / "systemctl"
    recorder.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    recorder.chmod(0o755)
    unit = (DEPLOY_DOCS / "systemd" / "tabletop-health.service").read_text()
    script = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert script.split()[0].endswith("/docs/deploy/health-check.sh")
    quick = {"HEALTH_TIMEOUT": "1", "HEALTH_RETRY_S": "0"}
    run = subprocess.run(
        ["sh", str(DEPLOY_DOCS / "health-check.sh"), str(port)],
        env={**os.environ, **quick, "SYSTEMCTL": str(recorder)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    made = calls.read_text().splitlines() if calls.exists() else []
    return run.returncode, made, run.stderr
