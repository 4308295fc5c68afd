"""Strigoi turns announced three ways at once — a banner, speech and LED patterns — and published
as a game event. The words come from the engine's explanation: the step is resolved again by the
engine on the state before it (it is deterministic), never re-derived here.

LED patterns (docs/protocol.md): the destination platform pulses in the Strigoi's colour, the
attack line's ring segments chase (from the Strigoi toward the hero, and back in the hero's room),
a cursed room pulses violet, a collapsing platform pulses red at full brightness.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from companion.app.board.marks import STRIGOI_COLOUR as STRIGOI_COLOUR  # its cards' colour
from companion.app.words.i18n import capital_first
from companion.engine.explain import Namer, Plural, Reason, english_plural, hero_name, reason
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules, played_card, situation
from companion.engine.game.effects import WOUND_ICON
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from companion.engine.game.queries import encounter_token, fight_odds, strigoi_step_now
from companion.engine.game.state import GameState
from companion.engine.game.tasks import (
    EncounterTask,
    FightTask,
    MarkerTask,
    MonkTask,
    ProtectTask,
    RewardDrawTask,
    StealthChoiceTask,
    StrigoiResolveTask,
    WoundDrawTask,
    WoundsTask,
)
from companion.engine.hexgrid import opposite
from companion.engine.strigoi import cursing_strigoi
from companion.errors import CompanionError
from firmware_bridge.board import room_node
from firmware_bridge.bridge import Bridge

CURSE_COLOUR = "#8000ff"
COLLAPSE_COLOUR = "#ff0000"
#: Codes whose text makes the spoken headline (the rest is shown behind "Why?").
HEADLINE_CODES = (
    "teleport",
    "letter_x",
    "bounce_failed",
    "bounce_failed_centre",
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
    reasons: Sequence[Reason],
    translate: Callable[[str], str] = str,
    name: Namer | None = None,
    plural: Plural = english_plural,
) -> str:
    """The spoken and bannered sentence: the reasons whose codes make headlines, in order."""
    picked = [r for r in reasons if r.code in HEADLINE_CODES] or list(reasons[:1])
    # a Strigoi opens it with its article ("the Master teleports"): a sentence's capital
    return capital_first("; ".join(r.text(translate, name, plural) for r in picked))


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
    #: "strigoi_step" | "curse" | "curse_skipped" | "strigoi_placed" | "collapse" | "fight" |
    #: "monk" | "wound" | "reward"
    kind: str
    headline: str
    reasons: tuple[Reason, ...] = ()
    leds: tuple[LedCue, ...] = ()
    facts: dict[str, object] = field(default_factory=dict)
    #: the game just after this result (the next one's events not yet folded in): the board
    #: shows it while this card shows; not published, not compared
    board: GameState | None = field(default=None, compare=False, repr=False)

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
    """The announcement of the first Strigoi step among `events` (decided on `before`), if any:
    a drawn token's Strigoi, or the Supreme, which moves without one (R-TEL-1)."""
    return next((a for a in announcements(rules, before, events) if a.kind == "strigoi_step"), None)


def _step(
    rules: GameRules, state: GameState, events: Sequence[e.Event], at: int
) -> Announcement | None:
    """The Strigoi step whose task is done at `events[at]`, resolved again on `state` (the
    state just before that event): the engine is deterministic, so these are its own words."""
    task = state.tasks[0] if state.tasks else None
    if not isinstance(task, StrigoiResolveTask):
        return None
    drawn = next(
        (x for x in reversed(events[:at]) if isinstance(x, e.TokenDrawn) and x.stack == "strigoi"),
        None,
    )
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
        "card_hero": state.active_hero,  # whose played card's letter moved it (R-TEL-2)
        "strigoi": token_strigoi,
        "from": step.teleport.start,
        "to": step.teleport.to,
        "hero": attack.hero if attack else None,
        "target_cell": list(step.after.hero(attack.hero).at or ()) if attack else None,
        "wounds": attack.wounds if attack else 0,
    }
    return Announcement("strigoi_step", headline, reasons, tuple(leds), facts)


def _window(events: Sequence[e.Event], at: int) -> list[e.Event]:
    """The events a task's handler emitted: after its TaskDone, up to the next one."""
    found = []
    for event in events[at + 1 :]:
        if isinstance(event, e.TaskDone):
            break
        found.append(event)
    return found


