"""The `collections N` script: games played by touch while another thread allocates (as the table
watch, the serial readers and the web server's thread do, only more), every collection of
Python's cycle collector recorded with the thread that ran it and, when that is not Kivy's, the
Kivy objects it freed (ui/collector.py says why none may run elsewhere)."""

from __future__ import annotations

import gc
import threading
import weakref
from collections import Counter
from contextlib import suppress
from typing import Any

from tests.ui_driver.bench import rest
from tests.ui_driver.driver import Driver


def kivy_made(thing: object) -> bool:
    """A Kivy object, or one of the app's widgets (made of Kivy's)."""
    module = type(thing).__module__ or ""
    return module.startswith(("kivy.", "ui."))


class Collections:
    """What each collection ran on and, off Kivy's thread, which Kivy objects it freed."""

    def __init__(self) -> None:
        self.runs: Counter[tuple[str, int]] = Counter()
        self.elsewhere: list[dict[str, Any]] = []
        self._watching: dict[int, tuple[int, list[tuple[Any, str]]]] = {}
        self.recording = True

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if not self.recording:
            return
        thread = threading.current_thread()
        if thread is threading.main_thread():
            if phase == "start":
                self.runs[(thread.name, info["generation"])] += 1
            return
        if phase == "start":
            generation = info["generation"]
            self.runs[(thread.name, generation)] += 1
            kivy: list[tuple[Any, str]] = []
            for young in range(generation + 1):  # what this collection looks at
                for thing in gc.get_objects(young):
                    if kivy_made(thing):
                        with suppress(TypeError):  # no weak reference to it: not counted
                            kivy.append((weakref.ref(thing), type(thing).__qualname__))
            self._watching[thread.ident or 0] = (generation, kivy)
        else:
            watched = self._watching.pop(thread.ident or 0, None)
            if watched is None:  # began before the recording did
                return
            generation, kivy = watched
            freed = Counter(name for ref, name in kivy if ref() is None)
            self.elsewhere.append(
                {
                    "thread": thread.name,
                    "generation": generation,
                    "collected": info["collected"],
                    "kivy_freed": dict(freed.most_common(8)),
                }
            )


def busy(stop: threading.Event) -> None:
    """A thread that allocates as a reader does: small containers, again and again."""
    while not stop.is_set():
        frames = [{"node": n, "payload": [n, n + 1]} for n in range(200)]
        del frames
        stop.wait(0.002)


def collections_while_playing(driver: Driver, games: int, steps: int, seed: int) -> None:
    app = driver.app
    record = Collections()
    stop = threading.Event()
    other = threading.Thread(target=busy, args=(stop,), name="busy reader", daemon=True)

    def begin() -> None:
        gc.callbacks.append(record)
        other.start()

    def play(left: int = steps) -> None:
        session = app.session
        if left > 0 and session is not None and session.state.phase != "over":
            driver.play_one()
            driver.queue.insert(0, lambda: play(left - 1))

    def report() -> None:
        record.recording = False
        stop.set()
        other.join(2)
        gc.callbacks.remove(record)
        kivy_elsewhere = Counter[str]()
        for run in record.elsewhere:
            kivy_elsewhere.update(run["kivy_freed"])
        driver.report["collections"] = {
            "runs": [[thread, generation, n] for (thread, generation), n in record.runs.items()],
            "elsewhere": record.elsewhere[:20],
            "elsewhere_count": len(record.elsewhere),
            "kivy_freed_elsewhere": dict(kivy_elsewhere.most_common(12)),
            "automatic": gc.isenabled(),
        }

    driver.then(begin)
    for game in range(games):

        def new_game(game: int = game) -> None:
            app.new_game(seed + game)

        driver.then(new_game)
        driver.then(play)
        driver.then(lambda: app.show("home"))
        driver.then(lambda: rest(driver, 2.5))  # the idle release after a game
    driver.then(report)
