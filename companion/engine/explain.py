"""Structured explanations: every rule result says why, as data the UI and voice can render.

A `Reason` is a rule citation, a stable code and the facts it speaks about (figures by id).
`text()` renders plain English with heroes and Strigoi by name; other languages render the same
codes, and the Strigoi names, from their own catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

Fact = str | int | bool | None | tuple[int, int]

#: Compass names of the six directions as the default fortress and the text view show them
#: (pointy-topped hexes, direction 0 pointing right).
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


def N_(message: str) -> str:
    """Marks a template for translation (Babel extracts it; the app renders it translated)."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted template, its singular and plural (Babel extracts both as one message;
    the app picks the form for the count in the players' language)."""
    return singular, plural


#: Picks the form of a counted template for a count: gettext's ngettext in the players'
#: language, or English's rule (`english_plural`) where nobody translates.
Plural = Callable[[str, str, int], str]


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


#: Heroes by their printed names (R-CMP-3), the same in every language.
HERO_NAMES: Mapping[str, str] = {
    "attila": "Attila",
    "falk_maria": "Falk Maria",
    "matthew": "Matthew",
    "charles": "Charles",
    "roel": "Roel",
}

#: The Strigoi as their cards call them; each language's rulebook translates these (Meister,
#: Maestro, Maître...), so they are templates like the sentences.
STRIGOI_NAMES: Mapping[str, str] = {
    "master": N_("Master"),
    "apprentice": N_("Apprentice"),
    "supreme": N_("Supreme Strigoi"),
}
#: The Strigoi inside a sentence, with the article each language's rulebook gives them ("der
#: Lehrling", "l'Apprendista", "le Maître"): the subject form every sentence template takes, so
#: a sentence never reads "Lehrling bleibt" (issue 29). The names above stay for titles.
STRIGOI_SUBJECTS: Mapping[str, str] = {
    "master": N_("the Master"),
    "apprentice": N_("the Apprentice"),
    "supreme": N_("the Supreme Strigoi"),
}


def hero_name(hero: str) -> str:
    return HERO_NAMES.get(hero, hero)


def strigoi_name(strigoi: str, translate: Callable[[str], str] = N_) -> str:
    return translate(STRIGOI_NAMES[strigoi]) if strigoi in STRIGOI_NAMES else strigoi


def the_strigoi(strigoi: str, translate: Callable[[str], str] = N_) -> str:
    """A Strigoi as a sentence names it, its article included ("the Master", "der Meister")."""
    return translate(STRIGOI_SUBJECTS[strigoi]) if strigoi in STRIGOI_SUBJECTS else strigoi


def figure_name(figure: str, translate: Callable[[str], str] = N_) -> str:
    """A figure id as sight reports it ("hero:roel", "strigoi:master") by its name, a Strigoi
    with its article (it is said inside a sentence)."""
    kind, _, name = figure.partition(":")
    if kind == "hero":
        return hero_name(name)
    return the_strigoi(name, translate) if kind == "strigoi" else figure


_TEMPLATES: Mapping[str, str] = {
    "letter_x": N_("{strigoi} stays in {room}: the card shows X"),
    "book": N_("book {letter} in {room} points {direction_name}"),
    "no_room": N_("no room lies {direction_name} of {room}"),
    "collapsed_room": N_("the platform of {target} has collapsed"),
    "centre_not_destination": N_("{target} is the centre room, which has no platform"),
    "bounce": N_("{strigoi} bounces: it tries the opposite direction, {direction_name}"),
    "bounce_failed": N_(
        "neither {direction_name} nor {opposite_name} leads to a platform: "
        "{strigoi} stays in {room}"
    ),
    # one way leads to the centre room: said, or the drawn centre looks like a platform
    "bounce_failed_centre": N_(
        "neither {direction_name} nor {opposite_name} leads to a platform (the centre room "
        "has none): {strigoi} stays in {room}"
    ),
    "occupied": N_("{target} holds {other}: neither Strigoi moves"),
    "teleport": N_("{strigoi} teleports from {start} to the centre of {to}"),
    "ladder": N_("ladder {ladder} stands on that side of {room}"),
    "ladder_guarded": N_(
        "{hero} stands between {strigoi} and ladder {ladder} and is attacked instead"
    ),
    "ladder_destroyed": N_("{strigoi} destroys ladder {ladder} and does not move"),
    "ladder_occupied": N_(
        "{hero} was on ladder {ladder}: the pack loses 1 blood point and "
        "{hero} goes to another ladder or stairs of the player's choice"
    ),
    "last_ladder": N_("that was the last ladder: the pack loses 1 blood point"),
    "stays_no_attack": N_("{strigoi} did not move, so it does not attack"),
    "landing_on_hero": N_(
        "{hero} stands on the centre of {room}: no protection, the pack loses "
        "1 blood point and {hero} moves to a ladder or stairs"
    ),
    "sees": N_("looking {direction_name}: {figure} at distance {distance}"),
    "sees_nothing": "(counted: see _COUNTED)",
    "line_closed": N_("looking {direction_name}: the corridor is closed"),
    "target": N_("{strigoi} attacks {hero}, the nearest visible hero (distance {distance})"),
    "target_tie": N_(
        "{strigoi} attacks {hero}: distance {distance} is tied, {hero} has the higher initiative"
    ),
    "nobody_visible": N_("{strigoi} sees no hero and does not attack"),
    "wounds": "(counted: see _COUNTED)",
    "curse": N_("{strigoi} curses {room}: every hero there takes 1 wound"),
    "no_curse": N_("{strigoi} did not move: no curse"),
    "collapse_book": N_("book {letter} in {room} points {direction_name}"),
    "collapse_letter_x": N_("the card shows X: no book in the centre room, nothing collapses"),
    "collapse_no_room": N_("no room lies {direction_name} of the centre room: nothing collapses"),
    "already_collapsed": N_("the platform of {target} has already collapsed: nothing happens"),
    "collapse": N_("the platform of {target} collapses"),
    "leap": N_("{hero} leaps to safety inside {target}"),
    "crushed": N_(
        "{hero} cannot leap: the pack loses 1 blood point and {hero} moves to stairs or a ladder"
    ),
    "strigoi_to_centre": N_(
        "{strigoi} falls with the platform and moves to the centre room {room}"
    ),
}


