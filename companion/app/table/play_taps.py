"""A tag tapped on the card reader during play, turned into what the player means: an action or
advanced card chooses it (R-RND-1); a reward card offers its uses to its holder (R-REW-1: the
legal commands that play it, normal or wild); a figure names a hero to look at; an unknown tag
asks what it is (registration in play, not only in the setup wizard)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.engine.components import Catalog
from companion.engine.game import commands as c
from companion.engine.game.queries import source_item
from companion.engine.game.state import GameState


def commands_with(commands: Iterable[c.Command], item: str) -> list[c.Command]:
    """The commands among `commands` that play or give `item` (a reward card or token): fights
    and attacks with it, abilities taken from it, protection with it, swaps of it."""
    found = []
    for command in commands:
        rewards = getattr(command, "rewards", None) or []
        source = getattr(command, "source", None)
        sources = getattr(command, "sources", None) or []
        swapped = [*getattr(command, "give", []), *getattr(command, "take", [])]
        if (
            any(r.item == item for r in rewards)
            or (isinstance(source, str) and source != "card" and source_item(source) == item)
            or any(s != "card" and source_item(s) == item for s in sources)
            or item in swapped
        ):
            found.append(command)
    return found


def holder_of(state: GameState, item: str) -> str | None:
    """The hero holding a reward card or token (or a card in hand)."""
    for hero in state.heroes:
        if item in hero.hand or item in hero.reward_tokens:
            return hero.hero
    return None


@dataclass(frozen=True)
class TagChoice:
    """Something an unregistered tag could be: its registry kind and target."""

    kind: str
    target: str


def registration_choices(state: GameState, catalog: Catalog) -> list[TagChoice]:
    """What a tag tapped in play could stand for: the figures at the table, then the cards in
    the players' hands (action, advanced and reward cards)."""
    choices = [TagChoice("hero", h.hero) for h in sorted(state.heroes, key=lambda h: h.seat)]
    choices += [TagChoice("strigoi", s) for s in ("master", "apprentice")]
    for hero in sorted(state.heroes, key=lambda h: h.seat):
        for card in hero.hand:
            if catalog.reward_card(card) is not None:
                choices.append(TagChoice("reward_card", card))
            elif catalog.is_action_card(card):
                choices.append(TagChoice("action_card", card))
            else:
                choices.append(TagChoice("advanced_card", card))
    return choices
