"""The simulated table's hands (the embedded default's board, firmware_bridge/sim_table.py): what
a player would do at the table, given as values and done one after another on one thread of
their own. Turning a platform takes a moment (edge after edge over its reader), so no screen
and not the service's thread waits for it; the hands never read the game."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from firmware_bridge.sim_table import SimTable

log = logging.getLogger(__name__)

MoveKind = Literal["turn", "bump", "take_out", "put_back", "put_figure", "lift_figure"]


@dataclass(frozen=True)
class HandMove:
    """One thing a hand does at one room: turn the platform by `way` edges (+1 anticlockwise),
    bump it, take it out, put it back (`platform` at `rotation`), set `figure` on the centre
    or lift what stands there."""

    kind: MoveKind
    room: str
    way: int = 0
    platform: str = ""
    rotation: int = 0
    figure: str = ""


@dataclass(frozen=True)
class Arrangement:
    """The whole table set up as the game says: each room's platform (None: out) and its
    rotation, and what stands on each centre."""

    platforms: Mapping[str, tuple[str | None, int]]
    figures: Mapping[str, str | None] = field(default_factory=dict)


Work = HandMove | Arrangement


@dataclass(frozen=True)
class SimulatedRoom:
    """What one room of the simulated table holds now: its platform (None: out) turned by
    `rotation`, and the figure on its centre."""

    platform: str | None
    rotation: int
    figure: str | None


class SimulatedHands:
    """One pair of hands over a SimTable: `give` queues a move; the thread starts with the
    first one and ends with `close` (idempotent)."""

    def __init__(self, table: SimTable) -> None:
        self.table = table
        # a move, a marker set once what stood before it is done, or None: stop
        self._work: queue.Queue[Work | threading.Event | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def give(self, work: Work) -> bool:
        """Queue `work` (False once closed)."""
        if self._closed:
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="simulated hands", daemon=True)
            self._thread.start()
        self._work.put(work)
        return True

    def idle(self, timeout: float) -> bool:
        """Wait until every move given so far is done (True) or `timeout` passed."""
        if self._thread is None or self._closed:
            return True
        done = threading.Event()
        self._work.put(done)
        return done.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Finish what the hands hold (for at most `timeout`), then stop."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._work.put(None)
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            work = self._work.get()
            if work is None:
                return
            if isinstance(work, threading.Event):
                work.set()
            else:
                self._do(work)

    def _do(self, work: Work) -> None:
        table = self.table
        if isinstance(work, Arrangement):
            table.arrange(work.platforms, work.figures)
            return
        room = table.rooms.get(work.room)
        if room is None:
            log.warning("no room %r on the simulated table", work.room)
            return
        if work.kind == "turn":
            table.turn(work.room, room.rotation + work.way)
        elif work.kind == "bump":
            table.bump(work.room)
        elif work.kind == "take_out":
            table.remove_platform(work.room)
        elif work.kind == "put_back":
            table.put_platform(work.room, work.platform, work.rotation)
        elif work.kind == "put_figure":
            table.put_figure(work.room, work.figure)
        else:
            table.lift_figure(work.room)


__all__ = ["Arrangement", "HandMove", "MoveKind", "SimulatedHands", "SimulatedRoom"]
