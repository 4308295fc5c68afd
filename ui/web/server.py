"""The table view's web server: aiohttp on its own thread and asyncio loop, Server-Sent Events.

It imports only companion.app (the layer test holds it to that) and never touches the game: the
table service's feed (companion/app/web/feed.py) pushes ready-made JSON views (`Snapshot`), and
a phone's card choice goes back to the feed, which checks and runs it on the service's thread.

Routes (docs/web-view.md):
  GET  /                      the page (the table view)
  GET  /seat/{token}          the same page, a seat's view (the token is the secret)
  GET  /static/{file}         the page's script and style (served from ui/web/static)
  GET  /events?lang=xx        the table view, as SSE (`view` whole when the stream opens, then
                              `patch`: only the parts that changed; `ping` every 2 s)
  GET  /events/seat/{token}?lang=xx   one seat's view (403 and the reason for a token that ended)
  POST /api/seat/{token}/choose       {"card": "<id>"}: the secret card choice of that seat
Nothing else is accepted; every refusal says why and changes nothing. The server keeps within
bounds (ui/web/guard.py: connections, streams, slow requests, a seat's pace) and answers only to
the table's own names, with headers that keep other sites out (ui/web/names.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import msgspec
from aiohttp import web

from companion.app.web.address import browser_address
from companion.app.web.feed import (
    DEFAULT_PORT,
    REFUSALS,
    PendingChoice,
    Reply,
    Snapshot,
    WebLoad,
)
from companion.app.web.seats import TOKEN_FORM
from companion.app.words.i18n import LANGUAGES, catalog
from ui.web.guard import ChoiceRate, ConnectionGuard, GuardedSite, Limits, Refusals
from ui.web.names import add_security_headers, host_check, own_names

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
PING_S = 2.0
#: a phone's request is a few dozen bytes; anything bigger is refused unread
MAX_BODY = 1024
#: how long a phone's choice waits for the table service to take it; not taken by then, it is
#: withdrawn and the phone told so (a choice the service took is always answered by its result)
ANSWER_S = 5.0
#: how long a taken choice may take to play before the phone is told "sent, waiting"
PLAYING_S = 60.0

#: the feed's entry for a phone's choice: (token, card, language, reply, option) -> its pending
#: choice
Choose = Callable[[str, str, str, Callable[[Reply], None], str], PendingChoice]


#: what a chat or a mail client glues to the end of a link it shows (a full stop, a bracket)
COPIED_TAIL = ".,;:!?)]}>'\"*"


class Choice(msgspec.Struct, forbid_unknown_fields=True):
    """A card to play this round, or an option of the seat's private decision (its key)."""

    card: str = ""
    option: str = ""


_CHOICE = msgspec.json.Decoder(Choice)


def said(language: str, key: str) -> str:
    """A refusal of companion/app/web/feed.py in the phone's language."""
    message = REFUSALS[key]
    return catalog(language).gettext(message)


class Viewer:
    """One open stream: its language and seat, woken when a new snapshot arrives."""

    def __init__(self, language: str, token: str | None) -> None:
        self.language = language
        self.token = token
        self.wake = asyncio.Event()
        self.closing = False


