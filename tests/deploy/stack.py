"""The documented deployment, started for a test: Debian's nginx from docs/deploy/nginx.conf
in front of Daphne processes started with the systemd unit's command line and
docs/deploy/tabletop.env's settings, on the test's PostgreSQL and Redis.

Only what must differ on a test machine is swapped: ports, paths, a self-signed
certificate, the secret key and the database. Each swap checks that the documented
text it replaces is still there, so the test follows the docs or fails.
"""

import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import ROOT, documented_environment, free_port

DEPLOY_DOCS = ROOT / "docs" / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_available() -> bool:
    return Path(NGINX).exists()


def documented_command(port: int, host: str = "127.0.0.1") -> list[str]:
    """The unit's ExecStart with %i as `port`, run by this interpreter's Daphne; listening
    on `host` instead of loopback as section 14's drop-in for an app host says."""
    unit = (DEPLOY_DOCS / "systemd" / "tabletop@.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    program, *arguments = exec_start.removeprefix("ExecStart=").split()
    assert program.endswith("/daphne"), exec_start
    assert "--proxy-headers" in arguments, "behind nginx Daphne must read X-Forwarded-For"
    assert arguments[arguments.index("-b") + 1] == "127.0.0.1", exec_start
    arguments[arguments.index("-b") + 1] = host
    return [sys.executable, "-m", "daphne", *(a.replace("%i", str(port)) for a in arguments)]


def in_namespace(netns: str | None) -> list[str]:
    """The command prefix that runs a program on one host of tests/deploy/netns.py's
    network (`ip netns exec` execs it: the process keeps the pid)."""
    return ["ip", "netns", "exec", netns] if netns else []


def unit_environment() -> dict[str, str]:
    """The unit's own Environment= lines (besides its EnvironmentFile)."""
    unit = (DEPLOY_DOCS / "systemd" / "tabletop@.service").read_text()
    pairs = (
        line.removeprefix("Environment=").partition("=")
        for line in unit.splitlines()
        if line.startswith("Environment=")
    )
    return {name: value for name, _, value in pairs}


def documented_stop_timeout() -> float:
    """The unit's TimeoutStopSec: how long systemd waits after SIGTERM before SIGKILL."""
    unit = (DEPLOY_DOCS / "systemd" / "tabletop@.service").read_text()
    line = next(line for line in unit.splitlines() if line.startswith("TimeoutStopSec="))
    return float(line.removeprefix("TimeoutStopSec="))


def swapped(text: str, replacements: dict[str, str]) -> str:
    for documented, local in replacements.items():
        assert documented in text, f"docs/deploy/nginx.conf no longer has {documented!r}"
        text = text.replace(documented, local)
    return text


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )
    return cert, key


def wait_for_port(
    port: int, process: subprocess.Popen, what: str, log: Path, host: str = "127.0.0.1"
) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {log.read_text()[-3000:]}")
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within 30 s: {log.read_text()[-3000:]}")


def unverified_tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10, context=unverified_tls()) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@dataclass
class AsgiProcess:
    port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen | None = None
    host: str = "127.0.0.1"
    netns: str | None = None  # the host (network namespace) it runs on

    def start(self) -> float:
        """Starts it and waits until /readyz answers 200; returns the seconds that took."""
        began = time.monotonic()
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                in_namespace(self.netns) + documented_command(self.port, self.host),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
            )
        wait_for_port(self.port, self.process, f"daphne :{self.port}", self.log, self.host)
        while get(self.url("/readyz"))[0] != 200:
            assert time.monotonic() - began < 30, f"daphne :{self.port} never became ready"
            time.sleep(0.1)
        return time.monotonic() - began

    def stop(self) -> tuple[float, str]:
        """As systemd stops it: SIGTERM, then SIGKILL after the unit's TimeoutStopSec.
        Returns the seconds that took, and how it ended."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=documented_stop_timeout())
            ended = "exited"
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            ended = "killed after TimeoutStopSec"
        return time.monotonic() - began, ended

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


@dataclass
class Stack:
    directory: Path
    processes: list[AsgiProcess]
    https_port: int
    http_port: int
    static_root: Path
    nginx: subprocess.Popen | None = None
    lines: list[str] = field(default_factory=list)
    address: str = "127.0.0.1"  # where nginx listens
    netns: str | None = None  # the host (network namespace) nginx runs on

    @property
    def base_url(self) -> str:
        port = "" if self.https_port == 443 else f":{self.https_port}"
        return f"https://{self.address}{port}"

    @property
    def acme_webroot(self) -> Path:
        """certbot's webroot (/var/www/html in the docs): where a renewal's token goes."""
        return self.directory / "acme-webroot"

    def say(self, line: str) -> None:
        """The test's account of itself, printed (pytest -s) and kept for a failure."""
        self.lines.append(line)
        print(f"deploy: {line}", flush=True)

    def stop(self) -> None:
        for asgi in self.processes:
            if asgi.process is not None and asgi.process.poll() is None:
                asgi.stop()
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # graceful shutdown
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()


