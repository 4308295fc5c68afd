"""Strigoi turns announced three ways at once — a banner, speech and LED patterns — and published
as a game event. The words come from the engine's explanation: the step is resolved again by the
engine on the state before it (it is deterministic), never re-derived here.

LED patterns (docs/protocol.md): the destination platform pulses in the Strigoi's colour, the
attack line's ring segments chase (from the Strigoi toward the hero, and back in the hero's room),
a cursed room pulses violet, a collapsing platform pulses red at full brightness.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace

import msgspec

from companion.app.board.marks import STRIGOI_COLOUR as STRIGOI_COLOUR  # its cards' colour
from companion.app.story.announcement import (
    COLLAPSE_COLOUR,
    CURSE_COLOUR,
    Announcement,
    LedCue,
    handler_window,
)
from companion.app.story.headlines import headline_of
from companion.app.words.i18n import capital_first
from companion.engine.explain import Namer, Plural, english_plural, hero_name, reason
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules, played_card, situation
from companion.engine.game.effects import WOUND_ICON
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from companion.engine.game.queries import (
    encounter_token,
    fight_odds,
    protection_sources,
    strigoi_step_now,
)
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


def strigoi_announcement(
    rules: GameRules, before: GameState, events: Sequence[e.Event]
) -> Announcement | None:
    """The announcement of the first Strigoi step among `events` (decided on `before`), if any:
    a drawn token's Strigoi, or the Supreme, which moves without one (R-TEL-1)."""
    return next((a for a in announcements(rules, before, events) if a.kind == "strigoi_step"), None)


def _asked_to_protect(
    rules: GameRules, state: GameState, events: Sequence[e.Event], at: int
) -> list[str]:
    """The heroes the game will ask to block with Protection after the handler done at
    `events[at]` (R-ABL Protection): a protectable wound queued, and a source to block it. The
    story says "may block" only for them; for the others it tells the wounds as taken."""
    after = clone(state)
    window = [events[at], *handler_window(events, at)]
    for event in window:
        apply(after, event)
    queued = [t for x in window if isinstance(x, e.TasksQueued) for t in x.tasks]
    then = [t for x in window if isinstance(x, e.TaskDone) for t in x.then]
    asked = []
    for task in (*queued, *then):
        if not isinstance(task, ProtectTask) or not task.protectable or task.hero in asked:
            continue
        if protection_sources(rules, after.hero(task.hero)):
            asked.append(task.hero)
    return asked


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
        # asked to block before any wound is drawn (R-LOS-2): the card says "may block"
        "asked": _asked_to_protect(rules, state, events, at),
    }
    return Announcement("strigoi_step", headline, reasons, tuple(leds), facts)


def _curse(rules: GameRules, state: GameState, events: Sequence[e.Event], at: int) -> Announcement:
    """Phase 3 (R-CUR-1): the curse cast, or why it was not (the Master did not move)."""
    window = handler_window(events, at)
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
            "asked": _asked_to_protect(rules, state, events, at),  # may block (R-CUR-1)
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
    window = handler_window(events, at)
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
    window = handler_window(events, at)
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
        "asked": _asked_to_protect(rules, state, events, at),  # may block its wound (R-ENC-2)
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
    window = handler_window(events, at)
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
    window = handler_window(events, at)
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


def _round(event: e.RoundEnded, events: Sequence[e.Event], at: int) -> Announcement:
    """A round ends and the next begins (R-RND-1); the Strigoi entering at the start of round 2
    (R-SET-3) are told by their own item (`_placed`)."""
    nxt = event.round + 1
    return Announcement("round", f"Round {nxt} begins", (), (), {"round": nxt})


def _order(rules: GameRules, state: GameState, event: e.CardsRevealed) -> Announcement:
    """Every card shown at once and the turn order they give (R-RND-1, R-RND-2)."""
    cards: dict[str, str] = {}
    initiative: dict[str, int | None] = {}
    for hero in event.order:
        held = state.hero(hero)
        card = held.chosen or (held.played[-1] if held.played else "")
        cards[hero] = card
        catalog = rules.catalog
        initiative[hero] = catalog.card(card).initiative if catalog.is_action_card(card) else None
    headline = "Turn order: " + ", ".join(hero_name(h) for h in event.order)
    return Announcement(
        "order",
        headline,
        (),
        (),
        {"round": state.round, "order": list(event.order), "cards": cards,
         "initiative": initiative},
    )  # fmt: skip


def _turn(state: GameState, event: e.PhaseChanged) -> Announcement | None:
    """The next hero's turn (R-RND-2); the first one is told by the turn order."""
    if event.phase != "turns" or event.active == 0 or event.active >= len(state.turn_order):
        return None
    hero = state.turn_order[event.active]
    return Announcement(
        "turn", f"{hero_name(hero)}'s turn", (), (), {"hero": hero, "round": event.round}
    )


