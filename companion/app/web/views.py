"""The game as the browsers show it (ui/web): plain JSON values derived from the state on the
table service's thread, in the language `tr` translates into at the time of the call (see
`i18n.translating`). The web server only forwards them; nothing here is sent anywhere.

Two kinds of view: the table's (public: what anyone around the table may see; no hand, no
card chosen before all are revealed, R-RND-1) and a seat's (one hero's hand with the card
facts, reward cards and tokens, and the cards that hero may choose now).

Coordinates are the fortress's own axial cells laid out as the touchscreen draws them
(pointy-top hexagons of radius 1, rows growing downwards): x = sqrt(3) (q + r/2), y = 1.5 r.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.app.board.marks import FIGURE_MARKS
from companion.app.board.threats import threat_levels as levels_for
from companion.app.board.threats import waiting_hero
from companion.app.session.game import GameSession
from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import sentence
from companion.app.story.cards import card_of, why_rows
from companion.app.story.game_log import StepResults, log_line
from companion.app.story.headlines import HEADLINE_CODES
from companion.app.story.hero_cards import held_rewards, held_wounds
from companion.app.web.board import place_figures, room_labels, sizes, view_box
from companion.app.web.seat_guide import guide_view
from companion.app.web.tracker_view import tracker_view
from companion.app.words import i18n
from companion.app.words.command_labels import log_sentence
from companion.app.words.i18n import N_, tr
from companion.app.words.names import (
    ability_names,
    item_name,
    room_name,
    round_line,
    strigoi_label,
    token_name,
)
from companion.app.words.status import render, waiting_label
from companion.engine.components import Catalog
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game.context import ALTAR_NEEDED, INFERNO_LOSES, situation
from companion.engine.game.state import GameState
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from companion.store.gamelog import CommandRecord

JSON = dict[str, Any]
SQRT3 = math.sqrt(3)
#: the newest steps of the game log a browser shows
LOG_SHOWN = 30
#: a figure's mark (the touchscreen's, ui/theme.py: colour, shape *and* letters)
MARKS = FIGURE_MARKS
#: the page's own words, translated through the same catalogs as the touchscreen's
PAGE_WORDS = {
    "title": N_("Armata Strigoi: the table"),
    "round": N_("Round {round} · {phase}"),
    "threat_on": N_("Threat map: on"),
    "threat_off": N_("Threat map: off"),
    "whole": N_("Whole fortress"),
    "tip": N_("Tip: tap a room on the board to zoom in; tap Whole fortress to see it all."),
    "log": N_("Game log"),
    "heroes": N_("Heroes"),
    "why": N_("Why?"),
    "live": N_("Live"),
    "connecting": N_("Connecting…"),
    "behind": N_("Connection lost: this view may be behind. Reconnecting…"),
    "no_game": N_("No game is being played."),
    "my_hand": N_("Your hand"),
    "choose": N_("Choose this card"),
    "chosen": N_("Card chosen: {card}"),
    "rewards": N_("Reward cards"),
    "tokens": N_("Reward tokens"),
    "wounds": N_("Wounds"),
    "none": N_("none"),
    "language": N_("Language"),
    "seat_for": N_("Seat of {hero}"),
    "initiative": N_("initiative {value}"),
    "movement": N_("movement {value}"),
    "strength": N_("strength {value}"),
    "wound_icon": N_("wound icon"),
    "active": N_("on the move"),
    "no_choice": N_("Nothing to choose now."),
    "encounter": N_("Encounter"),
    "wake": N_("The screen may dim: this browser keeps it awake only over https."),
}


def word(key: str) -> str:
    """One of the page's words in the current `tr` language."""
    return tr(PAGE_WORDS[key])


def page_words() -> dict[str, str]:
    """The page's fixed words in the current `tr` language."""
    return {key: tr(text) for key, text in PAGE_WORDS.items()}


def xy(cell: Cell | Sequence[int]) -> tuple[float, float]:
    q, r = cell[0], cell[1]
    return round(SQRT3 * (q + r / 2), 3), round(1.5 * r, 3)


