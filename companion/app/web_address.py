"""Where the table view in browsers listens (--web of `python -m ui` and `serve`): a module of
its own, so reading the options imports nothing of the table view (companion/app/web_feed.py
and what it shows: the engine, the store)."""

from __future__ import annotations

from companion.errors import InvalidOptions

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