#: The templates with a counted word: their two forms and the fact that counts.
_COUNTED: Mapping[str, tuple[tuple[str, str], str]] = {
    "sees_nothing": (
        Np_(
            "looking {direction_name}: nobody in sight along {reach} open space",
            "looking {direction_name}: nobody in sight along {reach} open spaces",
        ),
        "reach",
    ),
    "wounds": (
        Np_(
            "{wounds} wound: card damage {damage} + token bonus {bonus}",
            "{wounds} wounds: card damage {damage} + token bonus {bonus}",
        ),
        "wounds",
    ),
}


#: (key, value) -> how the table names it: the app names rooms, ladders and directions in the
#: players' language; without one, ids stay as they are (the published events, the tests).
Namer = Callable[[str, "Fact"], "Fact"]
#: the fact keys that hold a room id, a ladder id
ROOM_FACTS = ("room", "start", "to", "target")


class Reason(NamedTuple):
    """One step of an explanation. A NamedTuple: immutable and cheap, built on every rule call."""

    rule: str
    code: str
    facts: Mapping[str, Fact]

    def text(
        self,
        translate: Callable[[str], str] = N_,
        name: Namer | None = None,
        plural: Plural = english_plural,
    ) -> str:
        """The reason in words; `translate` maps the English template to another language's,
        `name` names rooms, ladders and directions as the table does, `plural` picks the form
        of a counted template (ngettext in the players' language)."""
        facts: dict[str, Fact] = dict(self.facts)
        for key in ("direction", "opposite"):  # the way tried, and the way it bounced back
            direction = facts.get(key)
            if isinstance(direction, int) and not isinstance(direction, bool):
                facts[f"{key}_name"] = (
                    DIRECTION_NAMES[direction] if name is None else name("direction", direction)
                )
        if name is not None:
            for key in (*ROOM_FACTS, "ladder"):
                if key in facts:
                    facts[key] = name(key, facts[key])
        for key, value in self.facts.items():  # ids as the table names them
            if not isinstance(value, str):
                continue
            if key in ("strigoi", "other"):
                facts[key] = the_strigoi(value, translate)
            elif key == "hero":
                facts[key] = hero_name(value)
            elif key == "figure":
                facts[key] = figure_name(value, translate)
        counted = _COUNTED.get(self.code)
        if counted is not None:
            (singular, several), fact = counted
            count = self.facts.get(fact)
            number = count if isinstance(count, int) and not isinstance(count, bool) else 2
            return plural(singular, several, number).format(**facts)
        return translate(_TEMPLATES[self.code]).format(**facts)

    def as_data(self) -> dict[str, object]:
        facts = {k: list(v) if isinstance(v, tuple) else v for k, v in self.facts.items()}
        return {"rule": self.rule, "code": self.code, "facts": facts, "text": self.text()}


def reason(rule: str, code: str, **facts: Fact) -> Reason:
    return Reason(rule, code, facts)


def known_codes() -> frozenset[str]:
    return frozenset(_TEMPLATES)


__all__ = [
    "DIRECTION_NAMES",
    "HERO_NAMES",
    "N_",
    "ROOM_FACTS",
    "STRIGOI_NAMES",
    "STRIGOI_SUBJECTS",
    "Fact",
    "Namer",
    "Np_",
    "Plural",
    "Reason",
    "english_plural",
    "figure_name",
    "hero_name",
    "known_codes",
    "reason",
    "strigoi_name",
    "the_strigoi",
]
