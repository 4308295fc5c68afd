"""The table watch: one thread that owns the table tracker and the LED picture.

Everything reaches it through its queue, from any thread: node messages (the bridge's threads),
the game after each command, undo, redo, resume or new game (the app), and the players' answers
(done by hand, the app is right). After each input, and whenever a reading settles or a
difference becomes old enough to be an alert, it computes the table's status and the LED picture
from them (companion/app/devices/leds.py), sends the rings that changed, and tells the app when the
status changed (`on_status`, called on this thread: the UI posts it to its own).

Headless code, tests and benchmarks drive it exactly as the touchscreen app does.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from companion.app.devices.leds import LedSync, RingShow, table_leds
from companion.app.story.announcement import Announcement
from companion.app.table.differences import Difference, RoomExpected, expected_from_game
from companion.app.table.tracking import Origin, TableStatus, TableTracker
from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState
from firmware_bridge import protocol as p

log = logging.getLogger(__name__)

OnStatus = Callable[[TableStatus], None]


@dataclass(frozen=True)
class GameView:
    """The game as the table must show it, after one change."""

    state: GameState | None
    expected: dict[str, RoomExpected]
    origin: Origin
    announcements: tuple[Announcement, ...] = ()


#: No game on the table: every ring off (before a game, and when the app closes).
NO_GAME = GameView(None, {}, Origin.RESUME)


def game_view(
    rules: GameRules,
    state: GameState,
    origin: Origin,
    announcements: Sequence[Announcement] = (),
) -> GameView:
    return GameView(state, expected_from_game(rules, state), origin, tuple(announcements))


def origin_of(command: c.Command) -> Origin:
    """A correction records the table's reality; any other command moves the game on."""
    return Origin.CORRECTION if isinstance(command, c.CORRECTIONS) else Origin.COMMAND


class TableWatch:
    def __init__(
        self,
        tracker: TableTracker,
        rooms: Sequence[str],
        leds: LedSync | None,
        on_status: OnStatus = lambda status: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tracker = tracker
        self.rooms = list(rooms)
        self.leds = leds
        self.on_status = on_status
        self.clock = clock
        self.status = TableStatus((), (), ())
        self.picture: dict[str, RingShow] = {}  # the LED picture last computed (and sent)
        self._game: GameView | None = None
        self._computed_at = clock()
        self._inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="table watch", daemon=True)
        self._idle = threading.Condition()
        self._busy = 0

    # ----- inputs (any thread) -------------------------------------------------------------------
    def start(self) -> TableWatch:
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        """Handle what was posted (the service's last "no game": every ring off), then end.
        The wait is long enough for a loaded machine; a watch stuck in a bug never holds the
        app's stop for ever."""
        if self._thread.is_alive():
            self._inbox.put(("stop", None))
            self._thread.join(timeout=timeout_s)

    def node_message(self, message: p.Message) -> None:
        self._post("node", message)

    def game(self, view: GameView) -> None:
        self._post("game", view)

    def announcing(self, announcements: Sequence[Announcement]) -> None:
        """The story items the rings tell now (the card showing), the game unchanged."""
        self._post("announcing", tuple(announcements))

    def done_by_hand(self, key: tuple[str, int] | None = None) -> None:
        self._post("by_hand", key)

    def app_is_right(self, difference: Difference) -> None:
        self._post("app_right", difference)

    def refresh(self, force_leds: bool = False) -> None:
        """Compute again now (e.g. a node came back); `force_leds` sends every ring again."""
        self._post("refresh", force_leds)

    def _post(self, kind: str, item: object) -> None:
        with self._idle:
            self._busy += 1
        self._inbox.put((kind, item))

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Block until every input posted so far has been handled (tests, scripts)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout_s)

    # ----- the thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            # the next change as of the last computed status: a reading that settled since then
            # (however shortly) is due at once
            wake = self.tracker.wake_at(self._computed_at)
            timeout = None if wake is None else max(0.0, wake - self.clock())
            try:
                batch = [self._inbox.get(timeout=timeout)]
            except queue.Empty:  # a reading settled or a difference turned into an alert
                self._guarded(lambda: self._update(False))
                continue
            while True:  # everything already waiting, then one update
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            stop = any(kind == "stop" for kind, _ in batch)
            work = [(kind, item) for kind, item in batch if kind != "stop"]
            try:
                force = False
                for kind, item in work:
                    force = bool(self._guarded(partial(self._take, kind, item))) or force
                self._guarded(partial(self._update, force))
            finally:
                with self._idle:
                    self._busy -= len(work)
                    self._idle.notify_all()
            if stop:
                return

    @staticmethod
    def _guarded(step: Callable[[], Any]) -> Any:
        """A bug in one step must not stop the watch: log it and keep watching."""
        try:
            return step()
        except Exception:
            log.exception("table watch step failed")
            return None

    def _take(self, kind: str, item: Any) -> bool:
        now = self.clock()
        if kind == "node":
            self.tracker.feed(item, now)
        elif kind == "game":
            self._game = item
            self.tracker.expect(item.expected, now, item.origin)
            return bool(item.origin in (Origin.NEW_GAME, Origin.RESUME))
        elif kind == "announcing":
            if self._game is not None:
                self._game = replace(self._game, announcements=item)
        elif kind == "by_hand":
            self.tracker.done_by_hand(item)
        elif kind == "app_right":
            self.tracker.app_is_right(item, now)
        elif kind == "refresh":
            return bool(item)
        return False

    def _update(self, force_leds: bool) -> None:
        self._computed_at = self.clock()
        status = self.tracker.status(self._computed_at)
        game = self._game
        if self.leds is not None:
            shows = table_leds(
                self.rooms,
                game.state if game is not None else None,
                game.announcements if game is not None else (),
                status,
            )
            self.leds.show(shows, force=force_leds)
            self.picture = shows
        if status != self.status:
            self.status = status
            self.on_status(status)
