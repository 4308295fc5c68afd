"""The story's line items, which have no card to close: a round beginning, the turn order,
whose turn, an undone step."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import Card, as_int, as_list, sentence, unique_sentences, why_of
from companion.app.words.i18n import N_, ngettext, tr
from companion.app.words.names import (
    ability_name,
    item_name,
    room_name,
    token_phrase,
)
from companion.app.words.undo_texts import undone_sentence
from companion.engine.components import Catalog
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress
from companion.engine.game.commands import parse_command
from companion.errors import CompanionError

#: the longest turn order that fits the round screen's two-line banner at 800x480 (16 px
#: text); a longer one (four or five heroes) leaves the card titles out, never the initiatives
REVEAL_CHARS = 170


def order_words(catalog: Catalog, order: Sequence[str], cards: dict[str, str]) -> str:
    """The cards shown together and the turn order with the initiative that decides it
    (R-RND-1, -2), in whole sentences: "Attila plays Army of the Night, initiative 1, and goes
    first. Then Roel plays …, initiative 3." (never a bracketed list behind a colon)."""

    def initiative(hero: str) -> str:
        card = cards.get(hero, "")
        return str(catalog.card(card).initiative) if catalog.is_action_card(card) else "?"

    def told(first: str, then: str) -> str:
        return " ".join(
            tr(first if i == 0 else then).format(
                hero=hero_name(hero),
                initiative=initiative(hero),
                card=item_name(catalog, cards.get(hero, "")),
            )
            for i, hero in enumerate(order)
        )

    text = told(
        N_("{hero} plays {card}, initiative {initiative}, and goes first."),
        N_("Then {hero} plays {card}, initiative {initiative}."),
    )
    if len(text) > REVEAL_CHARS:
        text = told(
            N_("{hero} goes first, initiative {initiative}."),
            N_("Then {hero}, initiative {initiative}."),
        )
    return text


def _line(title: str, headline: str, todo: Sequence[str] = (), rules: Sequence[str] = ()) -> Card:
    """A story item told in a line (`LINE_KINDS`): its sentence, then the table's to-dos."""
    return Card(
        title, headline, (), "", tuple(todo), (), tuple(rules), tr("Done"),
        unique_sentences([headline, *todo]),
    )  # fmt: skip


def line_card(catalog: Catalog, fortress: Fortress | None, announcement: Announcement) -> Card:
    facts = announcement.facts
    kind = announcement.kind
    hero = hero_name(str(facts.get("hero", "")))
    if kind == "round":
        # the Strigoi entering at the start of round 2 (R-SET-3) have their own card, with
        # the table's to-dos (story/strigoi_cards.placed_card): not told twice here
        number = as_int(facts.get("round"))
        return _line(
            tr("Round {round}").format(round=number),
            tr("Round {round} begins: each player chooses a card in secret.").format(round=number),
            (),
            ("R-RND-1",),
        )
    if kind == "order":
        cards = facts.get("cards")
        words = order_words(
            catalog,
            [str(h) for h in as_list(facts.get("order"))],
            {str(k): str(v) for k, v in cards.items()} if isinstance(cards, dict) else {},
        )
        return _line(tr("Turn order"), words, (), ("R-RND-1", "R-RND-2"))
    if kind == "turn":
        return _line(hero, tr("It is {hero}'s turn.").format(hero=hero), (), ("R-RND-3",))
    if kind == "encounter":
        token = str(facts.get("token", ""))
        return _line(
            tr("Encounter"),
            sentence(
                tr("{hero} flips {monster}").format(hero=hero, monster=token_phrase(catalog, token))
            ),
            (),
            ("R-ENC-1",),
        )
    if kind == "rotate":
        room = room_name(str(facts.get("room", "")))
        return _line(
            ability_name("mechanics"),
            tr("The platform of the {room} turns.").format(room=room),
            (tr("Turn the platform of the {room} on the table as the board shows.").format(
                room=room),),
            ("R-ABL",),
        )  # fmt: skip
    if kind == "protect":
        blocked, left = as_int(facts.get("blocked")), as_int(facts.get("left"))
        said = ngettext(
            "{hero} blocks {count} wound with Protection.",
            "{hero} blocks {count} wounds with Protection.",
            blocked,
        ).format(hero=hero, count=blocked)
        # the confirmation of what was blocked and what still hits (issue 40, item 6)
        if not left:
            said += " " + tr("{hero} takes no wound.").format(hero=hero)
        else:
            said += " " + ngettext(
                "{count} wound still hits.", "{count} wounds still hit.", left
            ).format(count=left)
        return _line(ability_name("protection"), said, (), ("R-ABL", "R-LOS-2"))
    if kind == "undone":
        step = ""
        with contextlib.suppress(CompanionError, ValueError, TypeError, KeyError):
            command = parse_command(facts.get("command"))
            # one sentence per kind, a card chosen in secret never named (issue 29, R-RND-1)
            step = undone_sentence(command, catalog, fortress)
        return _line(tr("Undo"), step or tr("Undone."))
    why, rules = why_of(announcement)
    return Card(
        kind, announcement.headline, (), "", (), why, rules, tr("Done"), announcement.headline
    )


__all__ = [
    "REVEAL_CHARS",
    "line_card",
    "order_words",
]
