"""Test helper: a network namespace standing for a Pi's network (`ip netns`, root): named
interfaces (veth pairs: no dummy driver in every kernel) with or without an address, and no
default route, as where there is no router. Programs run in it through `inside(name)`."""

from __future__ import annotations

import secrets
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def namespace(interfaces: dict[str, str | None]) -> Iterator[str]:
    """A namespace with these interfaces (name -> "address/prefix", or None: up, no address)
    and loopback; its name."""
    name = f"armata-net-{secrets.token_hex(3)}"
    run = ["ip", "-n", name]
    subprocess.run(["ip", "netns", "add", name], check=True)
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


def inside(name: str) -> tuple[str, ...]:
    """The command prefix that runs a program in the namespace."""
    return ("ip", "netns", "exec", name)


def give_address(device: str, address: str) -> str:
    """A shell command (for a stand-in's hook, run inside the namespace) that gives `device`
    `address`, as NetworkManager's shared mode gives the Wi-Fi 10.42.0.1/24."""
    return f"ip addr add {address} dev {device}"