def production_environment(database_url: str, redis_url: str, static_root: Path) -> dict:
    """docs/deploy/tabletop.env, with what a test machine must have instead."""
    # Only the unit may make the processes unbuffered (their log lines reach the journal).
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env = {**inherited, **documented_environment(), **unit_environment()}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        STATIC_ROOT=str(static_root),
        EMAIL_URL="consolemail://",
        DJANGO_SETTINGS_MODULE="tabletop.settings",
    )
    env.pop("SENTRY_DSN", None)
    return env


def collectstatic(env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def nginx_config(stack: Stack, cert: Path, key: Path, http_port: int) -> Path:
    """The site file from docs/deploy/nginx.conf, and a main file standing in for
    Debian's /etc/nginx/nginx.conf (run as a child of the test, in its own prefix)."""
    site = swapped(
        (DEPLOY_DOCS / "nginx.conf").read_text(),
        {
            # One line per process (section 14: several hosts, several lines).
            "server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;": "\n    ".join(
                f"server {asgi.host}:{asgi.port} max_fails=1 fail_timeout=5s;"
                for asgi in stack.processes
            ),
            "    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;\n": "",
            "listen 80;": f"listen {stack.address}:{http_port};",
            "listen [::]:80;": "",
            "listen 443 ssl http2;": f"listen {stack.address}:{stack.https_port} ssl http2;",
            "listen [::]:443 ssl http2;": "",
            "listen 80 default_server;": f"listen {stack.address}:{http_port} default_server;",
            "listen [::]:80 default_server;": "",
            "listen 443 ssl http2 default_server;": (
                f"listen {stack.address}:{stack.https_port} ssl http2 default_server;"
            ),
            "listen [::]:443 ssl http2 default_server;": "",
            # The test reaches the site by its address, not by the documented name.
            "server_name table.example.org;": f"server_name table.example.org {stack.address};",
            "/etc/letsencrypt/live/table.example.org/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/table.example.org/privkey.pem": str(key),
            "/srv/tabletop/staticfiles/": f"{stack.static_root}/",
            "root /var/www/html;": f"root {stack.acme_webroot};",
        },
    )
    prefix = stack.directory / "nginx"
    (prefix / "tmp").mkdir(parents=True)
    (prefix / "tabletop.conf").write_text(site)
    user = "user root;" if os.geteuid() == 0 else ""  # its workers read the test's files
    temp = "\n".join(
        f"    {kind}_temp_path {prefix}/tmp/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = prefix / "nginx.conf"
    main.write_text(
        f"""daemon off;
{user}
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log {prefix}/access.log;
{temp}
    include {prefix}/tabletop.conf;
}}
"""
    )
    return main


def start_stack(directory: Path, database_url: str, redis_url: str) -> Stack:
    static_root = directory / "staticfiles"
    env = production_environment(database_url, redis_url, static_root)
    stack = Stack(
        directory=directory,
        processes=[AsgiProcess(free_port(), env, directory / f"daphne-{n}.log") for n in (1, 2)],
        https_port=free_port(),
        http_port=free_port(),
        static_root=static_root,
    )
    stack.say(f"collectstatic (DEBUG=false, tabletop.env): {collectstatic(env)}")
    start_processes_and_nginx(stack)
    return stack


def start_processes_and_nginx(stack: Stack) -> None:
    """Starts the stack's ASGI processes, each on its host, then nginx on its own."""
    for asgi in stack.processes:
        took = asgi.start()
        where = f" on host {asgi.netns}" if asgi.netns else ""
        stack.say(
            f"daphne pid {asgi.pid}{where} on {asgi.host}:{asgi.port} "
            f"({' '.join(documented_command(asgi.port, asgi.host)[3:])}), ready in {took:.1f} s"
        )
    cert, key = self_signed_certificate(stack.directory)
    main = nginx_config(stack, cert, key, stack.http_port)
    nginx = in_namespace(stack.netns) + [NGINX, "-p", str(main.parent), "-c", str(main)]
    test = subprocess.run(nginx + ["-t", "-e", "stderr"], capture_output=True, text=True)
    assert test.returncode == 0, test.stderr
    log = main.parent / "nginx.out"
    with log.open("wb") as out:
        stack.nginx = subprocess.Popen(
            nginx + ["-e", str(main.parent / "error.log")], stdout=out, stderr=out
        )
    wait_for_port(stack.https_port, stack.nginx, "nginx", log, stack.address)
    version = subprocess.run([NGINX, "-v"], capture_output=True, text=True).stderr.strip()
    where = f" on host {stack.netns}" if stack.netns else ""
    upstream = ", ".join(f"{asgi.host}:{asgi.port}" for asgi in stack.processes)
    stack.say(
        f"{version} pid {stack.nginx.pid}{where} at {stack.base_url} (TLS, self-signed) from "
        f"docs/deploy/nginx.conf -> upstream {upstream}"
    )