# ----- the board -------------------------------------------------------------------------------
def board_view(fortress: Fortress, here: Situation, threat: Mapping[Cell, str]) -> JSON:
    """Every space by its feature, the rooms with their books where they point now, ladders,
    figures (each where its disc is drawn too), fight markers, collapsed platforms, the threat
    levels, the sizes the page draws with and the whole view's box: the same in every
    language (the names are `names_view`, their places `web_board.room_labels`)."""
    board = here.board
    tables = fortress.tables(board)
    spaces = []
    for cell in tables.spaces:
        feature = fortress.feature(cell, board)
        look = (
            feature
            if feature in ("red", "grey", "stairs")
            else "platform"
            if fortress.on_platform(cell, board) is not None
            else "space"
        )
        x, y = xy(cell)
        space: JSON = {"c": list(cell), "x": x, "y": y, "k": look}
        if cell in threat and threat[cell] != "safe":
            space["t"] = threat[cell]
        spaces.append(space)
    rooms = []
    for room in fortress.rooms:
        cx, cy = xy(fortress.centre(room))
        books: list[JSON] = []
        letters: Sequence[str]
        if room == fortress.centre_room:
            letters, turn, radius = (
                fortress.centre_books,
                fortress.rooms[room].orientation,
                SQRT3 * 1.0,
            )
        elif room in fortress.platforms and room not in board.collapsed:
            letters = fortress.platforms[room].books
            turn = board.rotations.get(room, fortress.rooms[room].rotation)
            radius = SQRT3 * (fortress.platform_radius + 0.5)
        else:
            letters, turn, radius = (), 0, 0.0
        for index, letter in enumerate(letters):
            angle = math.radians(60 * ((index + turn) % 6))  # 0 east, counter-clockwise
            books.append(
                {
                    "l": letter,
                    "x": round(cx + radius * math.cos(angle), 3),
                    "y": round(cy - radius * math.sin(angle), 3),  # y grows downwards
                }
            )
        rooms.append(
            {
                "id": room,
                "x": cx,
                "y": cy,
                "top": round(cy - 1.5 * (fortress.room_radius + 0.6), 3),
                "books": books,
                "rotation": board.rotations.get(room, fortress.rooms[room].rotation),
                "collapsed": room in board.collapsed,
            }
        )
    ladders = [
        {"id": ladder.id, "c": list(ladder.cell), "x": xy(ladder.cell)[0], "y": xy(ladder.cell)[1]}
        for ladder in fortress.ladders.values()
        if ladder.id in board.ladders
    ]
    figures = []
    for cell, figure in sorted(here.occupants(fortress).items()):
        kind, _, name = figure.partition(":")
        x, y = xy(cell)
        figures.append(
            {
                "id": name,
                "kind": kind,
                "mark": MARKS.get(name, name[:2].upper()),
                "c": list(cell),
                "x": x,
                "y": y,
            }
        )
    markers = [{"c": list(cell), "x": xy(cell)[0], "y": xy(cell)[1]} for cell in here.fight_markers]
    place_figures(figures)  # pushed apart where they would cover each other (web_board.py)
    view: JSON = {
        "spaces": spaces,
        "rooms": rooms,
        "ladders": ladders,
        "figures": figures,
        "markers": markers,
        "collapsed": sorted(board.collapsed),
        "sizes": sizes(),
    }
    view["view"] = view_box(view)
    return view


def names_view(fortress: Fortress, here: Situation) -> dict[str, str]:
    """Rooms and figures by their names in the current language, by id."""
    names = {room: room_name(room) for room in fortress.rooms}
    names |= {h.hero: hero_name(h.hero) for h in here.heroes}
    names |= {name: strigoi_label(name) for name in here.strigoi}
    return names


def threat_levels(session: GameSession, here: Situation) -> dict[Cell, str]:
    """The engine's threat map for the hero the game waits for, as the touchscreen shows it."""
    hero = waiting_hero(session.waiting_for, session.state)
    return dict(levels_for(session.rules, here, hero))


