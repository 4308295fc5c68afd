"""The phones' server within bounds (issue 38): how many connections and streams it holds, how
long a request may take to arrive, and how fast a seat may send choices.

aiohttp has no cap on connections and no timeout for a request's headers (its keep-alive time
only counts between requests), so the guard sits in front of aiohttp's protocol: each accepted
connection is counted per client address and in all before aiohttp sees it, and a connection
that does not finish a request's headers within `Limits.header_s` is closed. A connection over
a cap is answered with a short "too many phones" page and closed at once; the refusals are
counted and said in the log as one line every `REPORT_S`, never a line per connection.

The totals follow the process's file limit (`budget`): the web server keeps its share below a
quarter of the soft limit, so the touchscreen, its fonts, the game log, the voice and the serial
ports always find a file to open."""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from aiohttp import web

from companion.app.web.address import InvalidOptions  # the layers: ui/web sees only companion.app

log = logging.getLogger(__name__)

#: what a refusal counts as in the totals ("": a detail of another count)
Kind = Literal["refused", "closed", ""]
#: how often one address is told "too many phones" (the others of a flood are closed unanswered)
ANSWER_AGAIN_S = 1.0
#: how long a refused connection's client has to read the answer and close
REFUSED_S = 3.0
#: how long it has at least before a newer one takes its place
READ_S = 1.0
#: places to tell an address "too many phones" the first time (beside `Limits.refusing`)
FIRST_CONTACT = 16
#: how often counted refusals are said in the log (one line, never one per connection)
REPORT_S = 30.0

TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/html; charset=utf-8\r\n"
    b"Cache-Control: no-store\r\n"
    b"Retry-After: 10\r\n"
    b"X-Content-Type-Options: nosniff\r\n"
    b"X-Frame-Options: DENY\r\n"
    b"Referrer-Policy: no-referrer\r\n"
    b"Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; "
    b"frame-ancestors 'none'\r\n"
    b"Connection: close\r\n"
)
#: seconds before the page over the cap asks again by itself
TOO_MANY_RETRY_S = 10
#: the page a phone over the cap gets (before its request is read, so in all four languages;
#: dark like the table's page; it tries again by itself)
TOO_MANY_PAGE = f"""<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{TOO_MANY_RETRY_S}">
<title>Armata Strigoi</title></head>
<body style="font: 20px sans-serif; margin: 1.5em; background: #111; color: #eee">
<h1 style="font-size: 1.5em">Too many phones · Zu viele Handys · Troppi telefoni ·
Trop de téléphones</h1>
<p lang="en">Too many pages are open on this table right now, perhaps many on one device. This
page tries again by itself every {TOO_MANY_RETRY_S} seconds; closing the table's page where it
is no longer needed makes room.</p>
<p lang="de">Gerade sind zu viele Seiten dieses Tisches offen, vielleicht viele auf einem
Gerät. Diese Seite versucht es alle {TOO_MANY_RETRY_S} Sekunden von selbst wieder; wer die Seite
des Tisches schließt, wo sie nicht mehr gebraucht wird, macht Platz.</p>
<p lang="it">In questo momento ci sono troppe pagine aperte su questo tavolo, forse molte su un
solo dispositivo. Questa pagina riprova da sola ogni {TOO_MANY_RETRY_S} secondi; chiudere la
pagina del tavolo dove non serve più libera posto.</p>
<p lang="fr">Trop de pages sont ouvertes sur cette table en ce moment, peut-être beaucoup sur un
seul appareil. Cette page réessaie d'elle-même toutes les {TOO_MANY_RETRY_S} secondes ; fermer
la page de la table là où elle ne sert plus libère de la place.</p>
</body></html>
""".encode()


