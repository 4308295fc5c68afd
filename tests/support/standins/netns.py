"""Test helper: a network namespace standing for a Pi's network (`ip netns`, root): named
interfaces (veth pairs: no dummy driver in every kernel) with or without an address, and no
default route, as where there is no router. Programs run in it through `inside(name)`."""

from __future__ import annotations

import secrets
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: `ip netns exec NAME` mounts the files of this folder's NAME/ over /etc's (its own hosts file)
NETNS_ETC = Path("/etc/netns")


@contextmanager
def namespace(interfaces: dict[str, str | None], hosts: str | None = None) -> Iterator[str]:
    """A namespace with these interfaces (name -> "address/prefix", or None: up, no address)
    and loopback; its name. `hosts`: the /etc/hosts programs in it read (names that resolve
    there, as Avahi makes a Pi's `<hostname>.local` resolve)."""
    name = f"armata-net-{secrets.token_hex(3)}"
    run = ["ip", "-n", name]
    subprocess.run(["ip", "netns", "add", name], check=True)
    if hosts is not None:
        (NETNS_ETC / name).mkdir(parents=True, exist_ok=True)
        (NETNS_ETC / name / "hosts").write_text(f"127.0.0.1 localhost\n{hosts}\n")
    try:
        for device, address in interfaces.items():
            peer = f"{device}-peer"  # the peer end has no address of its own
            subprocess.run(
                [*run, "link", "add", device, "type", "veth", "peer", "name", peer], check=True
            )
            if address is not None:
                subprocess.run([*run, "addr", "add", address, "dev", device], check=True)
            for end in (device, peer):
                subprocess.run([*run, "link", "set", end, "up"], check=True)
        subprocess.run([*run, "link", "set", "lo", "up"], check=True)
        routes = subprocess.run([*run, "route"], capture_output=True, text=True, check=True)
        assert "default" not in routes.stdout
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)
        shutil.rmtree(NETNS_ETC / name, ignore_errors=True)


def inside(name: str, hostname: str | None = None) -> tuple[str, ...]:
    """The command prefix that runs a program in the namespace (with `hostname`, under that
    host name: a UTS namespace of its own)."""
    if hostname is None:
        return ("ip", "netns", "exec", name)
    named = f'hostname {hostname} && exec "$@"'
    return ("ip", "netns", "exec", name, "unshare", "--uts", "sh", "-c", named, "sh")


def give_address(device: str, address: str) -> str:
    """A shell command (for a stand-in's hook, run inside the namespace) that gives `device`
    `address`, as NetworkManager's shared mode gives the Wi-Fi 10.42.0.1/24."""
    return f"ip addr add {address} dev {device}"
