"""What the table shows, as the room nodes' readers see it (hardware/README.md, tag layout).

Each room node has reader 0 under the platform's rim (a rim tag names the platform and, by its
edge, the rotation) and reader 1 under the platform's centre (a figure's tag). A hand turning a
platform moves edge after edge over the reader, and a tag may flicker; so every reader's value is
debounced: a reading counts once it has stayed `settle_s` (about half a second).

A reader's value is a uid, `None` (nothing on it) or `UNKNOWN` (its node has not spoken since it
started, or is offline): what is unknown is never compared with the game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from firmware_bridge import protocol as p
from firmware_bridge.board import room_node
from firmware_bridge.tags import CENTRE_READER, RIM_READER

SETTLE_S = 0.5


class Unknown(Enum):
    """The type of `UNKNOWN`: a reader whose value is not known (never read, node offline)."""

    UNKNOWN = "unknown"


UNKNOWN: Final = Unknown.UNKNOWN
Reading = str | None | Unknown  # a uid, nothing on the reader, or not known


@dataclass(frozen=True)
class Sensed:
    """One reader's settled value and since when it holds."""

    value: Reading
    since: float


class ReaderTrack:
    """One reader, debounced: the raw value counts once it has not changed for `settle_s`."""

    def __init__(self, settle_s: float) -> None:
        self.settle_s = settle_s
        self.raw: Reading = UNKNOWN
        self.raw_since = 0.0
        self.settled = Sensed(UNKNOWN, 0.0)

    def saw(self, value: Reading, now: float) -> None:
        if value == self.raw:
            return
        self.settled = self.value(now)  # the old raw value, if it had settled by now
        self.raw, self.raw_since = value, now

    def value(self, now: float) -> Sensed:
        if now - self.raw_since >= self.settle_s and self.raw != self.settled.value:
            return Sensed(self.raw, self.raw_since + self.settle_s)
        return self.settled

    def pending_until(self, now: float) -> float | None:
        """When the raw value will have settled, if it is still on its way."""
        if self.raw != self.settled.value and now - self.raw_since < self.settle_s:
            return self.raw_since + self.settle_s
        return None


@dataclass(frozen=True)
class RoomSensed:
    room: str
    rim: Sensed  # reader 0: a rim tag's uid
    centre: Sensed  # reader 1: a figure's uid


class SensedTable:
    """Consumes every room node's reader events; `view(now)` is the table as it shows now.

    Not thread-safe: feed it from one thread (the app's table watch, or a test)."""

    def __init__(
        self,
        rooms: Iterable[str],
        settle_s: float = SETTLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settle_s = settle_s
        self.clock = clock
        self.room_of_node: dict[str, str] = {room_node(r): r for r in rooms}
        self._tracks: dict[tuple[str, int], ReaderTrack] = {
            (room, reader): ReaderTrack(settle_s)
            for room in self.room_of_node.values()
            for reader in (RIM_READER, CENTRE_READER)
        }
        self._readers: dict[str, int] = {}  # room -> readers its node has (from its hello)

    def feed(self, message: p.Message, now: float | None = None) -> bool:
        """Take one node message; True when it concerned a room's reader."""
        room = self.room_of_node.get(message.node)
        if room is None:
            return False
        now = self.clock() if now is None else now
        match message:
            case p.Hello(readers=readers):
                # a (re)started node: its readers start at "nothing" and report what rests on
                # them right after the Pi greets it (the firmware and the simulator both do)
                self._readers[room] = readers
                for reader in (RIM_READER, CENTRE_READER):
                    track = self._tracks[(room, reader)]
                    track.settled = Sensed(UNKNOWN, now)
                    track.raw = UNKNOWN
                    track.saw(None if reader < readers else UNKNOWN, now)
            case p.Status(state="offline"):
                self.offline(room, now)
            case p.TagPresent(reader=reader, uid=uid) if reader in (RIM_READER, CENTRE_READER):
                self._tracks[(room, reader)].saw(uid.lower(), now)
            case p.TagRemoved(reader=reader, uid=uid) if reader in (RIM_READER, CENTRE_READER):
                track = self._tracks[(room, reader)]
                if track.raw == uid.lower():
                    track.saw(None, now)
            case _:
                return False
        return True

    def offline(self, room: str, now: float) -> None:
        """The room's node is gone (unplugged, will received): its readers are unknown."""
        for reader in (RIM_READER, CENTRE_READER):
            track = self._tracks[(room, reader)]
            track.raw = UNKNOWN
            track.settled = Sensed(UNKNOWN, now)

    def offline_node(self, node: str, now: float | None = None) -> None:
        room = self.room_of_node.get(node)
        if room is not None:
            self.offline(room, self.clock() if now is None else now)

    def room(self, room: str, now: float | None = None) -> RoomSensed:
        now = self.clock() if now is None else now
        return RoomSensed(
            room,
            self._tracks[(room, RIM_READER)].value(now),
            self._tracks[(room, CENTRE_READER)].value(now),
        )

    def view(self, now: float | None = None) -> Mapping[str, RoomSensed]:
        now = self.clock() if now is None else now
        return {room: self.room(room, now) for room in self.room_of_node.values()}

    def wake_at(self, now: float | None = None) -> float | None:
        """The next time a reading settles (nothing else changes the view without input)."""
        now = self.clock() if now is None else now
        times = [t for track in self._tracks.values() if (t := track.pending_until(now))]
        return min(times, default=None)
