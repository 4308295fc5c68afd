"""A story card as a value (its title, headline, figures, to-dos, rules) and the small helpers
every kind of card uses to say it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.app.story.announcement import Announcement
from companion.app.words.i18n import capital_first, tr
from companion.app.words.status import render
from companion.engine.explain import Reason, hero_name

#: from -> to in a headline. Kivy's Roboto lacks it: the card draws it in DejaVu Sans, which
#: Kivy ships (ui/screens/round/screen.py); an escape, so the font check reads no arrow here
ARROW = "\u2192"


@dataclass(frozen=True)
class Figure:
    """A large line on a card: a whole short sentence ("Roel is attacked and takes 2 wounds."),
    and an optional small sentence under it."""

    value: str
    caption: str = ""


@dataclass(frozen=True)
class Card:
    title: str  # which card: the Strigoi's name, "Curse", "Fight", ...
    headline: str  # large, a sentence: "The Master teleports to the north-east room."
    figures: tuple[Figure, ...]  # large sentences: who is attacked, the wounds, the strengths
    source: str  # sentences: the token drawn and whose card letter drove it
    todo: tuple[str, ...]  # what the table must do, in order
    why: tuple[str, ...]  # plain sentences
    rules: tuple[str, ...]  # the rule ids, shown small at the end
    done: str  # the button: what happened ("Figures moved") or "Done"
    words: str  # the sentences bannered and spoken while this card shows


def as_int(value: object) -> int:
    return value if isinstance(value, int) else 0


def as_list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def plain(reason: Reason) -> str:
    """An engine reason as a plain sentence in the players' language (counted words with their
    real plural: the engine's counted templates)."""
    return render(reason)


def sentence(text: str) -> str:
    """A reason as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = capital_first(text)
    return text if text[-1] in ".!?" else text + "."


def why_of(announcement: Announcement) -> tuple[tuple[str, ...], tuple[str, ...]]:
    sentences = tuple(sentence(plain(r)) for r in announcement.reasons)
    rules: list[str] = []
    for r in announcement.reasons:
        if r.rule not in rules:
            rules.append(r.rule)
    return sentences, tuple(rules)


def heroes_words(heroes: list[str]) -> str:
    names = [hero_name(h) for h in heroes]
    if len(names) <= 1:
        return "".join(names)
    return tr("{heroes} and {last}").format(heroes=", ".join(names[:-1]), last=names[-1])


def may_protect(hero: str) -> str:
    """The to-do that says the app asks next whether the hero blocks with Protection."""
    return tr("{hero} may block with Protection: the app asks next.").format(hero=hero_name(hero))


def asks(text: str, hero: object) -> bool:
    """A to-do that only says the app asks next (not said aloud: the next step asks it)."""
    return isinstance(hero, str) and text == may_protect(hero)


def unique_sentences(sentences: Iterable[str]) -> str:
    """Sentences said one after the other, none twice."""
    return " ".join(dict.fromkeys(x for x in sentences if x))


__all__ = [
    "ARROW",
    "Card",
    "Figure",
    "as_int",
    "as_list",
    "asks",
    "heroes_words",
    "may_protect",
    "plain",
    "sentence",
    "unique_sentences",
    "why_of",
]
