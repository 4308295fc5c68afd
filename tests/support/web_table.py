"""A table service on its own thread with the table view's web server, as the tests and
benchmarks/web.py use it: the service's `post` runs calls on that thread (as Kivy's clock does
on the touchscreen), and `call` runs one there and waits for its result."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from companion.app.devices.voice import Silent
from companion.app.service import TableService
from companion.app.web.feed import WebFeed
from tests.support.processes import limit
from ui.web.guard import Limits
from ui.web.server import TableWebServer

T = TypeVar("T")


class WebTable:
    def __init__(
        self,
        data: Path,
        port: int = 0,
        host: str = "127.0.0.1",
        limits: Limits | None = None,
        always: Sequence[str] = (),
    ) -> None:
        """`always`: languages the feed builds with no phone following (a test that reads the
        snapshot itself); none, as on the table, by default."""
        self.always = tuple(always)
        self._calls: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="service", daemon=True)
        self._thread.start()
        self.server = TableWebServer(host, port, limits)
        self.service: TableService = self.call(lambda: self._open(data))

    def _open(self, data: Path) -> TableService:
        self.feed = WebFeed(
            self.server, self.post, lambda command: self.service.execute(command), self.always
        )
        self.server.choose = self.feed.request_choice
        service = TableService(data, self.post, speaker=Silent(), web=self.feed)
        service.start()
        return service

    @property
    def address(self) -> str:
        return self.feed.address

    def _run(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            if not self._closed:  # what the nodes post after the close finds nothing open
                call()

    def post(self, call: Callable[[], None]) -> None:
        self._calls.put(call)

    def call(self, fn: Callable[[], T], timeout: float = 30.0) -> T:
        """Run `fn` on the service's thread; its result (or its exception) here."""
        done = threading.Event()
        box: list[object] = []

        def run() -> None:
            try:
                box.append(fn())
            except BaseException as error:  # re-raised on the caller's thread
                box.append(error)
            done.set()

        self.post(run)
        if not done.wait(timeout):
            raise TimeoutError("the service's thread did not answer")
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]  # type: ignore[return-value]

    def wound_first_hero(self, tokens: tuple[str, ...]) -> str:
        """The first hero takes these wound tokens (a Fix, as a player corrects the game);
        the hero's id."""
        from companion.engine.game import commands as c

        session = self.service.session
        assert session is not None
        hero = self.call(lambda: session.state.heroes[0].hero)
        for token in tokens:
            wound = c.AddWound(hero=hero, token=token)
            outcome = self.call(lambda wound=wound: self.service.execute(wound))  # type: ignore[misc]
            assert outcome.refused is None, outcome.refused
        self.settle()
        return hero

    def settle(self) -> None:
        """Wait until every call posted so far (the feed's view builds too) has run."""
        self.call(lambda: None)
        self.call(lambda: None)
        self.server.sync()

    def close(self) -> None:
        if self._thread.is_alive():
            self.call(self._close)
            self._calls.put(None)
            self._thread.join(limit(10))

    def stop_server(self) -> None:
        """The web server goes away (the service and the game go on)."""
        self.server.stop()

    def start_server(self) -> None:
        """A new web server on the same port, as after a restart: the feed sends it the views."""
        server = TableWebServer(self.server.host, self.server.port)
        server.choose = self.feed.request_choice
        self.server = server
        self.feed.server = server
        self.call(self.feed.start)
        self.server.sync()

    def _close(self) -> None:
        self.service.close()
        self._closed = True

    def __enter__(self) -> WebTable:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
