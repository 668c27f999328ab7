"""Several hosts on one machine (docs/deploy/README.md, section 14): one network
namespace per host, each with a veth on one bridge in the root namespace, on a private
network. The root namespace is the data host: its end of the bridge has an address, and
socat forwards that address's ports to the machine's PostgreSQL and Redis on loopback
(as they are: neither is reconfigured, no firewall rule is added)."""

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

NETWORK = "10.77.0"
BRIDGE = "tt77br"
DATA_ADDRESS = f"{NETWORK}.1"


def ip(*arguments: str, check: bool = True) -> None:
    run = subprocess.run(["ip", *arguments], capture_output=True, text=True)
    if check and run.returncode != 0:
        raise RuntimeError(f"ip {' '.join(arguments)}: {run.stderr.strip()}")


def veth(host: str) -> str:
    return f"tt77-{host}"[:15]


@dataclass
class Network:
    hosts: dict[str, str]  # namespace -> its private address
    forwarders: list[subprocess.Popen] = field(default_factory=list)

    def forward(self, port: int, to: str, log: Path) -> None:
        """The data host's address, `port`, forwarded to `to` (host:port) on loopback."""
        with log.open("ab") as out:
            self.forwarders.append(
                subprocess.Popen(
                    ["socat", f"TCP-LISTEN:{port},bind={DATA_ADDRESS},reuseaddr,fork", f"TCP:{to}"],
                    stdout=out,
                    stderr=out,
                )
            )


def remove(hosts: dict[str, str]) -> None:
    for host in hosts:
        ip("netns", "delete", host, check=False)  # takes its end of the veth with it
        ip("link", "delete", veth(host), check=False)
    ip("link", "delete", BRIDGE, check=False)


@contextmanager
def private_network(hosts: dict[str, str]) -> Iterator[Network]:
    """The namespaces `hosts` names, each with its address on the bridge; all removed at
    the end (and, first, whatever a killed run left)."""
    remove(hosts)
    network = Network(hosts)
    try:
        ip("link", "add", BRIDGE, "type", "bridge")
        ip("addr", "add", f"{DATA_ADDRESS}/24", "dev", BRIDGE)
        ip("link", "set", BRIDGE, "up")
        for host, address in hosts.items():
            ip("netns", "add", host)
            ip("link", "add", veth(host), "type", "veth", "peer", "name", "eth0", "netns", host)
            ip("link", "set", veth(host), "master", BRIDGE, "up")
            ip("-n", host, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", host, "link", "set", "eth0", "up")
            ip("-n", host, "link", "set", "lo", "up")
        yield network
    finally:
        for forwarder in network.forwarders:
            forwarder.kill()
            forwarder.wait()
        remove(hosts)
