"""docs/deploy/install.sh and upgrade.sh, run for real in a temporary root (TABLETOP_ROOT):
real git, pip, PostgreSQL (a role and database of the test's own), Redis (a server of the
test's own, from a copy of Debian's redis.conf, never the machine's), Django's migrate,
collectstatic and check --deploy on the environment file the installer wrote, `nginx -t`
on the site it wrote, Daphne started from the unit it wrote.

Stubbed, because this machine cannot have them: systemctl (no systemd here: the stub
records its arguments and does what systemd would for the test's Redis and for the
tabletop@PORT instances, from the written unit file), certbot (no Let's Encrypt: the stub
records its arguments and writes a self-signed pair where certbot would) and apt-get
(recorded only). To keep it quick the test makes the virtual environment itself (the
interpreter of this one, with its packages reached through a .pth file and a `daphne`
launcher): the installer then finds it, and pip installs only the app into it.
"""

import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import sysconfig
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT, free_port, need
from tests.deploy.stack import NGINX, nginx_available

pytestmark = pytest.mark.deploy

DEPLOY = Path("docs/deploy")
DOMAIN = "table.test.example"
PSQL = ["psql", "-X", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres"]

SYSTEMCTL_STUB = '''\
#!{python}
"""systemctl for the test: records each call, and does what systemd would for the
test's Redis and for tabletop@PORT (from the unit file the installer wrote)."""
import json, os, re, signal, subprocess, sys, time
from pathlib import Path

root = Path(os.environ["TABLETOP_ROOT"])
run = root / "run"
args = sys.argv[1:]
with open(run / "systemctl.log", "a") as log:
    log.write(json.dumps({{
        "args": args,
        "backups": (root / "var/backups/tabletop").is_dir(),
    }}) + "\\n")

def stop(pidfile):
    try:
        pid = int(pidfile.read_text())
        os.kill(pid, signal.SIGTERM)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)

def running(pidfile):
    try:
        os.kill(int(pidfile.read_text()), 0)
        return True
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return False

def environment_file(path):
    """systemd's EnvironmentFile: KEY=value lines, one pair of quotes removed."""
    env = {{}}
    for line in Path(path).read_text().splitlines():
        match = re.fullmatch(r'([A-Za-z_][A-Za-z0-9_]*)=(.*)', line.strip())
        if match:
            value = match[2]
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\\"'":
                value = value[1:-1]
            env[match[1]] = value
    return env

def start_instance(port):
    unit = (root / "etc/systemd/system/tabletop@.service").read_text()
    keys = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0] != "#"
    )
    env = {{"PATH": "/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}}
    env.update(environment_file(keys["EnvironmentFile"]))
    for line in unit.splitlines():
        if line.startswith("Environment="):
            name, _, value = line.removeprefix("Environment=").partition("=")
            env[name] = value
    command = keys["ExecStart"].replace("%i", port).split()
    with open(run / f"daphne-{{port}}.log", "ab") as out:
        process = subprocess.Popen(command, cwd=keys["WorkingDirectory"], env=env,
                                   stdout=out, stderr=out, start_new_session=True)
    (run / f"daphne-{{port}}.pid").write_text(str(process.pid))

verb, units = args[0], [a for a in args[1:] if not a.startswith("-")]
for unit in units:
    if unit == "redis-server" and verb == "restart":
        stop(run / "redis.pid")
        subprocess.run(["redis-server", os.environ["REDIS_CONF"]], check=True)
    match = re.fullmatch(r"tabletop@(\\d+)(\\.service)?", unit)
    if match and (verb == "restart" or "--now" in args or verb == "start"):
        pidfile = run / f"daphne-{{match[1]}}.pid"
        if verb == "restart":
            stop(pidfile)
        if not running(pidfile):
            start_instance(match[1])
'''

CERTBOT_STUB = '''\
#!{python}
"""certbot for the test: records its call (and which site nginx had then) and writes a
self-signed pair where certbot would."""
import json, os, subprocess, sys
from pathlib import Path

root = Path(os.environ["TABLETOP_ROOT"])
args = sys.argv[1:]
site = root / "etc/nginx/sites-enabled/tabletop"
webroot = Path(args[args.index("-w") + 1])
with open(root / "run/certbot.log", "a") as log:
    called = {{"args": args, "site": site.read_text(), "webroot": webroot.is_dir()}}
    log.write(json.dumps(called) + "\\n")
live = root / "etc/letsencrypt/live" / args[args.index("-d") + 1]
live.mkdir(parents=True)
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-keyout", live / "privkey.pem", "-out", live / "fullchain.pem",
                "-subj", "/CN=" + live.name], check=True, capture_output=True)
'''


@dataclass
class Machine:
    """The temporary root and what the scripts are told to use instead of the machine's."""

    root: Path
    source: Path
    env: dict[str, str]
    ports: list[int]
    db_name: str

    @property
    def run_dir(self) -> Path:
        return self.root / "run"

    def script(self, name: str, *args: str) -> subprocess.CompletedProcess:
        began = time.monotonic()
        done = subprocess.run(
            ["bash", str(self.source / DEPLOY / name), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        print(done.stdout, done.stderr, sep="\n")
        print(f"{name} {' '.join(args)}: {time.monotonic() - began:.1f} s")
        return done

    def calls(self, log: str) -> list[dict]:
        path = self.run_dir / log
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def environment(self) -> dict[str, str]:
        return sourced(self.root / "etc/tabletop/tabletop.env")


def sourced(path: Path) -> dict[str, str]:
    """A file as `set -a; . file` reads it (the docs' way, and the installer's)."""
    out = subprocess.run(
        ["env", "-i", "bash", "-c", 'set -a; . "$1"; env -0', "-", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert not out.stderr, out.stderr
    pairs = (entry.partition("=") for entry in out.stdout.split("\0") if entry)
    return {name: value for name, _, value in pairs}


def two_free_ports() -> list[int]:
    for _ in range(50):
        port = free_port()
        if port < 65535:
            try:
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port + 1))
                return [port, port + 1]
            except OSError:
                continue
    raise RuntimeError("no two free ports in a row")


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def source_checkout(directory: Path) -> Path:
    """A clone of this repository's last commit, with the working tree's docs/deploy/ (the
    scripts and files under test) committed on top: what an admin clones."""
    git("clone", "--quiet", str(ROOT), str(directory), cwd=ROOT)
    shutil.rmtree(directory / DEPLOY)
    shutil.copytree(ROOT / DEPLOY, directory / DEPLOY)
    git("add", "-A", "docs/deploy", cwd=directory)
    commit(directory, "docs/deploy as in the working tree")
    return directory


def commit(directory: Path, message: str) -> None:
    author = ["-c", "user.name=test", "-c", "user.email=test@example.org"]
    git(*author, "commit", "--quiet", "--allow-empty", "-am", message, cwd=directory)


def debian_redis_conf(root: Path, port: int) -> Path:
    """Debian's /etc/redis/redis.conf (a copy), listening where the test says."""
    debian = Path("/etc/redis/redis.conf")
    text = debian.read_text() if debian.exists() else "port 6379\n# requirepass foobared\n"
    run = root / "run"
    for key, value in {
        "port": str(port),
        "bind": "127.0.0.1",
        "daemonize": "yes",
        "pidfile": f"{run}/redis.pid",
        "logfile": f"{run}/redis.log",
        "dir": str(run),
    }.items():
        text, n = re.subn(rf"(?m)^{key} .*$", f"{key} {value}", text)
        if n == 0:
            text += f"{key} {value}\n"
    text += 'save ""\nappendonly no\n'
    conf = root / "etc/redis/redis.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text(text)
    return conf


def nginx_main_config(root: Path) -> str:
    """A stand-in for Debian's /etc/nginx/nginx.conf (it includes sites-enabled/*), and
    Debian's default site, which the installer disables. Returns the NGINX command."""
    nginx = root / "etc/nginx"
    (nginx / "sites-available").mkdir(parents=True)
    (nginx / "sites-enabled").mkdir()
    run = root / "run"
    (nginx / "nginx.conf").write_text(
        textwrap.dedent(
            f"""\
            pid {run}/nginx.pid;
            error_log {run}/nginx-error.log;
            events {{ worker_connections 64; }}
            http {{
                include /etc/nginx/mime.types;
                access_log {run}/nginx-access.log;
                include {nginx}/sites-enabled/*;
            }}
            """
        )
    )
    (nginx / "sites-available/default").write_text(
        "server { listen 80 default_server; root /var/www/html; }\n"
    )
    (nginx / "sites-enabled/default").symlink_to(nginx / "sites-available/default")
    return f"{NGINX} -p {run}/ -c {nginx}/nginx.conf -e stderr"


def prepared_venv(venv: Path) -> None:
    """The venv, made by the test to save a minute: this interpreter's, with this
    project's installed packages through a .pth file, and Daphne's launcher."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "test-packages.pth").write_text(f"{sysconfig.get_paths()['purelib']}\n")
    executable(
        venv / "bin/daphne",
        f"#!{venv}/bin/python\nimport sys\nfrom daphne.cli import CommandLineInterface\n"
        "sys.exit(CommandLineInterface.entrypoint())\n",
    )


def postgres_answers() -> bool:
    if not shutil.which("psql"):
        return False
    return subprocess.run([*PSQL, "-c", "select 1"], capture_output=True).returncode == 0


def psql(sql: str) -> str:
    return subprocess.run(
        [*PSQL, "-tAc", sql], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[Machine]:
    need("nginx", nginx_available(), "apt-get install nginx (Debian's)")
    need("redis-server", bool(shutil.which("redis-server")), "apt-get install redis-server")
    need("PostgreSQL", postgres_answers(), "psql -h 127.0.0.1 -U postgres (trust) must answer")
    need("root", os.geteuid() == 0, "the scripts run as root (runuser, chown)")
    root = tmp_path / "root"
    (root / "run").mkdir(parents=True)
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    executable(stubs / "systemctl", SYSTEMCTL_STUB.format(python=sys.executable))
    executable(stubs / "certbot", CERTBOT_STUB.format(python=sys.executable))
    executable(stubs / "apt-get", f'#!/bin/sh\necho "$*" >> {root}/run/apt-get.log\n')
    name = f"tt_install_{secrets.token_hex(4)}"
    ports = two_free_ports()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "TABLETOP_ROOT": str(root),
        "TABLETOP_USER": "root",
        "SYSTEMCTL": str(stubs / "systemctl"),
        "CERTBOT": str(stubs / "certbot"),
        "APT_GET": str(stubs / "apt-get"),
        "PSQL": " ".join(PSQL),
        "PG_DUMP": "pg_dump -h 127.0.0.1 -U postgres",
        "NGINX_CMD": nginx_main_config(root),
        "REDIS_CONF": str(debian_redis_conf(root, free_port())),
        "REDIS_DB": "9",
        "DB_NAME": name,
        "DB_USER": name,
        "BASE_PORT": str(ports[0]),
        "FAIL_TIMEOUT": "0",
    }
    subprocess.run([env["SYSTEMCTL"], "restart", "redis-server"], env=env, check=True)
    prepared_venv(root / "srv/tabletop/venv")
    machine = Machine(root, source_checkout(tmp_path / "source"), env, ports, name)
    try:
        yield machine
    finally:
        for pidfile in (root / "run").glob("*.pid"):
            try:
                os.kill(int(pidfile.read_text()), signal.SIGTERM)
            except (ValueError, ProcessLookupError):
                pass
        time.sleep(0.5)
        psql(f'drop database if exists "{name}" with (force)')
        psql(f'drop role if exists "{name}"')


def snapshot(root: Path) -> dict[str, str]:
    """Every file the installer owns, by content (caches and runtime files aside)."""
    files = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("run/") or "__pycache__" in relative or not path.is_file():
            continue
        files[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
        files[relative + ":mode"] = oct(path.stat().st_mode)
    return files


def healthz(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
        return json.load(answer)


def daphne_pids(machine: Machine) -> list[int]:
    return [int((machine.run_dir / f"daphne-{p}.pid").read_text()) for p in machine.ports]


# Two installs, an upgrade, a rollback, a failed upgrade and a rollback again, each
# starting two Daphne processes: 98 s on a quiet machine, past the suite's 300 s limit on
# a loaded CI machine (the clean-machine test's debootstrap beside it).
@pytest.mark.timeout(900)
def test_install_twice_then_upgrade_and_roll_back(machine: Machine) -> None:
    root, ports = machine.root, machine.ports
    args = ["--domain", DOMAIN, "--email", "admin@example.org", "--processes", "2"]

    first = machine.script("install.sh", *args)
    assert first.returncode == 0, first.stderr

    # Packages, asked of apt.
    apt = (machine.run_dir / "apt-get.log").read_text()
    packages = "nginx postgresql redis-server python3-venv git certbot curl esbuild"
    assert f"install -y -qq {packages}" in apt

    # The code: a clone of the checkout the script ran from, at its commit.
    app = root / "srv/tabletop/app"
    assert git("rev-parse", "HEAD", cwd=app) == git("rev-parse", "HEAD", cwd=machine.source)

    # The environment file: quoted values a shell sources, generated secrets, the domain.
    env_file = root / "etc/tabletop/tabletop.env"
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o640
    settings = machine.environment()
    for line in env_file.read_text().splitlines():
        if re.match(r"[A-Z_]+=", line):
            assert re.fullmatch(r'[A-Z_0-9]+="[^"$`\\]*"', line), line
    assert len(settings["SECRET_KEY"]) >= 50
    assert settings["ALLOWED_HOSTS"] == f"{DOMAIN},127.0.0.1"
    assert settings["CSRF_TRUSTED_ORIGINS"] == f"https://{DOMAIN}"
    assert settings["DEBUG"] == "false"
    assert settings["STATIC_ROOT"] == f"{root}/srv/tabletop/staticfiles"
    assert "EMAIL_URL" not in settings  # left for the admin: mail goes to the log
    assert settings["DATABASE_URL"].startswith(f"postgres://{machine.db_name}:")

    # PostgreSQL: the role owns the migrated database.
    owner = psql(
        f"select pg_get_userbyid(datdba) from pg_database where datname = '{machine.db_name}'"
    )
    assert owner == machine.db_name
    # Redis: the password is required, and the URL carries it.
    redis_conf = Path(machine.env["REDIS_CONF"]).read_text()
    password = re.search(r"(?m)^requirepass (\S+)$", redis_conf)[1]
    assert settings["REDIS_URL"].startswith(f"redis://:{password}@127.0.0.1:")
    assert settings["REDIS_URL"].endswith("/9")
    port = re.search(r"(?m)^port (\d+)$", redis_conf)[1]
    refused = subprocess.run(["redis-cli", "-p", port, "ping"], capture_output=True, text=True)
    assert "NOAUTH" in refused.stdout + refused.stderr

    # Django's commands ran on that file.
    assert "System check identified no issues" in first.stdout + first.stderr
    assert (root / "srv/tabletop/staticfiles/staticfiles.json").exists()

    # systemd: an instance per process in the target, the backup folder before its timer.
    units = root / "etc/systemd/system"
    target = (units / "tabletop.target").read_text()
    assert f"Wants=tabletop@{ports[0]}.service tabletop@{ports[1]}.service" in target
    assert f"EnvironmentFile={env_file}" in (units / "tabletop@.service").read_text()
    health = f"ExecStart={app}/docs/deploy/health-check.sh {ports[0]} {ports[1]}\n"
    assert health in (units / "tabletop-health.service").read_text()
    calls = machine.calls("systemctl.log")
    enabled = [c for c in calls if c["args"][:2] == ["enable", "--now"]]
    assert [f"tabletop@{p}.service" for p in ports] == enabled[0]["args"][2:4]
    timers = {"tabletop-prune.timer", "tabletop-health.timer"}
    assert {"tabletop.target", *timers} <= set(enabled[0]["args"])
    backup_timer = next(c for c in enabled if "tabletop-backup.timer" in c["args"])
    assert backup_timer["backups"], "the backup timer was enabled before its folder existed"
    assert stat.S_IMODE((root / "var/backups/tabletop").stat().st_mode) == 0o700
    # The processes started from those units answer.
    assert {healthz(p)["status"] for p in ports} == {"ok"}

    # nginx: certbot ran while only the port-80 site was enabled; then the whole site.
    (certbot,) = machine.calls("certbot.log")
    assert certbot["args"][:4] == ["certonly", "--webroot", "-w", f"{root}/var/www/html"]
    assert certbot["args"][-2:] == ["--deploy-hook", "systemctl reload nginx"]
    assert "listen 80;" in certbot["site"] and "443" not in certbot["site"]
    assert certbot["webroot"]
    site = (root / "etc/nginx/sites-enabled/tabletop").read_text()
    assert f"server_name {DOMAIN};" in site
    assert f"{root}/etc/letsencrypt/live/{DOMAIN}/fullchain.pem" in site
    assert [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+) ", site)] == ports
    assert not (root / "etc/nginx/sites-enabled/default").exists()
    nginx_t = subprocess.run(
        [*machine.env["NGINX_CMD"].split(), "-t"], capture_output=True, text=True
    )
    assert nginx_t.returncode == 0, nginx_t.stderr
    # nginx reloaded twice: the port-80 site, then the whole site once the certificate
    # is there (a reload lost in a subshell left nginx without its https server).
    assert [c["args"] for c in calls].count(["reload", "nginx"]) == 2
    assert ["daemon-reload"] in [c["args"] for c in calls]  # after writing the units
    # The way on.
    assert f"https://{DOMAIN}/" in first.stdout and "createsuperuser" in first.stdout

    # A second run changes nothing and keeps the secrets.
    before, pids, calls_before = snapshot(root), daphne_pids(machine), len(calls)
    second = machine.script("install.sh", *args)
    assert second.returncode == 0, second.stderr
    assert snapshot(root) == before
    assert machine.environment() == settings
    assert daphne_pids(machine) == pids
    again = [c["args"] for c in machine.calls("systemctl.log")[calls_before:]]
    assert ["daemon-reload"] not in again and ["restart", "redis-server"] not in again
    assert len(machine.calls("certbot.log")) == 1

    # A new release: upgrade.sh from the checkout, with the code from the same place.
    pyproject = machine.source / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('version = "0.2.0"', 'version = "0.2.1"'))
    commit(machine.source, "0.2.1")
    calls_before = len(machine.calls("systemctl.log"))
    upgrade = machine.script("upgrade.sh")
    assert upgrade.returncode == 0, upgrade.stderr
    out = upgrade.stdout
    (dump,) = (root / "var/backups/tabletop").glob("pre-upgrade-*.dump")
    assert re.fullmatch(r"pre-upgrade-0\.2\.0-\d{8}-\d{6}\.dump", dump.name)
    order = ["pg_dump", "The new code", "manage.py migrate", "manage.py collectstatic", "Rolling"]
    assert [out.index(step) for step in order] == sorted(out.index(step) for step in order)
    listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True)
    assert listing.returncode == 0 and "tabletop_event" in listing.stdout
    assert 'version = "0.2.0"' in (root / "srv/tabletop/app.previous/pyproject.toml").read_text()
    assert (root / "srv/tabletop/venv.previous/bin/python").exists()
    upgrade_calls = [c["args"] for c in machine.calls("systemctl.log")[calls_before:]]
    enabled = [set(a[2:]) for a in upgrade_calls if a[:2] == ["enable", "--now"]]
    assert {"tabletop-backup.timer", *timers} in enabled  # a release's new timer starts
    restarts = [a for a in upgrade_calls if a[0] == "restart"]
    assert restarts == [["restart", f"tabletop@{p}"] for p in ports]
    assert not set(daphne_pids(machine)) & set(pids)
    assert {healthz(p)["version"] for p in ports} == {"0.2.1"}
    assert "--rollback" in out

    # And back: the previous code and venv, the processes restarted on them.
    rollback = machine.script("upgrade.sh", "--rollback")
    assert rollback.returncode == 0, rollback.stderr
    assert 'version = "0.2.0"' in (app / "pyproject.toml").read_text()
    assert (root / "srv/tabletop/app.rolled-back").is_dir()
    assert {healthz(p)["version"] for p in ports} == {"0.2.0"}
    assert "pg_restore" in rollback.stdout and dump.name in rollback.stdout

    # A release whose migration fails: the upgrade stops before any restart, says so and
    # how to go back, the running processes keep serving, and --rollback goes back.
    pyproject.write_text(pyproject.read_text().replace('version = "0.2.1"', 'version = "0.2.2"'))
    broken = machine.source / "tabletop/migrations/9999_cannot_apply.py"
    broken.write_text('raise RuntimeError("a migration this release cannot apply")\n')
    git("add", str(broken), cwd=machine.source)
    commit(machine.source, "0.2.2, broken")
    pids, calls_before = daphne_pids(machine), len(machine.calls("systemctl.log"))
    failed = machine.script("upgrade.sh")
    assert failed.returncode != 0
    assert "a migration this release cannot apply" in failed.stderr
    assert "The upgrade stopped" in failed.stderr
    go_back = re.search(r"To go back: (\S+) --rollback", failed.stderr)
    assert go_back and Path(go_back[1]).name == "upgrade.sh", failed.stderr
    assert "Rolling restart" not in failed.stdout
    upgrade_calls = [c["args"] for c in machine.calls("systemctl.log")[calls_before:]]
    assert not [a for a in upgrade_calls if a[0] == "restart"], upgrade_calls
    assert daphne_pids(machine) == pids
    assert {healthz(p)["version"] for p in ports} == {"0.2.0"}
    back = machine.script("upgrade.sh", "--rollback")
    assert back.returncode == 0, back.stderr
    assert 'version = "0.2.0"' in (app / "pyproject.toml").read_text()
    assert not (app / "tabletop/migrations/9999_cannot_apply.py").exists()
    assert {healthz(p)["version"] for p in ports} == {"0.2.0"}


def test_the_scripts_say_how_to_use_them_and_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    scripts = [ROOT / DEPLOY / "install.sh", ROOT / DEPLOY / "upgrade.sh"]
    for script in scripts:
        usage = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True)
        assert usage.returncode == 0 and usage.stdout.startswith("Usage:"), usage.stderr

    ubuntu = tmp_path / "os-release"
    ubuntu.write_text('ID=ubuntu\nVERSION_ID="24.04"\n')
    args = ["--domain", DOMAIN, "--email", "admin@example.org"]
    for script in scripts:
        refused = subprocess.run(
            ["bash", str(script), *(args if script.name == "install.sh" else [])],
            env={**os.environ, "OS_RELEASE": str(ubuntu), "TABLETOP_ROOT": str(tmp_path)},
            capture_output=True,
            text=True,
        )
        assert refused.returncode != 0
        assert "Debian 12 or 13" in refused.stderr and "ubuntu 24.04" in refused.stderr

    missing = subprocess.run(["bash", str(scripts[0])], capture_output=True, text=True)
    assert missing.returncode != 0 and "--domain and --email are required" in missing.stderr

    if os.geteuid() == 0 and shutil.which("runuser"):
        as_nobody = subprocess.run(
            ["runuser", "-u", "nobody", "--", "bash", str(scripts[0]), *args],
            capture_output=True,
            text=True,
            cwd="/",
        )
        assert as_nobody.returncode != 0 and "run this as root" in as_nobody.stderr


def test_a_password_with_url_characters_reads_back_the_same() -> None:
    """A Redis password an admin set in redis.conf may hold @ : / # % &: the installer
    writes it into REDIS_URL (and the database's into DATABASE_URL) percent-encoded
    (common.sh's url_quote), and Redis' client and django-environ read it back whole, as
    does url_unquote when the installer runs again."""
    import environ
    from redis.connection import parse_url

    password = "p@ss:w/rd#1%2F&y"

    def bash(function: str, value: str) -> str:
        script = f'. {DEPLOY}/common.sh && {function} "$1"'
        run = subprocess.run(
            ["bash", "-c", script, "bash", value], cwd=ROOT, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.removesuffix("\n")

    quoted = bash("url_quote", password)
    assert not set(quoted) & set("@:/#&"), quoted
    assert parse_url(f"redis://:{quoted}@127.0.0.1:6379/0")["password"] == password
    database = environ.Env.db_url_config(f"postgres://tabletop:{quoted}@127.0.0.1:5432/tabletop")
    assert database["PASSWORD"] == password
    assert bash("url_unquote", quoted) == password


def test_shellcheck_finds_nothing_in_the_deploy_scripts() -> None:
    need("shellcheck", bool(shutil.which("shellcheck")), "apt-get install shellcheck")
    scripts = ["install.sh", "upgrade.sh", "common.sh", "rolling-restart.sh", "health-check.sh"]
    standin = "tests/deploy/clean_root/systemctl"  # the clean-root test's systemd
    checked = subprocess.run(
        ["shellcheck", "-x", *(f"docs/deploy/{s}" for s in scripts), standin],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout
