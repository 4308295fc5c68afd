"""Only the table's own names, and the headers every answer carries (issue 38).

A page elsewhere can make its own name point at the Pi's address (DNS rebinding); the browser
then sends that name as `Host`, and without a check the page would be the table's own origin and
could read the live view. So a request is answered only when its Host is a name of this table:
an address written as numbers (a rebinding page is always reached by a name, never by the
numbers), `localhost` and the names under it, this machine's hostname and `<hostname>.local`
(Avahi on Pi OS), and the names the owner adds (`ARMATA_WEB_NAMES`, comma separated, or
`serve --web-name`).
Anything else gets 421 and nothing of the table."""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable
from typing import Any

from aiohttp import web
from yarl import URL

#: names the owner adds, e.g. "armata.home,table.lan"
NAMES_ENV = "ARMATA_WEB_NAMES"

#: on every answer: the page's own script, style, stream and images only; never in a frame
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a seat's token stays in its page
}


def own_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this table answers to, lower case, besides addresses written as numbers."""
    host = socket.gethostname().lower().rstrip(".")
    names = {"localhost", host, f"{host}.local"}
    names |= {n for n in os.environ.get(NAMES_ENV, "").split(",")}
    names |= set(extra)
    return frozenset(n.strip().lower().rstrip(".") for n in names if n.strip())


def host_name(value: str) -> str:
    """The name or address of a Host value, without its port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8080
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allowed(host: str, names: frozenset[str]) -> bool:
    """`host` is an address, one of `names`, or under `.localhost` (which browsers resolve to
    this machine themselves, never asking a name server a page could control)."""
    name = host_name(host)
    return bool(name) and (is_address(name) or name in names or name.endswith(".localhost"))


def host_check(names: frozenset[str]) -> Any:
    """A middleware: 421 for a request whose Host, or whose absolute-form target, is not one
    of `names` or an address."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        hosts = [request.headers.get("Host", "")]
        target = request.raw_path  # absolute-form: GET http://name/ HTTP/1.1
        if not target.startswith("/"):
            hosts.append(URL(target).raw_host or "")
        if not all(allowed(host, names) for host in hosts):
            return web.json_response(
                {"ok": False, "error": "this table answers only to its own names"}, status=421
            )
        response: web.StreamResponse = await handler(request)
        return response

    return middleware


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """aiohttp's `on_response_prepare`: every answer, files and refusals included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


__all__ = [
    "NAMES_ENV",
    "SECURITY_HEADERS",
    "add_security_headers",
    "allowed",
    "host_check",
    "own_names",
]