class TableWebServer:
    """Serve the table view on `host:port` (port 0: any free port; a busy port: any free one,
    said in the log). `choose` is the feed's `request_choice`, set before `start`."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        limits: Limits | None = None,
        names: Iterable[str] = (),
    ) -> None:
        self.host = host
        self.port = port
        self.guard = ConnectionGuard(limits)
        self.names = own_names(names)
        self._rate = ChoiceRate(self.guard.limits)
        self.choose: Choose | None = None
        #: the feed's `want`: a stream opened in a language the snapshot lacks (set by the feed)
        self.want: Callable[[str], None] | None = None
        self.snapshot = Snapshot(0, {})
        self.boot = secrets.token_hex(4)  # a new server, a new id: the page sees a restart
        self.refused = 0  # requests refused (malformed, unknown token, not allowed)
        self.streams_opened = 0
        #: view version -> when its last stream write ended (time.time(); benchmarks/web.py)
        self.written: dict[int, float] = {}
        self._viewers: set[Viewer] = set()
        #: the frames of the snapshot being sent, made once for all viewers: (kind, language)
        self._frames: dict[tuple[str, str], bytes] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopping: asyncio.Event | None = None
        self.address = ""

    # ----- lifecycle ---------------------------------------------------------------------------
    def start(self) -> str:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(self._loop_fault)
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._open())
            except BaseException as error:  # reported to start's caller
                failure.append(error)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_until_complete(self._serve())
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="table-web", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self.address

    def current_address(self) -> str:
        """The address phones open, read again now (the Wi-Fi or a hotspot may have come up
        since the start); "" before the start."""
        if not self.address:
            return ""
        self.address = browser_address(self.host, self.port)
        return self.address

    def _loop_fault(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        """asyncio's own errors (a refused accept, a reset socket) are counted and said in the
        log now and then, never a traceback each: a flood must not fill the SD card."""
        self.guard.refusals.count(str(context.get("message", "an error on the server's loop")))

    async def _open(self) -> None:
        app = web.Application(
            client_max_size=MAX_BODY,
            middlewares=[self.guard.middleware, host_check(self.names)],
        )
        app.on_response_prepare.append(add_security_headers)
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/seat/{token}", self._page),
                web.get("/events", self._table_events),
                web.get("/events/seat/{token}", self._seat_events),
                web.post("/api/seat/{token}/choose", self._choose),
                web.static("/static", STATIC),
            ]
        )
        self._runner = web.AppRunner(
            app,
            handle_signals=False,
            shutdown_timeout=1.0,
            access_log=None,  # a line per request is a flood's way to fill the card
            keepalive_timeout=self.guard.limits.header_s,
        )
        await self._runner.setup()
        try:
            site = GuardedSite(self._runner, self.host, self.port, self.guard)
            await site.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE or self.port == 0:
                raise
            log.warning("port %s is taken: the table view takes a free one", self.port)
            site = GuardedSite(self._runner, self.host, 0, self.guard)
            await site.start()
        server = site._server  # aiohttp keeps the asyncio server here; the bound port is in it
        assert server is not None
        self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]
        self.address = browser_address(self.host, self.port)
        self._stopping = asyncio.Event()

    async def _serve(self) -> None:
        assert self._stopping is not None
        await self._stopping.wait()
        for viewer in list(self._viewers):
            viewer.closing = True
            viewer.wake.set()
        assert self._runner is not None
        await self._runner.cleanup()

    def stop(self) -> None:
        """Close every stream and the port (a second call does nothing)."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return
        stopping = self._stopping
        if stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile: nothing to stop
                loop.call_soon_threadsafe(stopping.set)
        thread.join(5.0)
        self._thread = None

    def sync(self, timeout: float = 5.0) -> None:
        """Return once everything pushed so far has been delivered (tests, benchmarks)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            done = threading.Event()
            try:
                loop.call_soon_threadsafe(done.set)
            except RuntimeError:  # the loop ended meanwhile
                return
            done.wait(timeout)

    # ----- the feed's side (the table service's thread) ------------------------------------------
    def push(self, snapshot: Snapshot, then: Callable[[], None] | None = None) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            self.snapshot = snapshot
            if then is not None:
                then()
            return
        try:
            loop.call_soon_threadsafe(self._deliver, snapshot, then)
        except RuntimeError:  # the loop closed meanwhile
            self.snapshot = snapshot
            if then is not None:
                then()

    def _deliver(self, snapshot: Snapshot, then: Callable[[], None] | None = None) -> None:
        self.snapshot = snapshot
        self._frames = {}
        for viewer in self._viewers:
            viewer.wake.set()
        if then is not None:  # after every woken stream's step: each has written its frame
            asyncio.get_running_loop().call_soon(then)

    # ----- pages --------------------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info.get("token")
        if token is not None and not TOKEN_FORM.fullmatch(token):
            clean = token.rstrip(COPIED_TAIL)  # a link copied out of a chat with its full stop
            if clean != token and TOKEN_FORM.fullmatch(clean):
                raise web.HTTPFound(f"/seat/{clean}")
            # else the page itself, whose stream says the link is not known here, in its words
        response = web.FileResponse(STATIC / "index.html")
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the token stays in this page
        return response

    def _language(self, request: web.Request) -> str:
        language = request.query.get("lang", "en")
        return language if language in LANGUAGES else "en"

    async def _table_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, Viewer(self._language(request), None))

    async def _seat_events(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        if isinstance(seat, web.Response):
            return seat
        return await self._stream(request, Viewer(seat[1], seat[0]))

    def _seat(self, request: web.Request) -> tuple[str, str] | web.Response:
        """The request's seat token and language, or the refusal (403, in the page's language)
        of an unknown, revoked or ended link (a malformed one is not known here either), or
        503 for a link whose game is not loaded now (the page waits and asks again)."""
        token = request.match_info["token"]
        language = self._language(request)
        if not TOKEN_FORM.fullmatch(token):  # no token has that form: not known here
            return self._refuse(403, said(language, "unknown"))
        waiting = self.snapshot.waiting.get(token)
        if waiting is not None:  # its game is not loaded (yet): the page asks again by itself
            return self._refuse(503, waiting.get(language, said(language, "paused")))
        why = self._seat_refusal(token, language)
        if why is not None:
            return self._refuse(403, why)
        return token, language

    def _seat_refusal(self, token: str, language: str) -> str | None:
        if token in self.snapshot.seats:
            return None
        ended = self.snapshot.ended.get(token)
        if ended is not None:
            return ended.get(language, ended.get("en", "this seat link has ended"))
        return said(language, "unknown")

    def _view(self, viewer: Viewer) -> bytes | None:
        snapshot = self.snapshot
        if viewer.token is None:
            return snapshot.tables.get(viewer.language)
        views = snapshot.seats.get(viewer.token)
        return None if views is None else views.get(viewer.language)

    def _frame(self, viewer: Viewer, view: bytes, sent: int) -> bytes:
        """The event that brings `viewer` from version `sent` to the snapshot's: a table page
        that has the version before gets the patch, any other page the whole view. A table
        frame is made once for every viewer of its language."""
        snapshot = self.snapshot
        if viewer.token is not None:
            return b"event: view\ndata: " + view + b"\n\n"
        patch = snapshot.patches.get(viewer.language) if sent == snapshot.base else None
        key = ("patch" if patch is not None else "view", viewer.language)
        frame = self._frames.get(key)
        if frame is None:
            data = patch if patch is not None else view
            frame = b"event: " + key[0].encode() + b"\ndata: " + data + b"\n\n"
            self._frames[key] = frame
        return frame

    @property
    def refusals(self) -> Refusals:
        """What the server refused or dropped, by reason (the Hardware screen, the tests)."""
        return self.guard.refusals

    def followed_tokens(self) -> frozenset[str]:
        """The seat tokens an open stream follows now (read from any thread: one C-level copy
        of the set under the GIL)."""
        return frozenset(v.token for v in tuple(self._viewers) if v.token is not None)

    def languages(self) -> frozenset[str]:
        """The languages open streams follow now (read from any thread, as `followed_tokens`):
        the feed builds only these."""
        return frozenset(v.language for v in tuple(self._viewers))

    def _missing(self, viewer: Viewer) -> bool:
        """Whether the snapshot lacks only `viewer`'s language (not built: nobody followed it),
        rather than its seat (ended or unknown)."""
        snapshot = self.snapshot
        if viewer.token is None:
            return viewer.language not in snapshot.tables
        views = snapshot.seats.get(viewer.token)
        return views is not None and viewer.language not in views

    def load(self) -> WebLoad:
        """How many phones follow and what was refused (read from any thread)."""
        refusals = self.guard.refusals
        return WebLoad(len(self._viewers), refusals.refused, refusals.closed)

    async def _stream(self, request: web.Request, viewer: Viewer) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        if request.method == "HEAD":  # the headers only, never the stream's bytes
            await response.prepare(request)
            return response
        address = request.remote or "?"
        why = self.guard.stream_refusal(address)
        if why is not None:
            self.guard.refusals.count(why, "refused")
            return self._refuse(503, said(viewer.language, "phones"))
        await response.prepare(request)
        self._viewers.add(viewer)
        self.guard.stream_opened(address)
        self.streams_opened += 1
        try:
            await self._send(response, f"event: hello\ndata: {self.boot}\n\n".encode())
            sent = -1
            asked = -1  # the snapshot version at which this stream asked for its language
            while not viewer.closing:
                view = self._view(viewer)
                if view is None and self._missing(viewer):
                    if asked != self.snapshot.version and self.want is not None:
                        asked = self.snapshot.version
                        self.want(viewer.language)  # built with the next snapshot
                elif view is None:  # the seat ended (revoked, game over) or the server stops
                    ended = self.snapshot.ended.get(viewer.token or "", {})
                    said_why = json.dumps(ended.get(viewer.language, "")).encode()
                    await self._send(response, b"event: ended\ndata: " + said_why + b"\n\n")
                    break
                elif self.snapshot.version != sent:
                    frame = self._frame(viewer, view, sent)
                    sent = self.snapshot.version
                    await self._send(response, frame)
                    self._written(sent)
                viewer.wake.clear()
                try:
                    async with asyncio.timeout(PING_S):  # no task of its own (as wait_for)
                        await viewer.wake.wait()
                except TimeoutError:
                    ping = f"event: ping\ndata: {self.snapshot.version}\n\n".encode()
                    await self._send(response, ping)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        except _NotReading:
            self.guard.refusals.count("streams dropped: the phone stopped reading", "closed")
            if request.transport is not None:
                request.transport.abort()  # the page reconnects when it reads again
        finally:
            self._viewers.discard(viewer)
            self.guard.stream_closed(address)
        return response

    async def _send(self, response: web.StreamResponse, data: bytes) -> None:
        """Write to a stream; a phone that has not taken it within `write_s` is dropped."""
        try:
            async with asyncio.timeout(self.guard.limits.write_s):  # a hundred streams a
                await response.write(data)  # frame: no task each, as wait_for would make
        except TimeoutError:
            raise _NotReading from None

    def _written(self, version: int) -> None:
        self.written[version] = time.time()
        if len(self.written) > 512:  # only the recent ones matter
            for old in sorted(self.written)[:256]:
                del self.written[old]

    # ----- a phone's choice --------------------------------------------------------------------
    def _refuse(self, status: int, message: str) -> web.Response:
        self.refused += 1
        return web.json_response({"ok": False, "error": message}, status=status)

    async def _choose(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        if isinstance(seat, web.Response):
            return seat
        token, language = seat
        if not self._rate.allows(token):
            self.guard.refusals.count("choices over a seat's pace", "refused")
            return self._refuse(429, said(language, "too_fast"))
        if request.content_type != "application/json":
            return self._refuse(415, 'send JSON: {"card": "<card id>"} or {"option": "<key>"}')
        try:
            body = await asyncio.wait_for(request.read(), self.guard.limits.body_s)
            choice = _CHOICE.decode(body)
        except TimeoutError:
            return self._refuse(408, "the choice did not arrive in time")
        except web.HTTPRequestEntityTooLarge:
            return self._refuse(413, "request too large")
        except msgspec.ValidationError as error:
            return self._refuse(400, f"malformed choice: {error}")
        except msgspec.DecodeError:
            return self._refuse(400, "malformed choice: not JSON")
        if self.choose is None:
            return self._refuse(503, "the table does not take choices from phones")
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Reply] = loop.create_future()

        def settle(result: Reply) -> None:  # on the server's loop
            if not answer.done():  # a late answer after the time-out is dropped
                answer.set_result(result)

        def reply(result: Reply) -> None:  # the service's thread
            loop.call_soon_threadsafe(settle, result)

        if not (choice.card or choice.option):
            return self._refuse(400, 'malformed choice: send {"card": …} or {"option": …}')
        pending = self.choose(token, choice.card, language, reply, choice.option)
        try:
            result = await asyncio.wait_for(asyncio.shield(answer), ANSWER_S)
        except TimeoutError:
            if pending.withdraw():  # never played: the phone may choose again
                return self._refuse(503, said(language, "busy"))
            try:  # the table is playing it now: its result is the answer
                result = await asyncio.wait_for(answer, PLAYING_S)
            except TimeoutError:
                return web.json_response(
                    {"ok": False, "pending": True, "error": said(language, "sent")}, status=202
                )
        if not result.ok:
            return self._refuse(409, result.message)
        return web.json_response({"ok": True})


class _NotReading(Exception):
    """A stream's phone stopped reading: the stream is dropped."""


__all__ = ["DEFAULT_PORT", "TableWebServer", "Viewer"]
