"""The game against the table: what each room should show (platform, rotation, the figure on the
platform's centre) and every way the readers say it does not.

A difference is a value naming the room, the reader, what the table shows and what the game
holds; nothing here raises for odd input (an unregistered tag, a card on a centre, one platform
seen in two rooms are differences like any other). What the readers cannot know is never
compared: a platform without registered rim tags, a figure without a tag, an unknown reader.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.app.table.sensing import UNKNOWN, RoomSensed
from companion.app.table.taps import PlatformReading, platform_reading
from companion.engine.fortress import Fortress
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState
from companion.store.nfc import Binding
from firmware_bridge.tags import CENTRE_READER, RIM_READER

Lookup = Callable[[str], Binding | None]
Tagged = Callable[[str], bool]  # does this platform / figure carry registered tags?

FIGURE_KINDS = ("hero", "strigoi")


@dataclass(frozen=True)
class RoomExpected:
    """What one room should show. `platform` is None in the centre room and after a collapse."""

    room: str
    cutout: bool  # a room that holds a platform (until it collapses)
    platform: str | None
    rotation: int | None
    figure: str | None  # a hero id or a Strigoi figure ("master", "apprentice") on the centre
    reader_direction: int = 0  # the absolute direction of the edge over the room node's reader


def strigoi_figure(state: GameState, name: str) -> str:
    """The figure on the table for a Strigoi in the state ("supreme" is the flipped card's)."""
    if name == "supreme":
        return state.supreme or name
    return name


def expected_from_game(rules: GameRules, state: GameState) -> dict[str, RoomExpected]:
    fortress = rules.fortress
    on_centre: dict[str, str] = {}
    for name, where in state.strigoi.items():
        on_centre[where] = strigoi_figure(state, name)
    for hero in state.heroes:
        here = fortress.room_at(hero.at) if hero.at is not None else None
        if here is not None and hero.at == fortress.centre(here):
            on_centre[here] = hero.hero
    out = {}
    for room_id, room in fortress.rooms.items():
        gone = room_id in state.collapsed
        has = room.platform is not None and not gone
        out[room_id] = RoomExpected(
            room_id,
            room.platform is not None,
            room.platform if has else None,
            state.rotations.get(room_id, room.rotation) if has else None,
            None if gone else on_centre.get(room_id),
            room.orientation,
        )
    return out


def expected_from_layout(fortress: Fortress) -> dict[str, RoomExpected]:
    """A fortress as set up, before a game: platforms at their rotations, no figure."""
    return {
        room_id: RoomExpected(
            room_id,
            room.platform is not None,
            room.platform,
            room.rotation if room.platform is not None else None,
            None,
            room.orientation,
        )
        for room_id, room in fortress.rooms.items()
    }


class Kind(StrEnum):
    ROTATION = "rotation"  # the right platform, turned otherwise
    NO_PLATFORM = "no_platform"  # no rim tag where the game has a platform
    STILL_THERE = "still_there"  # a platform where the game has collapsed it
    WRONG_PLATFORM = "wrong_platform"  # another platform than the game's
    PLATFORM_TWICE = "platform_twice"  # one platform read in two rooms
    UNKNOWN_TAG = "unknown_tag"  # a tag nobody registered
    FOREIGN_TAG = "foreign_tag"  # a card on the rim reader, a platform tag on a centre...
    FIGURE_MISSING = "figure_missing"  # nothing on a centre the game put a figure on
    WRONG_FIGURE = "wrong_figure"  # another figure than the game's
    EXTRA_FIGURE = "extra_figure"  # a figure on a centre the game has empty


@dataclass(frozen=True)
class Difference:
    room: str
    reader: int  # RIM_READER or CENTRE_READER
    kind: Kind
    table: str | int | None  # what the table shows: platform, rotation, figure, uid, kind:target
    game: str | int | None  # what the game holds there
    since: float = 0.0  # when the readers first showed it (the tracker keeps it across updates)
    elsewhere: str | None = None  # WRONG_PLATFORM: the game's room of the platform read here

    @property
    def key(self) -> tuple[str, int]:
        return (self.room, self.reader)

    def same(self, other: Difference) -> bool:
        """The same difference (whatever its `since`)."""
        return (self.key, self.kind, self.table, self.game) == (
            other.key,
            other.kind,
            other.table,
            other.game,
        )


def compare(
    expected: Mapping[str, RoomExpected],
    sensed: Mapping[str, RoomSensed],
    lookup: Lookup,
    rim_tagged: Tagged,
    figure_tagged: Tagged,
) -> list[Difference]:
    """Every difference between the game and what the readers show, room by room."""
    platforms_seen: Counter[str] = Counter()
    readings = {}
    for room, seen in sensed.items():
        uid = seen.rim.value
        binding = lookup(uid) if isinstance(uid, str) else None
        reading = (
            platform_reading(binding, expected[room].reader_direction)
            if binding is not None and room in expected
            else None
        )
        readings[room] = (binding, reading)
        if reading is not None and expected[room].cutout:
            platforms_seen[reading.platform] += 1
    home = {x.platform: x.room for x in expected.values() if x.platform is not None}
    found: list[Difference] = []
    for room, want in expected.items():
        sensed_room = sensed.get(room)
        if sensed_room is None:
            continue
        seen = sensed_room
        if want.cutout:
            binding, reading = readings[room]
            rim = _rim(want, seen, binding, reading, platforms_seen, home, rim_tagged)
            if rim is not None:
                found.append(rim)
        centre = _centre(want, seen, lookup, figure_tagged)
        if centre is not None:
            found.append(centre)
    return found


def _rim(
    want: RoomExpected,
    seen: RoomSensed,
    binding: Binding | None,
    reading: PlatformReading | None,
    platforms_seen: Counter[str],
    home: Mapping[str, str],
    rim_tagged: Tagged,
) -> Difference | None:
    value, room = seen.rim.value, want.room
    if value is UNKNOWN:
        return None
    if value is None:
        if want.platform is not None and rim_tagged(want.platform):
            return Difference(room, RIM_READER, Kind.NO_PLATFORM, None, want.platform)
        return None
    if binding is None:
        return Difference(room, RIM_READER, Kind.UNKNOWN_TAG, value, want.platform)
    if reading is None:
        table = f"{binding.kind}:{binding.target}"
        return Difference(room, RIM_READER, Kind.FOREIGN_TAG, table, want.platform)
    if platforms_seen[reading.platform] > 1:
        return Difference(room, RIM_READER, Kind.PLATFORM_TWICE, reading.platform, want.platform)
    if want.platform is None:
        return Difference(room, RIM_READER, Kind.STILL_THERE, reading.platform, None)
    if reading.platform != want.platform:
        return Difference(
            room,
            RIM_READER,
            Kind.WRONG_PLATFORM,
            reading.platform,
            want.platform,
            elsewhere=home.get(reading.platform),
        )
    if reading.rotation != want.rotation:
        return Difference(room, RIM_READER, Kind.ROTATION, reading.rotation, want.rotation)
    return None


def _centre(
    want: RoomExpected, seen: RoomSensed, lookup: Lookup, figure_tagged: Tagged
) -> Difference | None:
    value, room = seen.centre.value, want.room
    if value is UNKNOWN:
        return None
    if value is None:
        if want.figure is not None and figure_tagged(want.figure):
            return Difference(room, CENTRE_READER, Kind.FIGURE_MISSING, None, want.figure)
        return None
    binding = lookup(value)
    if binding is None:
        return Difference(room, CENTRE_READER, Kind.UNKNOWN_TAG, value, want.figure)
    if binding.kind not in FIGURE_KINDS:
        table = f"{binding.kind}:{binding.target}"
        return Difference(room, CENTRE_READER, Kind.FOREIGN_TAG, table, want.figure)
    if binding.target == want.figure:
        return None
    if want.figure is None:
        return Difference(room, CENTRE_READER, Kind.EXTRA_FIGURE, binding.target, None)
    return Difference(room, CENTRE_READER, Kind.WRONG_FIGURE, binding.target, want.figure)