def _curse(rules: GameRules, state: GameState, events: Sequence[e.Event], at: int) -> Announcement:
    """Phase 3 (R-CUR-1): the curse cast, or why it was not (the Master did not move)."""
    window = _window(events, at)
    cast = next((x for x in window if isinstance(x, e.CurseCast)), None)
    first = state.turn_order[0] if state.turn_order else None
    card = played_card(rules, state.hero(first)) if first is not None else None
    letter = card.letter if card is not None else None
    landed = [x.hero for x in window if isinstance(x, e.HeroMoved) and x.to is None]
    if cast is None:
        strigoi = next(iter(state.strigoi), "master")
        with contextlib.suppress(CompanionError):
            strigoi = cursing_strigoi(situation(rules, state))
        destroyed = next((x for x in window if isinstance(x, e.LadderDestroyed)), None)
        if destroyed is not None:  # R-TEL-4 in the curse's teleport: the ladder, not a room
            why = (
                reason("R-CUR-1", "ladder_destroyed", strigoi=strigoi, ladder=destroyed.ladder),
                *(
                    reason("R-CUR-1", "ladder_occupied", hero=hero, ladder=destroyed.ladder)
                    for hero in landed
                ),
            )
        else:
            why = (reason("R-CUR-1", "no_curse", strigoi=strigoi),)
        facts: dict[str, object] = {
            "why": "ladder" if destroyed is not None else "stayed",
            "ladder": destroyed.ladder if destroyed is not None else None,
            "strigoi": strigoi,
            "letter": letter,
            "card_hero": first,
        }
        return Announcement("curse_skipped", headline_of(why), why, (), facts)
    why = (reason("R-CUR-1", "curse", strigoi=cast.strigoi, room=cast.room),)
    return Announcement(
        "curse",
        headline_of(why),
        why,
        leds=(LedCue(room_node(cast.room), colour=CURSE_COLOUR, pattern="pulse"),),
        facts={
            "strigoi": cast.strigoi,
            "from": state.strigoi.get(cast.strigoi),
            "room": cast.room,
            "to": cast.room,
            "heroes": sorted(cast.heroes, key=lambda x: state.hero(x).seat),
            "landed": landed,  # on the landing centre: cursed without protection (Decision)
            "letter": letter,
            "card_hero": first,
        },
    )


def _skipped(state: GameState) -> Announcement | None:
    """The last turn ended and phase 3 does not happen (R-RND-4): a Strigoi attacked this round
    (the attack marker comes off the Master card), or no Strigoi is on the board yet."""
    if state.active + 1 < len(state.turn_order):
        return None
    if state.strigoi and not state.attack_marker:
        return None  # the curse follows
    why = "attacked" if state.strigoi else "no_strigoi"
    headline = (
        "No curse this round: a Strigoi attacked"
        if why == "attacked"
        else "No curse this round: no Strigoi is on the board yet"
    )
    return Announcement("curse_skipped", headline, (), (), {"why": why, "round": state.round})


def _placed(events: Sequence[e.Event], at: int) -> Announcement | None:
    """Round 2 begins and the Strigoi enter (R-SET-3): each on the centre of one of the two
    marked platforms, drawn at random; a table to-do (the figures go on the board), told after
    round 1's "no curse", whose board still has none. A hero on a starting centre steps off."""
    window = _window(events, at)
    placed = [x for x in window if isinstance(x, e.StrigoiPlaced)]
    if not placed:
        return None
    begun = next((x for x in window if isinstance(x, e.PhaseChanged)), None)
    stepped_off = [x.hero for x in window if isinstance(x, e.HeroMoved) and x.to is None]
    leds = tuple(
        LedCue(
            room_node(x.room),
            colour=STRIGOI_COLOUR.get(x.strigoi, "#c00000"),
            pattern="pulse",
            brightness=230,
        )
        for x in placed
    )
    headline = "The Strigoi enter the fortress: " + ", ".join(
        f"the {x.strigoi} in {x.room}" for x in placed
    )
    facts: dict[str, object] = {
        "round": begun.round if begun is not None else 2,
        "placed": {x.strigoi: x.room for x in placed},  # in the order they are put
        "stepped_off": stepped_off,  # on a starting centre: the app asks where they go
    }
    return Announcement("strigoi_placed", headline, (), leds, facts)


