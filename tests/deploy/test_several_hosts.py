"""Several machines (docs/deploy/README.md, section 14), as network namespaces on this
one: a proxy host with nginx (docs/deploy/nginx.conf, its upstream one line per process),
two app hosts with two Daphne processes each (the unit's ExecStart, -b the host's private
address), and the data host (the root namespace: socat forwards its private address to
the machine's PostgreSQL and Redis), on a bridge, 10.77.0.0/24. Websocket clients act
through the proxy while app1's processes are restarted in turn and one of app2's is
killed (-9); nothing acknowledged is lost and every client ends in step.

Needs root (ip netns) and socat. Run with -s to read its figures.
"""

import asyncio
import http.cookiejar
import os
import re
import shutil
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import free_port, need
from tests.deploy.acting import PASSWORD, act_through, check_acts_in_log, kill, restart
from tests.deploy.netns import DATA_ADDRESS, NETWORK, private_network
from tests.deploy.stack import (
    AsgiProcess,
    Stack,
    collectstatic,
    production_environment,
    start_processes_and_nginx,
    unverified_tls,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.deploy]

HOSTS = {"proxy": f"{NETWORK}.10", "app1": f"{NETWORK}.11", "app2": f"{NETWORK}.12"}


@pytest.fixture
def namespaces() -> None:
    need(
        "ip netns and socat",
        os.geteuid() == 0 and bool(shutil.which("ip")) and bool(shutil.which("socat")),
        "root, iproute2 and socat (apt-get install socat)",
    )


def on_data_host(url: str, port: int) -> tuple[str, str]:
    """`url` (on loopback) as the app hosts reach it: the data host's address, `port`;
    and the host:port it stands for."""
    parts = urlsplit(url)
    default = {"postgres": 5432, "redis": 6379}[parts.scheme]
    target = f"{parts.hostname}:{parts.port or default}"
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{DATA_ADDRESS}:{port}" if credentials else f"{DATA_ADDRESS}:{port}"
    return parts._replace(netloc=netloc).geturl(), target


def log_in(base_url: str, username: str) -> bytes:
    """Logs in over https through the proxy, as a browser's form would; the session cookie."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=unverified_tls()),
        urllib.request.HTTPCookieProcessor(jar),
    )
    login = f"{base_url}/accounts/login/"
    page = browser.open(login, timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, page[:2000]
    form = {"csrfmiddlewaretoken": token.group(1), "username": username, "password": PASSWORD}
    browser.open(
        urllib.request.Request(
            login,
            data=urllib.parse.urlencode(form).encode(),
            headers={"Origin": base_url, "Referer": login},
        ),
        timeout=10,
    )
    session = next((c.value for c in jar if c.name == "sessionid"), None)
    assert session, f"{username} was not logged in through the proxy"
    return f"sessionid={session}".encode()


def test_several_hosts_lose_no_acknowledged_act_through_restarts_and_a_kill(
    namespaces, nginx, postgresql: str, redis_url: str, tmp_path: Path, battle_and_people
) -> None:
    battle, _ = battle_and_people
    with private_network(HOSTS) as network:
        database_url, database = on_data_host(postgresql, free_port())
        redis, cache = on_data_host(redis_url, free_port())
        for url, target in ((database_url, database), (redis, cache)):
            network.forward(urlsplit(url).port, target, tmp_path / "socat.log")
        static_root = tmp_path / "staticfiles"
        env = production_environment(database_url, redis, static_root)
        # Section 14: the site, and each app host's address (the health probes).
        env["ALLOWED_HOSTS"] = ",".join(HOSTS.values())
        stack = Stack(
            directory=tmp_path,
            processes=[
                AsgiProcess(
                    port, env, tmp_path / f"{host}-{port}.log", host=HOSTS[host], netns=host
                )
                for host in ("app1", "app2")
                for port in (8001, 8002)
            ],
            https_port=443,
            http_port=80,
            static_root=static_root,
            address=HOSTS["proxy"],
            netns="proxy",
        )
        try:
            stack.say(
                f"hosts: {', '.join(f'{h} {a}' for h, a in HOSTS.items())}; data host "
                f"{DATA_ADDRESS} (root namespace): PostgreSQL {DATA_ADDRESS}:"
                f"{urlsplit(database_url).port} -> {database}, Redis {DATA_ADDRESS}:"
                f"{urlsplit(redis).port} -> {cache} (socat)"
            )
            stack.say(f"collectstatic (DEBUG=false, tabletop.env): {collectstatic(env)}")
            start_processes_and_nginx(stack)
            cookies = {}
            for role in ("p1", "gm"):
                cookie = log_in(stack.base_url, f"d-{role}")
                cookies.update({f"{role}-a": cookie, f"{role}-b": cookie})
            stack.say(f"d-p1 and d-gm logged in at {stack.base_url} through the proxy")
            app1 = [asgi for asgi in stack.processes if asgi.netns == "app1"]
            app2 = [asgi for asgi in stack.processes if asgi.netns == "app2"]

            async def restart_app1_kill_one_of_app2(acked: Callable[[], int]) -> None:
                for asgi in app1:
                    await restart(stack, asgi, acked)
                await kill(stack, app2[0], acked)

            acts = asyncio.run(
                act_through(stack, battle.pk, cookies, restart_app1_kill_one_of_app2)
            )
            rolls = check_acts_in_log(stack, battle, acts)
            assert rolls == len(acts["acked"])
            stack.say(
                f"figures: moves sent {len(acts['sent'])}, acknowledged {len(acts['acked'])}, "
                f"lost 0, reconnects {acts['drops']}"
            )
        finally:
            stack.stop()