@dataclass(frozen=True)
class Limits:
    """The server's bounds. A table has a handful of phones, each with one page: one stream and
    now and then a request for a file or a choice, so a few connections an address suffice."""

    connections: int = 200  # open connections in all (see `budget`)
    per_address: int = 16  # open connections from one client address (a browser opens 6)
    streams: int = 48  # open event streams in all
    streams_per_address: int = 6  # a phone with the table's page and a seat's, and more
    header_s: float = 10.0  # a request's headers, and the next request on a kept connection
    body_s: float = 5.0  # a choice's body once its headers arrived
    write_s: float = 15.0  # a stream's write to a client that stopped reading: then dropped
    choices_per_s: float = 2.0  # a seat's choices, a second on average ...
    choices_burst: int = 6  # ... with this many at once
    refusing: int = 128  # refused connections being told "too many"; beyond: closed unanswered


def budget(limits: Limits | None = None) -> Limits:
    """`limits` (by default: as `ARMATA_WEB_PAGES_PER_ADDRESS` says) with the totals at most a
    quarter of the process's soft file limit."""
    limits = limits if limits is not None else from_environment()
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limits
    share = max(16, soft // 4)
    connections = min(limits.connections, share)
    return Limits(
        connections=connections,
        per_address=min(limits.per_address, connections),
        streams=min(limits.streams, connections),
        streams_per_address=min(limits.streams_per_address, limits.per_address),
        header_s=limits.header_s,
        body_s=limits.body_s,
        write_s=limits.write_s,
        choices_per_s=limits.choices_per_s,
        choices_burst=limits.choices_burst,
        refusing=min(limits.refusing, share // 2),
    )


#: how many pages one address may keep open (streams), for a machine that shows the table to
#: many pages itself or phones behind one router's address (NAT); connections follow
PAGES_ENV = "ARMATA_WEB_PAGES_PER_ADDRESS"


def from_environment() -> Limits:
    """The default limits, with `ARMATA_WEB_PAGES_PER_ADDRESS=N` if set (N streams from one
    address and 2N + 4 connections, at least the defaults)."""
    given = os.environ.get(PAGES_ENV, "").strip()
    if not given:
        return Limits()
    try:
        pages = int(given)
    except ValueError:
        raise InvalidOptions(f"{PAGES_ENV}: expected a whole number, got {given!r}") from None
    if pages < 1:
        raise InvalidOptions(f"{PAGES_ENV}: expected 1 or more, got {pages}")
    default = Limits()
    return replace(
        default,
        streams_per_address=pages,
        per_address=max(default.per_address, 2 * pages + 4),
        streams=max(default.streams, pages),
    )


class Refusals:
    """Counts of what was refused, by reason, said in the log at most once every `REPORT_S`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.counts: Counter[str] = Counter()
        #: the totals another thread may read (the Hardware screen): refused as too many or too
        #: fast, and closed as too slow
        self.refused = 0
        self.closed = 0
        self._clock = clock
        self._told: Counter[str] = Counter()
        self._last = float("-inf")

    def count(self, reason: str, kind: Kind = "") -> None:
        self.counts[reason] += 1
        if kind == "refused":
            self.refused += 1
        elif kind == "closed":
            self.closed += 1
        now = self._clock()
        if now - self._last >= REPORT_S:
            self._last = now
            fresh = self.counts - self._told
            self._told = self.counts.copy()
            said = ", ".join(f"{n} {why}" for why, n in sorted(fresh.items()))
            log.warning("the phones' server refused: %s (in %.0f s at most)", said, REPORT_S)


class Connection(asyncio.Protocol):
    """aiohttp's protocol for one connection, counted and timed by the guard."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.address = ""
        self.transport: asyncio.Transport | None = None
        self._deadline: asyncio.TimerHandle | None = None

    # ----- the guard's own ----------------------------------------------------------------------
    def arm(self) -> None:
        """Start the clock for a request's headers (on a new or a kept connection)."""
        self.disarm()
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self.guard.limits.header_s, self._too_slow)

    def disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.guard.refusals.count("slow requests closed", "closed")
        if self.transport is not None:
            self.transport.abort()

    # ----- asyncio's protocol, passed on to aiohttp ----------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.address = _address_of(transport)
        self.guard.opened(self)
        self.arm()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        self.guard.closed(self)
        self.inner.connection_lost(exc)


class Refused(asyncio.Protocol):
    """A connection over a cap: answered "too many phones" and closed."""

    def __init__(self, guard: ConnectionGuard) -> None:
        self.guard = guard
        self.transport: asyncio.Transport | None = None
        self._give_up: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        room = self.guard.answers_refused(_address_of(transport))
        if not room:
            self.guard.refusals.count("closed unanswered: told lately")
            transport.abort()  # a flood: not even an answer
            return
        if not self.guard.telling(self, room):
            self.guard.refusals.count("closed unanswered: too many being told")
            transport.abort()
            return
        self.transport = transport
        transport.write(TOO_MANY + b"Content-Length: %d\r\n\r\n" % len(TOO_MANY_PAGE))
        transport.write(TOO_MANY_PAGE)
        # the answer, then the end of it; the client closes once it has read it. Closing here
        # while its request is unread would reset the connection and lose the answer.
        transport.write_eof()
        self._give_up = asyncio.get_running_loop().call_later(REFUSED_S, transport.abort)

    def data_received(self, data: bytes) -> None:
        pass  # the request of a refused connection is read and dropped

    def eof_received(self) -> bool:
        return False  # the client has read the answer and closed: close this side too

    def connection_lost(self, exc: Exception | None) -> None:
        if self._give_up is not None:
            self._give_up.cancel()
        self.guard.told(self)


class ConnectionGuard:
    """Counts connections and streams per client address and in all; makes the protocols."""

    def __init__(
        self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = limits if limits is not None else budget()
        self.refusals = Refusals()
        #: refused connections being told "too many phones", the oldest first
        self._telling: dict[Refused, float] = {}
        self._clock = clock
        self._answered: dict[str, float] = {}  # address -> when it was last told "too many"
        self._connections: dict[asyncio.BaseTransport, Connection] = {}
        self._per_address: Counter[str] = Counter()
        self._streams: Counter[str] = Counter()

    # ----- connections --------------------------------------------------------------------------
    def protocol_factory(self, make: Callable[[], Any]) -> Callable[[], asyncio.Protocol]:
        """A factory for asyncio's server: aiohttp's protocol (`make`) behind the guard."""

        def accept() -> asyncio.Protocol:
            return Admission(self, make)

        return accept

    @property
    def open(self) -> int:
        return len(self._connections)

    def admits(self, address: str) -> str | None:
        """Why a new connection from `address` is refused, or None."""
        if len(self._connections) >= self.limits.connections:
            return "connections over the cap"
        if self._per_address[address] >= self.limits.per_address:
            return "connections over the cap of one address"
        return None

    def opened(self, connection: Connection) -> None:
        assert connection.transport is not None
        self._connections[connection.transport] = connection
        self._per_address[connection.address] += 1

    def closed(self, connection: Connection) -> None:
        transport = connection.transport
        if transport is not None and transport in self._connections:
            del self._connections[transport]
            self._per_address[connection.address] -= 1
            if self._per_address[connection.address] <= 0:
                del self._per_address[connection.address]

    def answers_refused(self, address: str) -> int:
        """How many refused connections may be told "too many phones" at once if this one from
        `address` is (0: it is not). An address is told once every `ANSWER_AGAIN_S` (a phone
        that reloads is told; a flood from one address is closed unanswered). An address told
        for the first time (a phone that just came) has `FIRST_CONTACT` places of its own, so
        a flood's addresses cannot take every place."""
        now = self._clock()
        told = self._answered.get(address)
        if told is not None and now - told < ANSWER_AGAIN_S:
            return 0
        if len(self._answered) > 4096:
            self._answered = {a: t for a, t in self._answered.items() if now - t < 600}
        self._answered[address] = now
        return self.limits.refusing + (FIRST_CONTACT if told is None else 0)

    @property
    def refusing(self) -> int:
        return len(self._telling)

    def telling(self, refused: Refused, room: int) -> bool:
        """Whether `refused` may be told, with `room` places in all: room is made by closing
        the oldest being told, unless it had less than `READ_S` to read its answer (a burst:
        then the new one is not told)."""
        now = self._clock()
        while len(self._telling) >= room:
            oldest, since = next(iter(self._telling.items()))
            if now - since < READ_S:
                return False
            del self._telling[oldest]
            self.refusals.count("closed for a newer one being told")
            if oldest.transport is not None:
                oldest.transport.abort()
        self._telling[refused] = now
        return True

    def told(self, refused: Refused) -> None:
        self._telling.pop(refused, None)

    def connection_of(self, request: web.BaseRequest) -> Connection | None:
        transport = request.transport
        return None if transport is None else self._connections.get(transport)

    # ----- streams ------------------------------------------------------------------------------
    def stream_refusal(self, address: str) -> str | None:
        if sum(self._streams.values()) >= self.limits.streams:
            return "streams over the cap"
        if self._streams[address] >= self.limits.streams_per_address:
            return "streams over the cap of one address"
        return None

    def stream_opened(self, address: str) -> None:
        self._streams[address] += 1

    def stream_closed(self, address: str) -> None:
        self._streams[address] -= 1
        if self._streams[address] <= 0:
            del self._streams[address]

    # ----- requests -----------------------------------------------------------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """A request whose headers arrived stops its connection's clock; the clock starts again
        for the next request once this one is answered."""
        connection = self.connection_of(request)
        if connection is not None:
            connection.disarm()
        try:
            response: web.StreamResponse = await handler(request)
            return response
        finally:
            transport = None if connection is None else connection.transport
            if connection is not None and transport is not None and not transport.is_closing():
                connection.arm()


class Admission(asyncio.Protocol):
    """The first protocol of an accepted connection: admitted ones become a `Connection`
    (aiohttp behind the guard), the others `Refused`. Chosen in `connection_made`, the first
    moment the client's address is known."""

    def __init__(self, guard: ConnectionGuard, make: Callable[[], Any]) -> None:
        self.guard = guard
        self.make = make
        self.chosen: asyncio.Protocol | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = _address_of(transport)
        why = self.guard.admits(address)
        if why is None:
            self.chosen = Connection(self.guard, self.make())
        else:
            self.guard.refusals.count(why, "refused")
            self.chosen = Refused(self.guard)
        self.chosen.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        assert self.chosen is not None
        self.chosen.data_received(data)

    def eof_received(self) -> bool | None:
        assert self.chosen is not None
        return self.chosen.eof_received()

    def pause_writing(self) -> None:
        assert self.chosen is not None
        self.chosen.pause_writing()

    def resume_writing(self) -> None:
        assert self.chosen is not None
        self.chosen.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.chosen is not None:
            self.chosen.connection_lost(exc)


class ChoiceRate:
    """A seat's choices: `Limits.choices_burst` at once, then `choices_per_s` on average (a
    token bucket per seat token)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # token -> (tokens left, when)

    def allows(self, key: str) -> bool:
        now = self._clock()
        left, when = self._buckets.get(key, (float(self.limits.choices_burst), now))
        refill = (now - when) * self.limits.choices_per_s
        left = min(float(self.limits.choices_burst), left + refill)
        if left < 1.0:
            self._buckets[key] = (left, now)
            return False
        self._buckets[key] = (left - 1.0, now)
        if len(self._buckets) > 4096:  # tokens of long-ended games
            self._buckets = dict(list(self._buckets.items())[-1024:])
        return True


def _address_of(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


class GuardedSite(web.TCPSite):
    """aiohttp's TCP site with every accepted connection passed through `guard`."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, guard: ConnectionGuard) -> None:
        super().__init__(runner, host, port, reuse_address=True, backlog=128)
        self.guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self.guard.protocol_factory(server),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=self._reuse_address,
        )


__all__ = ["ChoiceRate", "ConnectionGuard", "GuardedSite", "Limits", "Refusals", "budget"]
