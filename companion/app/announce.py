"""Strigoi turns announced three ways at once — a banner, speech and LED patterns — and published
as a game event. The words come from the engine's explanation: the step is resolved again by the
engine on the state before it (it is deterministic), never re-derived here.

LED patterns (docs/protocol.md): the destination platform pulses in the Strigoi's colour, the
attack line's ring segments chase (from the Strigoi toward the hero, and back in the hero's room),
a cursed room pulses violet, a collapsing platform pulses red at full brightness.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.engine.explain import Namer, Reason, reason
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from companion.engine.game.queries import strigoi_step_now
from companion.engine.game.state import GameState
from companion.engine.game.tasks import StrigoiResolveTask
from companion.engine.hexgrid import opposite
from firmware_bridge.board import room_node
from firmware_bridge.bridge import Bridge

STRIGOI_COLOUR = {"master": "#c00000", "apprentice": "#ff6000", "supreme": "#ff00a0"}
CURSE_COLOUR = "#8000ff"
COLLAPSE_COLOUR = "#ff0000"
#: Codes whose text makes the spoken headline (the rest is shown behind "Why?").
HEADLINE_CODES = (
    "teleport",
    "letter_x",
    "bounce_failed",
    "occupied",
    "ladder_destroyed",
    "ladder_guarded",
    "stays_no_attack",
    "landing_on_hero",
    "target",
    "target_tie",
    "nobody_visible",
    "wounds",
    "curse",
    "collapse",
)


def headline_of(
    reasons: Sequence[Reason], translate: Callable[[str], str] = str, name: Namer | None = None
) -> str:
    """The spoken and bannered sentence: the reasons whose codes make headlines, in order."""
    picked = [r for r in reasons if r.code in HEADLINE_CODES] or list(reasons[:1])
    return "; ".join(r.text(translate, name) for r in picked)


@dataclass(frozen=True)
class LedCue:
    node: str
    target: str = "ring"
    direction: int | None = None
    colour: str = "#000000"
    pattern: str = "steady"
    brightness: int = 200


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


@dataclass(frozen=True)
class Announcement:
    kind: str  # "strigoi_step" | "curse" | "collapse"
    headline: str
    reasons: tuple[Reason, ...] = ()
    leds: tuple[LedCue, ...] = ()
    facts: dict[str, object] = field(default_factory=dict)

    def payload(self) -> bytes:
        """What goes on `armata/<table>/game/event`."""
        return json.dumps(
            {
                "type": "announcement",
                "kind": self.kind,
                "headline": self.headline,
                "why": [r.as_data() for r in self.reasons],
                "facts": self.facts,
            },
            sort_keys=True,
        ).encode()


def strigoi_announcement(
    rules: GameRules, before: GameState, events: Sequence[e.Event]
) -> Announcement | None:
    """The announcement of the Strigoi step among `events` (decided on `before`), if any: a
    drawn token's Strigoi, or the Supreme, which moves without one (R-TEL-1). The step is
    resolved again on the state just before it (the command's earlier events folded in)."""
    at = next(
        (
            i
            for i, x in enumerate(events)
            if isinstance(x, e.TaskDone) and x.kind == "strigoi_resolve"
        ),
        None,
    )
    if at is None:
        return None
    state = clone(before)
    for event in events[:at]:
        apply(state, event)
    task = state.tasks[0] if state.tasks else None
    if not isinstance(task, StrigoiResolveTask):
        return None
    drawn = next((x for x in events if isinstance(x, e.TokenDrawn) and x.stack == "strigoi"), None)
    step = strigoi_step_now(rules, state, task.strigoi, task.bonus)  # as the engine resolved it
    if step is None:
        return None
    token_strigoi, bonus = task.strigoi, task.bonus
    reasons = step.why
    headline = headline_of(reasons)
    colour = STRIGOI_COLOUR.get(token_strigoi, "#c00000")
    leds = [LedCue(room_node(step.teleport.to), colour=colour, pattern="pulse", brightness=230)]
    attack = step.attack
    if attack is not None and attack.direction is not None:
        leds.append(
            LedCue(room_node(step.teleport.to), "segment", attack.direction, colour, "chase", 255)
        )
        hero_at = step.after.hero(attack.hero).at
        hero_room = rules.fortress.room_at(hero_at)
        if hero_room is not None and hero_room != step.teleport.to:
            leds.append(
                LedCue(
                    room_node(hero_room),
                    "segment",
                    opposite(attack.direction),
                    colour,
                    "chase",
                    255,
                )
            )
    facts: dict[str, object] = {
        "token": drawn.token if drawn is not None else None,  # the Supreme draws none
        "bonus": bonus,
        "letter": step.teleport.letter,
        "strigoi": token_strigoi,
        "from": step.teleport.start,
        "to": step.teleport.to,
        "hero": attack.hero if attack else None,
        "target_cell": list(step.after.hero(attack.hero).at or ()) if attack else None,
        "wounds": attack.wounds if attack else 0,
    }
    return Announcement("strigoi_step", headline, reasons, tuple(leds), facts)


def board_announcements(rules: GameRules, events: Sequence[e.Event]) -> list[Announcement]:
    """Curses and collapses among `events` (their facts are in the events themselves)."""
    found = []
    for event in events:
        if isinstance(event, e.CurseCast):
            why = (reason("R-CUR-1", "curse", strigoi=event.strigoi, room=event.room),)
            found.append(
                Announcement(
                    "curse",
                    headline_of(why),
                    why,
                    leds=(LedCue(room_node(event.room), colour=CURSE_COLOUR, pattern="pulse"),),
                    facts={"strigoi": event.strigoi, "room": event.room, "heroes": event.heroes},
                )
            )
        elif isinstance(event, e.PlatformCollapsed):
            why = (reason("R-COL-1", "collapse", target=event.room),)
            found.append(
                Announcement(
                    "collapse",
                    headline_of(why),
                    why,
                    leds=(
                        LedCue(
                            room_node(event.room),
                            colour=COLLAPSE_COLOUR,
                            pattern="pulse",
                            brightness=255,
                        ),
                    ),
                    facts={"room": event.room},
                )
            )
    return found


def announcements(
    rules: GameRules, before: GameState, events: Sequence[e.Event]
) -> list[Announcement]:
    """Every announcement of one command's events, the Strigoi step first."""
    made = board_announcements(rules, events)
    step = strigoi_announcement(rules, before, events)
    if step is not None:
        made.insert(0, step)
    return made


class Announcer:
    """Sends each announcement to the screen, the voice, the LEDs and MQTT at once."""

    def __init__(
        self,
        banner: Callable[[Announcement, str], None],
        speak: Callable[[str], None],
        led: Callable[[LedCue], None],
        publish: Callable[[bytes], None],
        translate: Callable[[str], str] = str,
        name: Namer | None = None,
    ) -> None:
        self.banner, self.speak, self.led, self.publish = banner, speak, led, publish
        self.translate = translate  # the players' language; the published event stays English
        self.name = name  # rooms and ladders as the table names them (the published: ids)

    def words(self, announcement: Announcement) -> str:
        if not announcement.reasons:
            return announcement.headline
        return headline_of(announcement.reasons, self.translate, self.name)

    def announce(self, announcement: Announcement) -> None:
        words = self.words(announcement)
        self.banner(announcement, words)
        for cue in announcement.leds:
            self.led(cue)
        self.publish(announcement.payload())
        self.speak(words)

    def after_command(
        self, rules: GameRules, before: GameState, events: Sequence[e.Event]
    ) -> list[Announcement]:
        made = announcements(rules, before, events)
        for announcement in made:
            self.announce(announcement)
        return made
