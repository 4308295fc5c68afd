"""Every LED ring as a function of the game: one picture of the whole table, computed from the
state, the announcements of the command that made it, and the table's open actions and alerts.

Nothing is patched incrementally: after a Strigoi leaves a room, an undo, a redo, a resume or a
new game the picture is computed again and `LedSync` sends each node only what changed, "off"
included, so no ring stays lit that the state does not explain.

What a ring shows, most important first:
1. an alert in the room (a lasting difference): the ring pulses amber;
2. an action the table must do there: a turn lights the target edge (the edge book `books[0]`
   must face, chasing) on a dim white ring; a collapse pulses red; a figure to place pulses in
   its colour (a Strigoi's), one to take off chases;
3. the announcement of the last command: a Strigoi's landing pulses in its colour with the
   attack line's edges chasing, a curse pulses violet, a collapse red (docs/protocol.md);
4. otherwise a room with a Strigoi glows dim in its colour; every other ring is off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.app.story.announce import STRIGOI_COLOUR
from companion.app.story.announcement import COLLAPSE_COLOUR, CURSE_COLOUR, Announcement, LedCue
from companion.app.table.tracking import Step, TableStatus
from companion.app.words.i18n import N_
from companion.engine.game.state import GameState
from firmware_bridge.board import room_node
from firmware_bridge.bridge import Bridge

ALERT_COLOUR = "#ffb000"
GUIDE_COLOUR = "#00c0ff"
DIM_WHITE = "#ffffff"
HERO_COLOUR = "#40ff40"


@dataclass(frozen=True)
class Light:
    colour: str = "#000000"
    pattern: str = "off"  # steady | pulse | chase | off
    brightness: int = 0


OFF = Light()


@dataclass(frozen=True)
class RingShow:
    """What one node's ring shows: the whole ring, and segments painted over it."""

    ring: Light = OFF
    segments: tuple[tuple[int, Light], ...] = ()


#: what each ring colour the app lights means, for the board's legend (companion/app/words/i18n.py
#: translates; the Strigoi by the names their cards print)
RING_MEANINGS: dict[str, str] = {
    CURSE_COLOUR: N_("Curse"),
    COLLAPSE_COLOUR: N_("Collapse"),
    ALERT_COLOUR: N_("Table differs"),
    GUIDE_COLOUR: N_("Book to this edge"),
    DIM_WHITE: N_("Turn this platform"),
    HERO_COLOUR: N_("Place a figure"),
}
#: a Strigoi's colour: its ring (where it stands, lands, or must be placed) is told in the
#: legend by its own figure, drawn with a ring of that colour
STRIGOI_RINGS: dict[str, str] = {colour: name for name, colour in STRIGOI_COLOUR.items()}


def show_cue(bridge: Bridge, cue: LedCue) -> int:
    """Send one LED cue to its node through the bridge (acknowledged, remembered)."""
    return bridge.set_led(
        cue.node,
        target=cue.target,
        direction=cue.direction,
        colour=cue.colour,
        pattern=cue.pattern,
        brightness=cue.brightness,
    )


def _figure_colour(figure: str | None) -> str:
    return STRIGOI_COLOUR.get(figure or "", HERO_COLOUR)


def _from_cues(cues: Iterable[LedCue]) -> dict[str, RingShow]:
    shows: dict[str, RingShow] = {}
    for cue in cues:
        light = Light(cue.colour, cue.pattern, cue.brightness)
        show = shows.get(cue.node, RingShow())
        if cue.target == "ring":
            shows[cue.node] = RingShow(light)
        elif cue.direction is not None:
            segments = dict(show.segments)
            segments[cue.direction] = light
            shows[cue.node] = RingShow(show.ring, tuple(sorted(segments.items())))
    return shows


def table_leds(
    rooms: Iterable[str],
    state: GameState | None,
    announcements: Sequence[Announcement] = (),
    status: TableStatus | None = None,
) -> dict[str, RingShow]:
    """The ring of every room node, as the game and the table's open business say."""
    shows: dict[str, RingShow] = {room_node(r): RingShow() for r in rooms}
    if state is not None and state.phase != "over":
        for name, room in state.strigoi.items():
            colour = STRIGOI_COLOUR.get(name, "#c00000")
            shows[room_node(room)] = RingShow(Light(colour, "steady", 40))
    for node, show in _from_cues(c for a in announcements for c in a.leds).items():
        if node in shows:
            shows[node] = show
    if status is not None:
        for action in status.actions:
            node = room_node(action.room)
            if node not in shows:
                continue
            if action.step in (Step.TURN, Step.SET_UP, Step.RESTORE_PLATFORM):
                edge = guide_edge(action.rotation or 0)
                shows[node] = RingShow(
                    Light(DIM_WHITE, "steady", 40), ((edge, Light(GUIDE_COLOUR, "chase", 255)),)
                )
            elif action.step == Step.REMOVE_PLATFORM:
                shows[node] = RingShow(Light("#ff0000", "pulse", 255))
            elif action.step == Step.PLACE_FIGURE:
                shows[node] = RingShow(Light(_figure_colour(action.figure), "pulse", 230))
            else:
                shows[node] = RingShow(Light(_figure_colour(action.figure), "chase", 200))
        for alert in status.alerts:
            node = room_node(alert.room)
            if node in shows:
                shows[node] = RingShow(Light(ALERT_COLOUR, "pulse", 255))
    return shows


def guide_edge(rotation: int) -> int:
    """The absolute direction the platform's first book (`books[0]`) faces at `rotation`; the
    edge a turn action lights (BOARD-FORMAT.md: a book at index i points to i + rotation)."""
    return rotation % 6


class LedSync:
    """Sends each node what its ring must show, only when that changed (the bridge remembers it
    and shows it again when a node comes back)."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.sent: dict[str, RingShow] = {}

    def show(self, shows: Mapping[str, RingShow], force: bool = False) -> list[str]:
        """Bring every known node to `shows` (missing nodes: off); the nodes sent to."""
        changed = []
        for node in sorted(self.bridge.known):
            if not node.startswith("room-"):
                continue
            want = shows.get(node, RingShow())
            if not force and self.sent.get(node) == want:
                continue
            ring = want.ring
            self.bridge.set_led(
                node,
                colour=ring.colour,
                pattern=ring.pattern,
                brightness=ring.brightness,
            )
            for direction, light in want.segments:
                self.bridge.set_led(
                    node,
                    target="segment",
                    direction=direction,
                    colour=light.colour,
                    pattern=light.pattern,
                    brightness=light.brightness,
                )
            self.sent[node] = want
            changed.append(node)
        return changed
