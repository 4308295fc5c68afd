"""Where the table view in browsers listens (--web of `python -m ui` and `serve`), and the
address the phones open: a module of its own, so reading the options imports nothing of the
table view (companion/app/web/feed.py and what it shows: the engine, the store).

The address comes from the interfaces themselves (issue 41): asking the kernel for the route to
a public address fails where there is no default route, exactly a Pi's own hotspot, and said
127.0.0.1 there."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from companion.errors import InvalidOptions

__all__ = [
    "DEFAULT_PORT",
    "InvalidOptions",  # for ui/web, which sees only companion.app
    "browser_address",
    "by_name",
    "interface_addresses",
    "parse_web_address",
    "preferred",
    "rank",
    "reachable",
]

#: where the table view listens unless --web says otherwise (ui/web/server.py)
DEFAULT_PORT = 8421


def parse_web_address(given: str | None, public: bool = False) -> tuple[str, int] | None:
    """--web of `python -m ui` and `serve`: "HOST:PORT" or "off" (None); unset, this machine
    only (127.0.0.1), or the local network when `public` (the kiosk). InvalidOptions (a
    ValueError) names what is wrong."""
    given = given or ("0.0.0.0" if public else "127.0.0.1") + f":{DEFAULT_PORT}"
    if given == "off":
        return None
    host, _, port = given.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise InvalidOptions(f"expected HOST:PORT or off, got {given!r}")
    return host, int(port)


#: interface names by how likely phones reach the Pi through them: the Wi-Fi (or the Pi's own
#: hotspot, also on the Wi-Fi chip), then a cable, then anything else (a USB tether, a VPN)
PREFERENCE = (("wl", "ap"), ("en", "eth"))


def rank(interface: str) -> int:
    for place, prefixes in enumerate(PREFERENCE):
        if interface.startswith(prefixes):
            return place
    return len(PREFERENCE)


def reachable(address: str) -> bool:
    """An IPv4 address another device on the network can open: not loopback, not link-local
    (169.254.x.x: no DHCP answered), not unspecified."""
    ip = ipaddress.ip_address(address)
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def preferred(found: Iterable[tuple[str, str]]) -> list[str]:
    """The reachable addresses of (interface, address) pairs, the likeliest first (Wi-Fi, then
    a cable, then the rest), each once."""
    ranked = sorted(
        ((rank(name), n, address) for n, (name, address) in enumerate(found)),
        key=lambda item: item[:2],
    )
    out: list[str] = []
    for _rank, _n, address in ranked:
        if reachable(address) and address not in out:
            out.append(address)
    return out


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of this machine's interfaces, read now (ifaddr: getifaddrs)."""
    import ifaddr

    pairs = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):  # IPv4; IPv6 comes as a tuple
                pairs.append((adapter.nice_name, ip.ip))
    return pairs


def browser_address(host: str, port: int) -> str:
    """The address the phones open for a server listening on `host:port`: the host itself, or
    for every interface (0.0.0.0) this machine's likeliest address on the network, read now
    (the Wi-Fi's, a hotspot's); 127.0.0.1 only while no interface has one."""
    shown = host
    if host in ("0.0.0.0", ""):
        found = preferred(interface_addresses())
        shown = found[0] if found else "127.0.0.1"
    return f"http://{shown}:{port}/"


def by_name(address: str, name: str) -> str:
    """`address` (http://10.42.0.1:8421/) with `name` (armata.local) for its host."""
    parts = urlsplit(address)
    host = f"{name}:{parts.port}" if parts.port else name
    return urlunsplit(parts._replace(netloc=host))
