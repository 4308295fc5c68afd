"""What each item of a command's story says, in the players' language: the card the round screen
shows (a large headline, then large lines that say who is hit and how hard, the token and whose
card letter drove it, what the table must do, why in plain sentences with the rule ids apart) and
the words bannered and spoken while that card shows (`Card.words`). Every one of them is a whole
sentence (issue 29): never a big word over a small remainder ("nobody" over "attacked"), a
Strigoi always with its article ("Der Lehrling bleibt…").

The items themselves (a Strigoi step, a curse or why there is none, a collapse, a fight, a monk,
wounds, a reward) and their order come from companion/app/story/announce.py; this module only words
them. Counted words use real plurals (`ngettext`)."""

from __future__ import annotations

from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import Card, plain, sentence
from companion.app.story.hero_cards import fight_card, monk_card, reward_card, wound_card
from companion.app.story.line_cards import line_card
from companion.app.story.strigoi_cards import (
    collapse_card,
    curse_card,
    placed_card,
    skipped_curse_card,
    strigoi_step_card,
)
from companion.engine.components import Catalog
from companion.engine.fortress import Fortress


def why_rows(catalog: Catalog, announcement: Announcement) -> list[tuple[str, str]]:
    """Why?, as plain sentences each with the rules it comes from (never shown in the
    sentence: the rule opens from its own tap target): the engine's reasons one by one, or
    the card's own sentences."""
    if announcement.reasons:
        return [(sentence(plain(r)), r.rule) for r in announcement.reasons]
    card = card_of(catalog, announcement)
    rules = " ".join(card.rules)
    return [(sentence, rules) for sentence in card.why if sentence]


def card_of(catalog: Catalog, announcement: Announcement, fortress: Fortress | None = None) -> Card:
    """The card of one story item, in the players' language."""
    kind = announcement.kind
    if kind == "strigoi_step":
        return strigoi_step_card(catalog, announcement)
    if kind == "curse":
        return curse_card(catalog, announcement)
    if kind == "curse_skipped":
        return skipped_curse_card(announcement)
    if kind == "strigoi_placed":
        return placed_card(announcement)
    if kind == "collapse":
        return collapse_card(announcement)
    if kind == "fight":
        return fight_card(catalog, fortress, announcement)
    if kind == "monk":
        return monk_card(catalog, fortress, announcement)
    if kind == "wound":
        return wound_card(catalog, announcement)
    if kind == "reward":
        return reward_card(catalog, announcement)
    return line_card(catalog, fortress, announcement)


def spoken(catalog: Catalog, announcement: Announcement, fortress: Fortress | None = None) -> str:
    """The one sentence of a story item (the voice says it; the banner shows it with its card)."""
    return card_of(catalog, announcement, fortress).words


__all__ = [
    "card_of",
    "spoken",
    "why_rows",
]
