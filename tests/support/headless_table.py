"""Test helper: the headless table (`serve`'s loop) running on its own thread, which owns the
table service and its SQLite connection; the test reads the game in memory and runs what
touches the log on the loop (`on_loop`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from companion.app.devices.voice import Silent
from companion.app.headless import HeadlessTable
from companion.app.service import TableService
from tests.support.processes import limit


@dataclass
class ServedTable:
    table: HeadlessTable
    said: list[str]  # every sentence the table said, in order
    loop: threading.Thread

    def on_loop(self, call: Callable[[], object]) -> None:
        """Run `call` on the table's loop and wait for it."""
        done = threading.Event()
        self.table.post(lambda: (call(), done.set()))
        assert done.wait(limit(20))


@contextmanager
def headless_table(data: Path) -> Iterator[ServedTable]:
    """A headless table on the data folder `data`, silent (its sentences recorded); stopped,
    and its loop ended, on leaving."""
    said: list[str] = []
    made: list[HeadlessTable] = []

    class Heard(Silent):
        """The voice: the story's items (the announcer's) join the table's own sentences."""

        def say(self, text: str, language: str) -> None:
            super().say(text, language)
            said.append(text)

    def serve() -> None:
        table = HeadlessTable(lambda post: TableService(data, post, speaker=Heard()), said.append)
        made.append(table)
        try:
            table.run()
        finally:
            table.service.close()

    loop = threading.Thread(target=serve, daemon=True)
    loop.start()
    deadline = time.monotonic() + limit(10)
    while not made:
        assert time.monotonic() < deadline, "the headless table did not start"
        time.sleep(0.02)
    try:
        yield ServedTable(made[0], said, loop)
    finally:
        made[0].stop()
        loop.join(limit(10))
    assert not loop.is_alive()
