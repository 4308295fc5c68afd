"""The Pi's name on the local network, `<hostname>.local` (issue 41, item 1): Pi OS runs Avahi,
which answers for that name by multicast DNS, and most phones and laptops resolve it. It is shown
beside the table's numeric address (which the codes keep: not every phone resolves `.local`).

The name counts only when this machine resolves it to one of its own reachable addresses: an
answer for another machine of the same name, or none at all, shows nothing. A lookup can take
seconds when nobody answers, so it runs on the Wi-Fi worker's thread, never the service's."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Collection

from companion.app.web.address import interface_addresses, preferred

log = logging.getLogger(__name__)

SUFFIX = ".local"


def name_on_the_network(hostname: str) -> str:
    """`armata` becomes `armata.local`; a name with a domain keeps only its first label."""
    first = hostname.strip().split(".", 1)[0]
    return f"{first}{SUFFIX}" if first else ""


def resolved(name: str) -> set[str]:
    """The IPv4 addresses the system's resolver gives for `name` (nss-mdns, /etc/hosts, …)."""
    try:
        answers = socket.getaddrinfo(name, None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        log.debug("%s does not resolve: %s", name, error)
        return set()
    return {str(answer[4][0]) for answer in answers}


def local_name(
    hostname: Callable[[], str] = socket.gethostname,
    ours: Callable[[], Collection[str]] = lambda: preferred(interface_addresses()),
    lookup: Callable[[str], set[str]] = resolved,
) -> str:
    """This machine's `<hostname>.local` when it resolves to one of its reachable addresses,
    else "" (blocking: call it off the service's thread)."""
    name = name_on_the_network(hostname())
    if not name:
        return ""
    mine = set(ours())
    return name if mine and lookup(name) & mine else ""
