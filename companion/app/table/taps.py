"""From NFC reader events to player taps, and the "tap to register" flow.

A card resting on a reader is read again and again (and may flicker off and on); players mean
one tap. `TapFilter` yields one `Tap` per placement: a tag reported again while it rests, or put
back within `same_card_window_s` of being lifted, is not a new tap. Unknown tags are taps too,
with no binding: the app asks what they are (`Registration`), nothing crashes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import TagError
from companion.store.nfc import Binding, NfcRegistry
from firmware_bridge import protocol as p
from firmware_bridge.tags import RIM_EDGES, rotation_of

SAME_CARD_WINDOW_S = 1.5


@dataclass(frozen=True)
class Tap:
    node: str
    reader: int
    uid: str
    binding: Binding | None  # None: an unknown tag


class TapFilter:
    def __init__(
        self,
        registry: NfcRegistry,
        same_card_window_s: float = SAME_CARD_WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry
        self.window = same_card_window_s
        self.clock = clock
        self._resting: dict[tuple[str, int], str] = {}
        self._lifted: dict[tuple[str, int], tuple[str, float]] = {}

    def feed(self, message: p.Message) -> Tap | None:
        """A tap for a new placement; None for everything else (repeats, removals, others)."""
        if isinstance(message, p.TagRemoved):
            place = (message.node, message.reader)
            if self._resting.get(place) == message.uid:
                del self._resting[place]
                self._lifted[place] = (message.uid, self.clock())
            return None
        if not isinstance(message, p.TagPresent):
            return None
        place = (message.node, message.reader)
        uid = message.uid.lower()
        if self._resting.get(place) == uid:
            return None  # still resting: read again
        self._resting[place] = uid
        lifted = self._lifted.pop(place, None)
        if lifted is not None and lifted[0] == uid and self.clock() - lifted[1] < self.window:
            return None  # lifted and put straight back: the same tap
        return Tap(message.node, message.reader, uid, self.registry.lookup(uid))


@dataclass(frozen=True)
class Registered:
    binding: Binding


@dataclass(frozen=True)
class AlreadyBound:
    """The tapped tag already names a component: flagged, nothing changed."""

    uid: str
    existing: Binding
    wanted: tuple[str, str]


class Registration:
    """Tap to register: the next tap binds its tag to the component the app is asking about."""

    def __init__(self, registry: NfcRegistry) -> None:
        self.registry = registry
        self.waiting_for: tuple[str, str] | None = None

    def ask(self, kind: str, target: str) -> None:
        self.waiting_for = (kind, target)

    def cancel(self) -> None:
        self.waiting_for = None

    def on_tap(self, tap: Tap) -> Registered | AlreadyBound | None:
        if self.waiting_for is None:
            return None
        kind, target = self.waiting_for
        if tap.binding is not None and (tap.binding.kind, tap.binding.target) != (kind, target):
            return AlreadyBound(tap.uid, tap.binding, (kind, target))
        try:
            binding = self.registry.bind(tap.uid, kind, target)
        except TagError:  # bound meanwhile by another reader: report it like a duplicate
            existing = self.registry.lookup(tap.uid)
            assert existing is not None
            return AlreadyBound(tap.uid, existing, (kind, target))
        self.waiting_for = None
        return Registered(binding)


def rim_target(platform: str, edge: int) -> str:
    """The binding target of a platform's rim tag at `edge` (0-5)."""
    return f"{platform}:{edge}"


def rim_edges_missing(registry: NfcRegistry, platform: str) -> list[int]:
    """The edges of `platform` whose rim tag is not registered yet, in order."""
    return [
        edge
        for edge in range(RIM_EDGES)
        if not registry.tags_of("platform", rim_target(platform, edge))
    ]


@dataclass(frozen=True)
class PlatformReading:
    platform: str
    rotation: int  # 0-5, as in BOARD-FORMAT.md


def platform_reading(binding: Binding, reader_direction: int = 0) -> PlatformReading | None:
    """Which platform lies in a room and how it is turned, from the rim tag its room node reads.

    Each platform carries six rim tags bound as `platform` / `<platform id>:<edge 0-5>`; edge `k`
    is the sticker at the platform's own direction `k`, beside its book `books[k]`
    (hardware/README.md, tag layout). The reader sits under the room's edge that faces absolute
    direction `reader_direction`; a platform turned `r` steps brings edge `k` to direction
    `k + r` (BOARD-FORMAT.md), so the edge over the reader says `r = reader_direction - k`.
    """
    if binding.kind != "platform":
        return None
    platform, _, edge = binding.target.rpartition(":")
    if not platform or not edge.isdigit() or not 0 <= int(edge) <= 5:
        return None
    return PlatformReading(platform, rotation_of(int(edge), reader_direction))


class TagIndex:
    """An in-memory copy of the tag registry for threads other than the one that owns the
    database (the table watch): `refresh()` on the owner's thread after each registration swaps
    in a new copy at once."""

    def __init__(self, registry: NfcRegistry) -> None:
        self.registry = registry
        self._by_uid: dict[str, Binding] = {}
        self._targets: frozenset[tuple[str, str]] = frozenset()
        self.refresh()

    def refresh(self) -> None:
        bindings = self.registry.bindings()
        self._by_uid = {b.uid: b for b in bindings}  # one assignment each: readers see old or new
        self._targets = frozenset((b.kind, b.target) for b in bindings)

    def lookup(self, uid: str) -> Binding | None:
        return self._by_uid.get(uid.lower())

    def rim_tagged(self, platform: str) -> bool:
        """Does any rim sticker of this platform carry a registered tag?"""
        targets = self._targets
        return any(("platform", rim_target(platform, edge)) in targets for edge in range(RIM_EDGES))

    def figure_tagged(self, figure: str) -> bool:
        targets = self._targets
        return ("hero", figure) in targets or ("strigoi", figure) in targets
