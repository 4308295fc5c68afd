"""The physical table behind a simulated board: which platform lies in each room and how it is
turned, the six stickers under every platform's rim, and the figures standing on the platform
centres, all read by the room nodes' readers as real ones would be (hardware/README.md).

A person (the simulated-table panel of the app) or a test turns a platform, bumps it by an edge,
removes it after a collapse, lifts or sets down a figure; each produces the reader events a real
table produces: a turn passes edge after edge over the rim reader (`step_s` per edge), so the app
sees exactly what a hand turning a platform makes the hardware say.

Uids are made from the names (the same for every simulated table), 7 bytes like NTAG stickers.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from firmware_bridge.board import room_node
from firmware_bridge.node_sim import SimNode
from firmware_bridge.tags import CENTRE_READER, RIM_EDGES, RIM_READER, rim_edge

STEP_S = 0.1  # a hand turns a platform by about one edge in a tenth of a second


def sim_uid(kind: str, name: str) -> str:
    """A simulated sticker's uid: 7 bytes, the first 0x04 as on NTAG stickers."""
    return "04" + hashlib.sha256(f"{kind}:{name}".encode()).hexdigest()[:12]


def rim_uid(platform: str, edge: int) -> str:
    return sim_uid("rim", f"{platform}:{edge}")


def figure_uid(figure: str) -> str:
    return sim_uid("figure", figure)


@dataclass
class SimRoom:
    """One room of the simulated table."""

    platform: str | None  # None: the centre room, or a collapsed (removed) platform
    rotation: int = 0
    reader_direction: int = 0  # the absolute direction of the room edge over its rim reader
    figure: str | None = None  # the figure on the platform's centre
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)


@dataclass(frozen=True)
class Sticker:
    uid: str
    kind: str  # as the app's tag registry names it: platform, hero, strigoi
    target: str


