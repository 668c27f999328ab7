"""A clean Debian machine for tests/deploy/test_clean_root.py, made on the CI machine:
Debian 12 from debootstrap in a folder, run under chroot in a network namespace of its
own (so its PostgreSQL, Redis, nginx and Daphne processes take their usual ports without
meeting the CI machine's), which reaches the package registries through NAT.

What a freshly installed Debian has and debootstrap does not is added, and nothing more:
the security and updates sources, fetched package lists, a host name, and the
certificate authorities of the network it is on. systemd cannot run
under chroot: tests/deploy/clean_root/systemctl stands in for it (see that file), and a
Let's Encrypt stand-in (Debian's `pebble`, an ACME test server) runs in the namespace,
where the machine's certbot is pointed at it by root's own certbot configuration."""

import json
import os
import shlex
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
NAMESPACE = "tt79-clean"
HOST_END = "tt79-host"
NETWORK = "10.79.0"
ADDRESS = f"{NETWORK}.2"  # the machine's address, as the test (the internet) sees it
NAT_TABLE = "tt79_clean"
STANDIN = Path(__file__).parent / "clean_root" / "systemctl"
#: A tar of a debootstrap result, to iterate on the test without debootstrapping each
#: time. CI never sets it: there the machine is made from the mirror every run.
REUSE_TAR = os.environ.get("TABLETOP_CLEAN_ROOT_TAR", "")
#: Where debootstrap keeps the .deb files it downloaded, on the CI machine and between
#: runs: the next run downloads only what changed on the mirror. The machine is still
#: made from nothing each run (debootstrap checks each kept file against the mirror's
#: signed Release and Packages, and unpacks and configures every package anew); what a
#: cache saves is only the download, which is not what the test is about.
DEBOOTSTRAP_CACHE = Path(
    os.environ.get("TABLETOP_CLEAN_ROOT_CACHE", "/var/cache/tabletop-clean-root/debootstrap")
)

SOURCES = f"""\
deb {MIRROR} {SUITE} main
deb {MIRROR} {SUITE}-updates main
deb http://deb.debian.org/debian-security {SUITE}-security main
"""
#: An admin's login shell: root's PATH, no locale (a fresh machine may have none).
CONSOLE = [
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME=/root",
    "TERM=dumb",
]


def sh(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    run = subprocess.run(command, capture_output=True, text=True)
    if check and run.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)}: {run.stdout[-2000:]}{run.stderr[-2000:]}")
    return run


