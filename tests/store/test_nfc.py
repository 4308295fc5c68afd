"""NFC registry on a real SQLite file, the one-tap-per-placement filter and tap to register."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlite_utils import Database

from companion.app.table.taps import AlreadyBound, Registered, Registration, TapFilter
from companion.errors import TagError
from companion.store.gamelog import GameLog
from companion.store.nfc import Binding, NfcRegistry
from firmware_bridge import protocol as p


@pytest.fixture
def registry(tmp_path: Path) -> NfcRegistry:
    return NfcRegistry(Database(tmp_path / "companion.db"))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def present(uid: str, node: str = "cards", reader: int = 0, seq: int = 1) -> p.TagPresent:
    return p.TagPresent(seq=seq, node=node, reader=reader, uid=uid)


def removed(uid: str, node: str = "cards", reader: int = 0, seq: int = 2) -> p.TagRemoved:
    return p.TagRemoved(seq=seq, node=node, reader=reader, uid=uid)


def test_bindings_survive_reopening_and_refuse_a_second_component(tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    first = NfcRegistry(Database(path))
    first.bind("04AABBCC", "action_card", "roel-1")
    first.bind("04aabbcc", "action_card", "roel-1")  # the same again: fine
    first.db.conn.close()
    again = NfcRegistry(Database(path))
    assert again.lookup("04aabbcc") == Binding("04aabbcc", "action_card", "roel-1")
    with pytest.raises(TagError, match="already names action_card 'roel-1'"):
        again.bind("04aabbcc", "hero", "roel")
    with pytest.raises(TagError, match="unknown component kind"):
        again.bind("01020304", "sandwich", "x")
    assert again.unbind("04aabbcc") and not again.unbind("04aabbcc")
    assert again.lookup("04aabbcc") is None


def test_the_registry_shares_the_game_database(tmp_path: Path) -> None:
    with GameLog(tmp_path / "game.db") as log:
        registry = NfcRegistry(log.db)
        registry.bind("0a0b0c0d", "platform", "NE")
        registry.bind("0a0b0c0e", "platform", "NE")
        assert registry.tags_of("platform", "NE") == ["0a0b0c0d", "0a0b0c0e"]


def test_one_tap_per_card_placement(registry: NfcRegistry) -> None:
    registry.bind("04aabbcc", "action_card", "roel-1")
    clock = Clock()
    taps = TapFilter(registry, same_card_window_s=1.5, clock=clock)
    first = taps.feed(present("04aabbcc"))
    assert first is not None and first.binding == Binding("04aabbcc", "action_card", "roel-1")
    assert taps.feed(present("04aabbcc", seq=3)) is None  # resting: read again
    assert taps.feed(removed("04aabbcc")) is None
    clock.now += 0.5
    assert taps.feed(present("04aabbcc", seq=4)) is None  # flicker: put straight back
    assert taps.feed(removed("04aabbcc", seq=5)) is None
    clock.now += 2.0
    assert taps.feed(present("04aabbcc", seq=6)) is not None  # played again later: a new tap
    other = taps.feed(present("04aabbcc", reader=1, seq=7))  # the other reader: its own tap
    assert other is not None and other.reader == 1


def test_unknown_tags_are_taps_without_binding(registry: NfcRegistry) -> None:
    tap = TapFilter(registry).feed(present("deadbeef"))
    assert tap is not None and tap.binding is None
    assert TapFilter(registry).feed(p.Button(seq=1, node="cards", button="x", pressed=True)) is None


def test_tap_to_register_binds_the_next_unknown_tag_and_flags_duplicates(
    registry: NfcRegistry,
) -> None:
    registry.bind("11111111", "action_card", "attila-2")
    taps = TapFilter(registry)
    registration = Registration(registry)
    assert registration.on_tap(taps.feed(present("22222222")) or _fail()) is None  # not asked
    registration.ask("action_card", "roel-3")
    duplicate = registration.on_tap(taps.feed(present("11111111", reader=1)) or _fail())
    assert isinstance(duplicate, AlreadyBound)
    assert duplicate.existing.target == "attila-2" and registration.waiting_for is not None
    done = registration.on_tap(taps.feed(present("33333333", node="room-c")) or _fail())
    assert done == Registered(Binding("33333333", "action_card", "roel-3"))
    assert registration.waiting_for is None
    assert registry.lookup("33333333") is not None


def _fail() -> object:
    raise AssertionError("expected a tap")


@pytest.mark.parametrize("reader_direction", range(6))
@pytest.mark.parametrize("rotation", range(6))
def test_a_rim_tag_tells_the_platform_and_its_rotation(
    registry: NfcRegistry, rotation: int, reader_direction: int
) -> None:
    """Edge k is the sticker beside book k; turned r steps it faces direction k + r (the books'
    rule of BOARD-FORMAT.md), so the sticker over the reader names the rotation."""
    from companion.app.table.taps import PlatformReading, platform_reading
    from companion.boardfile import load_board_file
    from firmware_bridge.tags import rim_edge

    edge = rim_edge(rotation, reader_direction)
    assert (edge + rotation) % 6 == reader_direction  # that sticker is the one over the reader
    fortress = load_board_file()
    room = next(r for r in fortress.rooms.values() if r.platform is not None)
    books = fortress.platforms[room.id].books
    state = fortress.initial_state().rotated(room.id, rotation)
    assert fortress.book_direction(room.id, books[edge], state) == reader_direction
    registry.bind(f"550000{edge:02d}", "platform", f"{room.platform}:{edge}")
    binding = registry.lookup(f"550000{edge:02d}")
    assert binding is not None
    assert platform_reading(binding, reader_direction) == PlatformReading(
        room.platform or "", rotation
    )


def test_tags_that_are_no_rim_tag_read_as_nothing() -> None:
    from companion.app.table.taps import platform_reading

    assert platform_reading(Binding("x", "platform", "p3")) is None
    assert platform_reading(Binding("x", "platform", "p3:7")) is None
    assert platform_reading(Binding("x", "hero", "roel")) is None


def test_the_rim_edges_still_missing_are_listed_in_order(registry: NfcRegistry) -> None:
    from companion.app.table.taps import rim_edges_missing, rim_target

    assert rim_edges_missing(registry, "p2") == [0, 1, 2, 3, 4, 5]
    registry.bind("66000000", "platform", rim_target("p2", 0))
    registry.bind("66000003", "platform", rim_target("p2", 3))
    registry.bind("66000009", "platform", rim_target("p9", 1))  # another platform's
    assert rim_edges_missing(registry, "p2") == [1, 2, 4, 5]
