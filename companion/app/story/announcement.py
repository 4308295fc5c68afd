"""One item of a command's story as a value (its kind, headline, reasons, LED cues, facts and
the board it shows), and the events a task's handler emitted."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.app.board.marks import STRIGOI_COLOUR as STRIGOI_COLOUR  # its cards' colour
from companion.engine.explain import Reason
from companion.engine.game import events as e
from companion.engine.game.state import GameState

CURSE_COLOUR = "#8000ff"


COLLAPSE_COLOUR = "#ff0000"


@dataclass(frozen=True)
class LedCue:
    node: str
    target: str = "ring"
    direction: int | None = None
    colour: str = "#000000"
    pattern: str = "steady"
    brightness: int = 200


#: Story items that tell without a card to read (a line in the banner, a sentence spoken, a
#: line in the game log): the round beginning, the turn order, whose turn, an encounter token
#: drawn, a platform turned, wounds blocked, a step undone.
LINE_KINDS = frozenset({"round", "order", "turn", "encounter", "rotate", "protect", "undone"})


@dataclass(frozen=True)
class Announcement:
    #: "strigoi_step" | "curse" | "curse_skipped" | "strigoi_placed" | "collapse" | "fight" |
    #: "monk" | "wound" | "reward", and the line kinds (`LINE_KINDS`)
    kind: str
    headline: str
    reasons: tuple[Reason, ...] = ()
    leds: tuple[LedCue, ...] = ()
    facts: dict[str, object] = field(default_factory=dict)
    #: the game just after this result (the next one's events not yet folded in): the board
    #: shows it while this card shows; not published, not compared
    board: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def line(self) -> bool:
        """Told in a line (banner, voice, log), without a card the players read and close."""
        return self.kind in LINE_KINDS

    def payload(self, words: str | None = None, item: int = 0) -> bytes:
        """What goes on `armata/<table>/game/event`: `words`, the item's sentences in English
        as every channel tells them (default: the engine's headline); `item`, its place in
        its command's story."""
        return json.dumps(
            {
                "type": "announcement",
                "kind": self.kind,
                "item": item,
                "headline": self.headline if words is None else words,
                "why": [r.as_data() for r in self.reasons],
                "facts": self.facts,
            },
            sort_keys=True,
        ).encode()


def handler_window(events: Sequence[e.Event], at: int) -> list[e.Event]:
    """The events a task's handler emitted: after its TaskDone, up to the next one."""
    found = []
    for event in events[at + 1 :]:
        if isinstance(event, e.TaskDone):
            break
        found.append(event)
    return found


__all__ = [
    "COLLAPSE_COLOUR",
    "CURSE_COLOUR",
    "LINE_KINDS",
    "Announcement",
    "LedCue",
    "handler_window",
]