@dataclass
class CleanRoot:
    path: Path
    log: Path  # every command run on the machine, with its output
    mounts: list[Path] = field(default_factory=list)
    pebble: subprocess.Popen | None = None
    forwarding_was: str = "0"

    def say(self, text: str) -> None:
        print(f"[clean root] {text}", flush=True)
        with self.log.open("a") as log:
            log.write(f"\n### {text}\n")

    # -- the machine -------------------------------------------------------------------

    def build(self) -> float:
        """debootstrap (Debian's required and important packages, as a minimal install
        has them); returns the seconds it took."""
        began = time.monotonic()
        if REUSE_TAR:
            self.path.mkdir(parents=True)
            sh("tar", "-C", str(self.path), "-xf", REUSE_TAR)
        else:
            with self.log.open("a") as log:
                DEBOOTSTRAP_CACHE.mkdir(parents=True, exist_ok=True)
                cache = f"--cache-dir={DEBOOTSTRAP_CACHE.resolve()}"
                subprocess.run(
                    ["debootstrap", cache, SUITE, str(self.path), MIRROR],
                    stdout=log,
                    stderr=log,
                    check=True,
                )
        (self.path / "etc/apt/sources.list").write_text(SOURCES)
        (self.path / "etc/hostname").write_text("table\n")
        shutil.copy("/etc/resolv.conf", self.path / "etc/resolv.conf")
        # The network's own certificate authorities (this CI machine reaches PyPI through
        # a proxy that signs with one): a machine on this network needs them too. Debian's
        # ca-certificates adds them to the bundle when the installer installs it.
        local = Path("/usr/local/share/ca-certificates")
        for authority in local.glob("*.crt") if local.is_dir() else []:
            mine = self.file(str(authority))
            mine.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(authority, mine)
        return time.monotonic() - began

    def mount(self) -> None:
        for kind, source, target in [
            ("proc", "proc", "proc"),
            ("sysfs", "sysfs", "sys"),
            ("bind", "/dev", "dev"),
            ("bind", "/dev/pts", "dev/pts"),
            ("tmpfs", "tmpfs", "run"),
        ]:
            where = self.path / target
            where.mkdir(exist_ok=True)
            options = ["--bind", source] if kind == "bind" else ["-t", kind, source]
            sh("mount", *options, str(where))
            self.mounts.append(where)
        # systemd "is running" (so the packages' scripts start their services with
        # systemctl, as on a booted machine), and the stand-in answers as systemctl.
        (self.path / "run/systemd/system").mkdir(parents=True)
        (self.path / "run/lock").mkdir()

    def stand_in_for_systemd(self) -> None:
        """The stand-in replaces Debian's systemctl where every caller finds it (apt runs
        the packages' scripts with PATH /usr/sbin:/usr/bin:/sbin:/bin), the real one
        diverted as dpkg does for a local replacement (the package ships /bin/systemctl)."""
        self.run(
            "dpkg-divert --quiet --local --rename --divert /bin/systemctl.real --add /bin/systemctl"
        )
        shutil.copy(STANDIN, self.file("/usr/bin/systemctl"))
        os.chmod(self.file("/usr/bin/systemctl"), 0o755)

    def network(self) -> None:
        """A namespace with one veth to the CI machine, which routes and masquerades it."""
        self.remove_network()
        sh("ip", "netns", "add", NAMESPACE)
        # The machine's end is born in its namespace: the CI machine has an eth0 of its own.
        peer = ["peer", "name", "eth0", "netns", NAMESPACE]
        sh("ip", "link", "add", HOST_END, "type", "veth", *peer)
        sh("ip", "addr", "add", f"{NETWORK}.1/24", "dev", HOST_END)
        sh("ip", "link", "set", HOST_END, "up")
        sh("ip", "-n", NAMESPACE, "addr", "add", f"{ADDRESS}/24", "dev", "eth0")
        sh("ip", "-n", NAMESPACE, "link", "set", "eth0", "up")
        sh("ip", "-n", NAMESPACE, "link", "set", "lo", "up")
        sh("ip", "-n", NAMESPACE, "route", "add", "default", "via", f"{NETWORK}.1")
        self.forwarding_was = Path("/proc/sys/net/ipv4/ip_forward").read_text().strip()
        Path("/proc/sys/net/ipv4/ip_forward").write_text("1")
        sh("nft", "add", "table", "ip", NAT_TABLE)
        sh(
            "nft",
            "add chain ip",
            NAT_TABLE,
            "postrouting { type nat hook postrouting priority 100 ; }",
        )
        sh("nft", "add rule ip", NAT_TABLE, "postrouting", f"ip saddr {NETWORK}.0/24 masquerade")

    def remove_network(self) -> None:
        sh("ip", "netns", "delete", NAMESPACE, check=False)
        sh("ip", "link", "delete", HOST_END, check=False)
        sh("nft", "delete", "table", "ip", NAT_TABLE, check=False)

    def run(self, script: str, timeout: float = 900, check: bool = True) -> str:
        """`script` in bash as root at the machine's console; its output (also logged)."""
        with self.log.open("a") as log:
            log.write(f"\n$ {script}\n")
        command = ["ip", "netns", "exec", NAMESPACE, "chroot", str(self.path)]
        command += ["/usr/bin/env", "-i", *CONSOLE, "bash", "-c", script]
        began = time.monotonic()
        run = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
        )
        # The seconds each command took: what to cut when the test grows slow.
        took = time.monotonic() - began
        with self.log.open("a") as log:
            log.write(run.stdout + run.stderr + f"[exit {run.returncode} after {took:.1f} s]\n")
        if check and run.returncode != 0:
            raise AssertionError(
                f"on the clean machine: {script}\nexit {run.returncode}\n"
                f"{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
            )
        return run.stdout

    def file(self, path: str) -> Path:
        return self.path / path.lstrip("/")

    # -- Let's Encrypt's stand-in --------------------------------------------------------

    def start_acme(self, domain: str, work: Path) -> None:
        """pebble in the namespace, checking http-01 challenges on port 80 of `domain`
        (which its resolver finds in the namespace's own /etc/hosts), and root's certbot
        configuration on the machine pointing at it."""
        certificate, key = work / "pebble-cert.pem", work / "pebble-key.pem"
        sh(
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", str(key), "-out", str(certificate), "-subj", "/CN=pebble",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        )  # fmt: skip
        config = work / "pebble.json"
        config.write_text(
            json.dumps(
                {
                    "pebble": {
                        "listenAddress": "0.0.0.0:14000",
                        "managementListenAddress": "0.0.0.0:15000",
                        "certificate": str(certificate),
                        "privateKey": str(key),
                        "httpPort": 80,
                        "tlsPort": 443,
                        "ocspResponderURL": "",
                        "externalAccountBindingRequired": False,
                    }
                }
            )
        )
        hosts = Path("/etc/netns") / NAMESPACE / "hosts"
        hosts.parent.mkdir(parents=True, exist_ok=True)
        hosts.write_text(f"127.0.0.1 localhost\n127.0.0.1 {domain}\n")
        environment = {**os.environ, "PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "0"}
        with (work / "pebble.log").open("ab") as out:
            self.pebble = subprocess.Popen(
                ["ip", "netns", "exec", NAMESPACE, "pebble", "-config", str(config)],
                stdout=out,
                stderr=out,
                env=environment,
            )
        cli_ini = self.file("/root/.config/letsencrypt/cli.ini")
        cli_ini.parent.mkdir(parents=True)
        cli_ini.write_text("server = https://127.0.0.1:14000/dir\nno-verify-ssl = true\n")

    def acme_root(self) -> str:
        """The root certificate pebble signs with (made when it started)."""
        return self.run("curl -fsSk https://127.0.0.1:15000/roots/0")

    # -- the end -----------------------------------------------------------------------

    def processes(self) -> list[int]:
        """The processes whose root is the machine."""
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.readlink(entry / "root") == str(self.path):
                        pids.append(int(entry.name))
                except OSError:
                    continue
        return pids

    def tear_down(self) -> None:
        if self.pebble is not None:
            self.pebble.kill()
            self.pebble.wait()
        for _ in range(2):
            for pid in self.processes():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.5)
        for where in reversed(self.mounts):
            sh("umount", "--lazy", str(where), check=False)
        self.remove_network()
        Path("/proc/sys/net/ipv4/ip_forward").write_text(self.forwarding_was)
        shutil.rmtree(Path("/etc/netns") / NAMESPACE, ignore_errors=True)
        # Only once nothing is mounted in it: rmtree would go down into /dev.
        if not any(where.is_mount() for where in self.mounts) and not sh(
            "findmnt", "--list", "--noheadings", "--output", "TARGET", check=False
        ).stdout.count(str(self.path)):
            shutil.rmtree(self.path.parent, ignore_errors=True)