def _encounter(state: GameState, event: e.TokenDrawn) -> Announcement:
    """An encounter token flipped (R-ENC-1): what the hero meets."""
    hero = state.active_hero
    return Announcement(
        "encounter",
        f"{hero_name(hero or '')} flips {event.token}",
        (),
        (),
        {"hero": hero, "token": event.token, "stack": event.stack},
    )


def _rotated(event: e.PlatformRotated) -> Announcement:
    """A platform turned in the app (Mechanics, R-ABL): the table turns it too."""
    return Announcement(
        "rotate",
        f"The platform of {event.room} turns",
        (),
        (),
        {"room": event.room, "rotation": event.rotation,
         "carried": [hero for hero, _cell in event.carried]},
    )  # fmt: skip


def _protected(state: GameState, events: Sequence[e.Event], at: int) -> Announcement | None:
    """Wounds blocked with Protection (R-ABL, R-LOS-2): how many, and how many still hit."""
    task = state.tasks[0] if state.tasks else None
    if not isinstance(task, ProtectTask) or not task.protectable:
        return None
    window = handler_window(events, at)
    queued = [t for x in window if isinstance(x, e.TasksQueued) for t in x.tasks]
    left = sum(
        t.wounds
        for t in queued
        if isinstance(t, WoundsTask | WoundDrawTask) and t.hero == task.hero
    )
    blocked = task.wounds - left
    if blocked <= 0:
        return None
    return Announcement(
        "protect",
        f"{hero_name(task.hero)} blocks {blocked} with Protection",
        (),
        (),
        {"hero": task.hero, "blocked": blocked, "left": left},
    )


def undone(command: c.Command, board: GameState | None = None) -> Announcement:
    """A step taken back (Undo): the command, worded by its card in each language."""
    return Announcement(
        "undone",
        f"Undone: {type(command).__name__}",
        (),
        (),
        {"command": msgspec.to_builtins(command)},
        board,
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
    round_ends, entered = -1, False
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
                round_ends = i  # its Strigoi entering are told after the new round's line
            elif event.kind in ("fight", "stealth_choice"):
                found = _fight(rules, state, events, i, command)
                in_fight = found is not None
            elif event.kind == "monk":
                found = _monk(state, events, i)
                in_fight = True  # its marker is on its card
            elif event.kind in ("wounds", "wound_draw"):
                found = _wounds(state, events, i)
            elif event.kind == "protect":
                found = _protected(state, events, i)
        elif isinstance(event, e.RoundEnded):
            found = _round(event, events, i)
        elif isinstance(event, e.StrigoiPlaced) and not entered:
            # R-SET-3: after round 1's "no curse" and "Round 2 begins"; its board the one with
            # the figures on it
            found, entered = _placed(events, round_ends), True
        elif isinstance(event, e.CardsRevealed):
            found = _order(rules, state, event)
        elif isinstance(event, e.PhaseChanged):
            found = _turn(state, event)
        elif isinstance(event, e.TokenDrawn) and event.stack in ("red", "grey"):
            found = _encounter(state, event)
        elif isinstance(event, e.PlatformRotated):
            found = _rotated(event)
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
    """Sends each item of a command's story to the screen, the voice, the LEDs and MQTT at once,
    in the same words (issue 40: one story per command, told the same everywhere)."""

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
        english: Callable[[Announcement], str | None] | None = None,
    ) -> None:
        self.banner, self.speak, self.led, self.publish = banner, speak, led, publish
        self.translate = translate  # the players' language; the published event stays English
        self.plural = plural  # counted words in the players' language
        self.name = name  # rooms and ladders as the table names them (the published: ids)
        #: the words in the players' language (companion/app/story/cards.py); None: the engine's
        self.say = say
        #: the same words in English, for the published event (None: the engine's headline)
        self.english = english

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

    def announce(self, announcement: Announcement, item: int = 0) -> None:
        words = self.words(announcement)
        self.banner(announcement, words)
        for cue in announcement.leds:
            self.led(cue)
        english = self.english(announcement) if self.english is not None else None
        self.publish(announcement.payload(english or None, item))
        self.speak(words)

    def tell(self, story: Sequence[Announcement]) -> None:
        """Every item of a story, in order, each once."""
        for item, announcement in enumerate(story):
            self.announce(announcement, item)

    def after_command(
        self,
        rules: GameRules,
        before: GameState,
        events: Sequence[e.Event],
        command: c.Command | None = None,
    ) -> list[Announcement]:
        """Every item of the command's story, announced in order (one sentence each)."""
        made = announcements(rules, before, events, command)
        self.tell(made)
        return made


__all__ = [
    "Announcer",
    "announcements",
    "strigoi_announcement",
    "undone",
]