# ----- announcements ---------------------------------------------------------------------------
def announcement_view(
    announcement: Announcement, catalog: Catalog | None = None, fortress: Fortress | None = None
) -> JSON:
    """A Strigoi step, a curse or a collapse as a card: title, headline lines, every reason.
    The other items of a command's story (a fight, a monk, wounds, a skipped phase 3, a
    reward) in their cards' words (companion/app/story/cards.py)."""
    facts = announcement.facts
    if catalog is not None:
        card = card_of(catalog, announcement, fortress)
        told_whole = ("strigoi_step", "curse", "strigoi_placed", "collapse")
        if announcement.kind in told_whole or announcement.line:
            # as the touchscreen's card: its headline, who is hit, what to do (issue 29: never
            # a reason that leans on one said before it, as "the opposite direction fails too")
            lines = [card.headline, *(f.value for f in card.figures), *card.todo]
        else:
            lines = [card.words, *card.todo]
        return {
            "kind": announcement.kind,
            "title": card.title,
            "lines": lines,
            "why": [why_line(text, rules) for text, rules in why_rows(catalog, announcement)],
        }
    if announcement.kind == "curse":
        title = tr("Curse")
    elif announcement.kind == "collapse":
        title = tr("Collapse")
    else:
        title = strigoi_label(str(facts.get("strigoi", "")))
    lines = [sentence(render(r)) for r in announcement.reasons if r.code in HEADLINE_CODES]
    return {
        "kind": announcement.kind,
        "title": title,
        "lines": lines or [sentence(render(r)) for r in announcement.reasons[:1]],
        "why": [why_line(sentence(render(r)), r.rule) for r in announcement.reasons],
    }


def why_line(text: str, rules: str) -> JSON:
    """A line of Why?: its sentence, and the text of the rule it comes from (the phone opens
    it by a tap on the line: no rule id in the sentence)."""
    first = rules.split()[0] if rules else ""
    rule = ""
    if first:  # the rules reference (markdown-it) loads with the first Why?, not at start
        from companion.rules_text import RuleNotFound, section_of

        try:
            section = section_of(first, i18n.words_language())
        except RuleNotFound:
            section = None
        if section is not None:
            from companion.app.words.rules_words import readable

            found = section.rules.get(first)
            rule = (
                readable(found, section.prefix, i18n.words_language()) if found else section.title
            )
    return {"text": text, "rule": rule}


# ----- the table -------------------------------------------------------------------------------
def log_view(
    session: GameSession,
    catalog: Catalog,
    revealed: Callable[[CommandRecord], bool],
    history: Sequence[CommandRecord],
    results: StepResults | None = None,
    language: str = "en",
) -> list[JSON]:
    """The newest steps of `history` (the session's), newest first, each with what it led to
    as the touchscreen's Game log says it (companion/app/story/game_log.py); a card choice
    stays secret until the reveal (R-RND-1). `revealed(record)`: that step revealed the cards
    (the caller keeps it cached); `results` keeps what each step led to, in `language` (the
    one being translated to)."""
    history = [r for r in history if r.seq <= session.head]
    secret_from = 10**9
    if session.state.phase == "initiative":
        secret_from = max((r.seq for r in history if revealed(r)), default=0)
    fortress = session.rules.fortress
    shown = history[-LOG_SHOWN:]
    if results is None:
        results = StepResults({language: i18n.catalog(language)})
    told = results.lines(session, shown, language)
    return [
        {
            "seq": r.seq,
            "text": log_line(
                log_sentence(r.command, catalog, fortress, r.seq > secret_from),
                told[r.seq],
            ),
        }
        for r in reversed(shown)
    ]


def hero_views(session: GameSession, catalog: Catalog) -> list[JSON]:
    state = session.state
    return [
        {
            "id": h.hero,
            "name": hero_name(h.hero),
            "mark": MARKS.get(h.hero, h.hero[:2].upper()),
            "wounds": [token_name(catalog, w) for w in h.wounds],
            "wound_count": sum(catalog.wound(w).value for w in h.wounds),
            "wounds_said": held_wounds(catalog, h.hero, h.wounds),  # sentences, not names
            "rewards": [item_name(catalog, x) for x in h.reward_cards],
            "tokens": [item_name(catalog, x) for x in h.reward_tokens],
            "rewards_said": held_rewards(catalog, h.hero, h.reward_cards, h.reward_tokens),
            "chosen": bool(h.chosen) if state.phase == "initiative" else None,
            "active": state.active_hero == h.hero,
        }
        for h in sorted(state.heroes, key=lambda h: h.seat)
    ]