class SimTable:
    def __init__(
        self,
        nodes: Mapping[str, SimNode],
        rooms: Mapping[str, SimRoom],
        figures: Mapping[str, str] | None = None,
        step_s: float = STEP_S,
    ) -> None:
        """`nodes` by node id (a `SimulatedBoard`'s, or nodes on MQTT wires); `rooms` by room
        id; `figures` maps each figure with a sticker to its registry kind (`hero`, `strigoi`)."""
        self.nodes = nodes
        self.rooms = dict(rooms)
        self.figures = dict(figures or {})
        self.step_s = step_s
        self.platforms = sorted({r.platform for r in self.rooms.values() if r.platform})

    # ----- what the table carries --------------------------------------------------------------
    def stickers(self) -> list[Sticker]:
        """Every sticker of the simulated table, for the app's tag registry."""
        rims = [
            Sticker(rim_uid(platform, edge), "platform", f"{platform}:{edge}")
            for platform in self.platforms
            for edge in range(RIM_EDGES)
        ]
        return rims + [Sticker(figure_uid(f), kind, f) for f, kind in sorted(self.figures.items())]

    def node(self, room: str) -> SimNode:
        return self.nodes[room_node(room)]

    def rim_uid_of(self, room_id: str) -> str | None:
        """The uid of the rim sticker over the room's reader now (None: no platform)."""
        return self._rim_uid(self.rooms[room_id])

    def _rim_uid(self, room: SimRoom) -> str | None:
        if room.platform is None:
            return None
        return rim_uid(room.platform, rim_edge(room.rotation, room.reader_direction))

    def place_all(self) -> None:
        """Put every platform and figure on its readers (as the table stands at start)."""
        for room_id, room in self.rooms.items():
            with room.lock:
                self._show(room_id, room)

    def _show(self, room_id: str, room: SimRoom) -> None:
        node = self.node(room_id)
        uid = self._rim_uid(room)
        if node.tags.get(RIM_READER) != uid:
            node.remove_tag(RIM_READER)
            if uid is not None:
                node.place_tag(uid, RIM_READER)
        figure = figure_uid(room.figure) if room.figure in self.figures else None
        if node.tags.get(CENTRE_READER) != figure:
            node.remove_tag(CENTRE_READER)
            if figure is not None:
                node.place_tag(figure, CENTRE_READER)

    # ----- what a person does at the table ------------------------------------------------------
    def turn(self, room_id: str, rotation: int) -> None:
        """Turn the platform by hand, the short way round, edge after edge over the reader."""
        room = self.rooms[room_id]
        with room.lock:
            if room.platform is None:
                return
            for step in self._steps(room.rotation, rotation % RIM_EDGES):
                self._step_to(room_id, room, step)

    @staticmethod
    def _steps(start: int, end: int) -> Iterator[int]:
        delta = (end - start) % RIM_EDGES
        way = 1 if delta <= RIM_EDGES // 2 else -1
        current = start
        while current != end:
            current = (current + way) % RIM_EDGES
            yield current

    def _step_to(self, room_id: str, room: SimRoom, rotation: int) -> None:
        node = self.node(room_id)
        node.remove_tag(RIM_READER)
        time.sleep(self.step_s / 2)  # between two stickers the reader sees nothing
        room.rotation = rotation
        uid = self._rim_uid(room)
        if uid is not None:
            node.place_tag(uid, RIM_READER)
        time.sleep(self.step_s / 2)

    def bump(self, room_id: str, edges: int = 1) -> None:
        """An elbow knocks the platform by `edges` (one edge passes the reader)."""
        room = self.rooms[room_id]
        with room.lock:
            if room.platform is not None:
                self._step_to(room_id, room, (room.rotation + edges) % RIM_EDGES)

    def remove_platform(self, room_id: str) -> str | None:
        """Take the platform out (a collapse, R-COL-1): its rim sticker leaves the reader, and
        a figure on its centre comes off with it."""
        room = self.rooms[room_id]
        with room.lock:
            gone, room.platform, room.figure = room.platform, None, None
            self._show(room_id, room)
        return gone

    def put_platform(self, room_id: str, platform: str, rotation: int) -> None:
        room = self.rooms[room_id]
        with room.lock:
            room.platform, room.rotation = platform, rotation % RIM_EDGES
            self._show(room_id, room)

    def put_figure(self, room_id: str, figure: str) -> None:
        """Set a figure on the room's centre (the one standing there before is lifted; the
        figure leaves any other centre it stood on)."""
        for other_id, other in self.rooms.items():
            if other_id != room_id and other.figure == figure:
                self.lift_figure(other_id)
        room = self.rooms[room_id]
        with room.lock:
            room.figure = figure
            self._show(room_id, room)

    def lift_figure(self, room_id: str) -> str | None:
        room = self.rooms[room_id]
        with room.lock:
            lifted, room.figure = room.figure, None
            self._show(room_id, room)
        return lifted

    def arrange(
        self,
        platforms: Mapping[str, tuple[str | None, int]],
        figures: Mapping[str, str | None] | None = None,
    ) -> None:
        """Set the table up as asked: each room's platform (None: removed) and rotation, and
        optionally what stands on each centre. Platforms already in place are turned by hand."""
        for room_id, (platform, rotation) in platforms.items():
            room = self.rooms[room_id]
            if platform is not None and platform == room.platform:
                self.turn(room_id, rotation)
            elif platform is None:
                if room.platform is not None:
                    self.remove_platform(room_id)
            else:
                self.put_platform(room_id, platform, rotation)
        for room_id, figure in (figures or {}).items():
            if figure is None:
                self.lift_figure(room_id)
            else:
                self.put_figure(room_id, figure)

    def stand_as(
        self,
        platforms: Mapping[str, tuple[str | None, int]],
        figures: Mapping[str, str | None],
    ) -> None:
        """The table as it was left (a restarted app finds it so): each room's platform (None:
        removed) at its rotation and the figure on each centre, all at once, no hand turning
        (a real table keeps what stands on it while the app is away). Rooms not named keep
        what they hold."""
        for room_id, room in self.rooms.items():
            with room.lock:
                if room_id in platforms:
                    platform, rotation = platforms[room_id]
                    room.platform, room.rotation = platform, rotation % RIM_EDGES
                if room_id in figures:
                    room.figure = figures[room_id]
                self._show(room_id, room)

    def showing(self) -> dict[str, dict[str, object]]:
        """The table as plain data (for the screen and the tests)."""
        return {
            room_id: {"platform": r.platform, "rotation": r.rotation, "figure": r.figure}
            for room_id, r in sorted(self.rooms.items())
        }