def _fight(
    rules: GameRules,
    state: GameState,
    events: Sequence[e.Event],
    at: int,
    command: c.Command | None,
) -> Announcement | None:
    """A monster fought (R-ENC-1, R-ENC-2, R-ENC-4): won or lost, what the table changes."""
    window = _window(events, at)
    fought = next(
        (x for x in window if isinstance(x, e.TokenDiscarded) and x.stack in ("red", "grey")),
        None,
    )
    task = state.tasks[0] if state.tasks else None
    if fought is None or not isinstance(task, FightTask | StealthChoiceTask):
        return None
    hero = task.hero
    queued = [t for x in window if isinstance(x, e.TasksQueued) for t in x.tasks]
    lost = any(isinstance(t, ProtectTask) and t.cause == fought.token for t in queued)
    strength: int | None = None
    if isinstance(command, c.Fight):
        try:
            strength = fight_odds(rules, state, command)[0]
        except CompanionError:
            strength = None
    monster = encounter_token(rules, fought.stack, fought.token)
    facts: dict[str, object] = {
        "hero": hero,
        "token": fought.token,
        "stack": fought.stack,
        "won": not lost,
        "strength": strength,
        "monster": monster.strength,
        **_gains(window, queued, hero),
    }
    result = "wins" if not lost else "loses"
    headline = f"{hero_name(hero)} {result} the fight against {fought.token}"
    return Announcement("fight", headline, (), (), facts)


def _gains(window: Sequence[e.Event], queued: Sequence[object], hero: str) -> dict[str, object]:
    """What a fight or a monk changes on the table: blood to the Altar, rewards taken (or to
    draw by hand), the fight marker placed (or to choose), cards earned, a wound icon."""
    return {
        "blood": sum(1 for x in window if isinstance(x, e.BloodMoved) and x.target == "altar"),
        "rewards": [x.item for x in window if isinstance(x, e.RewardTaken) and x.hero == hero],
        "to_draw": [t.stack for t in queued if isinstance(t, RewardDrawTask) and t.hero == hero],
        "marker": next((list(x.cell) for x in window if isinstance(x, e.FightMarkerPlaced)), None),
        "marker_to_choose": any(isinstance(t, MarkerTask) for t in queued),
        "advanced": [x.card for x in window if isinstance(x, e.AdvancedEarned) and x.hero == hero],
        "icon_wounds": sum(
            t.wounds for t in queued if isinstance(t, ProtectTask) and t.cause == WOUND_ICON
        ),
        "hand_back": any(isinstance(x, e.HandRecovered) and x.hero == hero for x in window),
    }


def _monk(state: GameState, events: Sequence[e.Event], at: int) -> Announcement | None:
    """A monk (R-ENC-3): freed (the discard pile back into the hand) or attacked (the top grey
    monster is fought instead)."""
    task = state.tasks[0] if state.tasks else None
    if not isinstance(task, MonkTask):
        return None
    window = _window(events, at)
    queued = [t for x in window if isinstance(x, e.TasksQueued) for t in x.tasks]
    freed = not any(isinstance(t, EncounterTask) for t in queued)
    facts: dict[str, object] = {
        "hero": task.hero,
        "freed": freed,
        **_gains(window, queued, task.hero),
    }
    verb = "frees" if freed else "attacks"
    return Announcement("monk", f"{hero_name(task.hero)} {verb} the monk", (), (), facts)


def _wounds(state: GameState, events: Sequence[e.Event], at: int) -> Announcement | None:
    """Wound tokens drawn for a hero (R-WND-1), and a defeat at three (R-WND-2)."""
    window = _window(events, at)
    taken = [x for x in window if isinstance(x, e.WoundTaken)]
    if not taken:
        return None
    hero = taken[0].hero
    defeated = any(isinstance(x, e.HeroDefeated) and x.hero == hero for x in window)
    task = state.tasks[0] if state.tasks else None
    # the wounds the attack dealt after Protection: fewer are drawn when the hero reaches 3
    # (R-WND-2), and the sentence says why
    due = task.wounds if isinstance(task, WoundsTask | WoundDrawTask) else 0
    facts: dict[str, object] = {
        "hero": hero,
        "tokens": [x.token for x in taken if x.hero == hero],
        "defeated": defeated,
        "due": due,
    }
    count = len(facts["tokens"])  # type: ignore[arg-type]
    headline = f"{hero_name(hero)} takes {count} wound" + ("s" if count != 1 else "")
    return Announcement("wound", headline, (), (), facts)