def table_view(
    session: GameSession | None,
    cards: Sequence[JSON],
    log: list[JSON],
    board: JSON | None = None,
    settled: bool = True,
) -> JSON:
    """What every browser may see: the board, round and phase, what the game waits for, the
    last command's cards (Strigoi step, curse, collapse, encounter), the heroes, the log.
    With `settled` False, `labels` is None where placing the names would need a new ground
    (`web_board.room_labels`): the caller keeps the names where they stood, places them after."""
    if session is None:
        return {"game": None, "words": page_words()}
    state = session.state
    catalog = session.rules.catalog
    here = situation(session.rules, state)
    if board is None:
        board = board_view(session.rules.fortress, here, threat_levels(session, here))
    names = names_view(session.rules.fortress, here)
    strigoi = [
        {
            "id": name,
            "name": strigoi_label(name),
            "room": room_name(room),
            "wounds": state.strigoi_wounds.get(name, 0),
        }
        for name, room in sorted(state.strigoi.items())
    ]
    return {
        "game": session.game_id,
        "head": session.head,
        "words": page_words(),
        "round": state.round,
        "phase": state.phase,
        "status": round_line(state.round, state.phase),
        "waiting": waiting_label(session.waiting_for, catalog, state),
        "altar": tr("Altar {altar}/{needed}").format(
            altar=state.altar, needed=ALTAR_NEEDED[state.players]
        ),
        "inferno": tr("Inferno {inferno}/{loses}").format(
            inferno=state.inferno, loses=INFERNO_LOSES[state.players]
        ),
        "board": board,
        "names": names,
        "labels": room_labels(session.rules.fortress, board, names, settled),
        "cards": list(cards),
        "heroes": hero_views(session, catalog),
        "tracker": tracker_view(session),
        "strigoi": strigoi,
        "log": log,
    }


# ----- a seat ----------------------------------------------------------------------------------
def card_facts(catalog: Catalog, card: str) -> JSON:
    found = catalog.card(card)
    facts = [
        word("initiative").format(value=found.initiative),
        word("movement").format(value=found.movement),
        word("strength").format(value=found.strength),
        tr("book {letter}").format(letter=found.letter),  # as the touchscreen's tiles say
    ]
    facts += ability_names(found.abilities)
    if found.wound_icon:
        facts.append(word("wound_icon"))
    return {"id": card, "title": found.title, "facts": facts}


def choices_of(session: GameSession, hero: str) -> list[str]:
    """The cards `hero` may choose now: the engine's legal commands, nothing else."""
    return [
        x.card for x in session.legal_commands() if isinstance(x, c.ChooseCard) and x.hero == hero
    ]


def seat_view(session: GameSession, hero: str) -> JSON:
    """One hero's private view: the hand with card facts, the reward cards and tokens, the card
    chosen this round, and which cards may be chosen now."""
    catalog = session.rules.catalog
    state: GameState = session.state
    mine = state.hero(hero)
    return {
        "game": session.game_id,
        "hero": hero,
        "name": hero_name(hero),
        "seat": word("seat_for").format(hero=hero_name(hero)),
        # by initiative, as the touchscreen's hero panel lists them
        "hand": [
            card_facts(catalog, x)
            for x in sorted(mine.hand, key=lambda card: catalog.card(card).initiative)
            if _playable(catalog, x)
        ],
        "chosen": None if mine.chosen is None else card_facts(catalog, mine.chosen),
        "rewards": [item_name(catalog, x) for x in mine.reward_cards],
        "tokens": [item_name(catalog, x) for x in mine.reward_tokens],
        "wounds": [token_name(catalog, w) for w in mine.wounds],
        "choices": choices_of(session, hero),
        "tracker": tracker_view(session),
        **guide_view(session, hero),
    }


def _playable(catalog: Catalog, card: str) -> bool:
    try:
        catalog.card(card)
    except KeyError:
        return False
    return True


__all__ = [
    "LOG_SHOWN",
    "MARKS",
    "PAGE_WORDS",
    "announcement_view",
    "board_view",
    "card_facts",
    "choices_of",
    "hero_views",
    "log_view",
    "names_view",
    "page_words",
    "seat_view",
    "table_view",
    "threat_levels",
    "word",
    "xy",
]