def _reward(event: e.RewardTaken) -> Announcement:
    """A reward drawn outside a fight (a physical draw entered, a reward card's draw)."""
    return Announcement(
        "reward",
        f"{hero_name(event.hero)} takes {event.item}",
        (),
        (),
        {"hero": event.hero, "rewards": [event.item], "stack": event.stack},
    )


def _collapse(event: e.PlatformCollapsed) -> Announcement:
    why = (reason("R-COL-1", "collapse", target=event.room),)
    return Announcement(
        "collapse",
        headline_of(why),
        why,
        leds=(
            LedCue(room_node(event.room), colour=COLLAPSE_COLOUR, pattern="pulse", brightness=255),
        ),
        facts={"room": event.room},
    )


def announcements(
    rules: GameRules,
    before: GameState,
    events: Sequence[e.Event],
    command: c.Command | None = None,
) -> list[Announcement]:
    """One command's story: every result, in the order the events happened (a Strigoi step
    before the curse it leads to; an encounter; wounds; a skipped phase 3). Each carries the
    state just after it (`board`): the board shows what the card tells while the card shows."""
    state = clone(before)
    made: list[Announcement] = []
    boards: list[GameState] = []  # the board of each item: the state when the next one begins
    in_fight = False
    for i, event in enumerate(events):
        found: Announcement | None = None
        if isinstance(event, e.TaskDone):
            in_fight = False
            if event.kind == "strigoi_resolve":
                found = _step(rules, state, events, i)
            elif event.kind == "curse":
                found = _curse(rules, state, events, i)
            elif event.kind == "end_turn":
                found = _skipped(state)
            elif event.kind == "end_round":
                found = _placed(events, i)  # R-SET-3: after round 1's "no curse"
            elif event.kind in ("fight", "stealth_choice"):
                found = _fight(rules, state, events, i, command)
                in_fight = found is not None
            elif event.kind == "monk":
                found = _monk(state, events, i)
                in_fight = True  # its marker is on its card
            elif event.kind in ("wounds", "wound_draw"):
                found = _wounds(state, events, i)
        elif isinstance(event, e.PlatformCollapsed):
            found = _collapse(event)
        elif isinstance(event, e.RewardTaken) and not in_fight:
            found = _reward(event)
        if found is not None:
            if made:
                boards.append(clone(state))
            made.append(found)
        apply(state, event)
    if made:
        boards.append(state)  # the last item's board: the state after the whole command
    return [replace(a, board=b) for a, b in zip(made, boards, strict=True)]


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
        say: Callable[[Announcement], str | None] | None = None,
        plural: Plural = english_plural,
    ) -> None:
        self.banner, self.speak, self.led, self.publish = banner, speak, led, publish
        self.translate = translate  # the players' language; the published event stays English
        self.plural = plural  # counted words in the players' language
        self.name = name  # rooms and ladders as the table names them (the published: ids)
        #: the words in the players' language (companion/app/story/cards.py); None: the engine's
        self.say = say

    def words(self, announcement: Announcement) -> str:
        """The one sentence of this story item: spoken, bannered while its card shows."""
        if self.say is not None:
            said = self.say(announcement)
            if said:
                return said
        if not announcement.reasons:
            return announcement.headline
        words = headline_of(announcement.reasons, self.translate, self.name, self.plural)
        return capital_first(words)  # bannered and spoken: a sentence's capital

    def announce(self, announcement: Announcement) -> None:
        words = self.words(announcement)
        self.banner(announcement, words)
        for cue in announcement.leds:
            self.led(cue)
        self.publish(announcement.payload())
        self.speak(words)

    def after_command(
        self,
        rules: GameRules,
        before: GameState,
        events: Sequence[e.Event],
        command: c.Command | None = None,
    ) -> list[Announcement]:
        """Every item of the command's story, announced in order (one sentence each)."""
        made = announcements(rules, before, events, command)
        for announcement in made:
            self.announce(announcement)
        return made
