"""Structured explanations: every rule result says why, as data the UI and voice can render.

A `Reason` is a rule citation, a stable code and the facts it speaks about. `text()` renders
plain English; other languages render the same codes from their own catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

Fact = str | int | bool | None | tuple[int, int]

#: Compass names of the six directions as the default fortress and the text view show them
#: (pointy-topped hexes, direction 0 pointing right).
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

_TEMPLATES: Mapping[str, str] = {
    "letter_x": "{strigoi} stays in {room}: the card shows X",
    "book": "book {letter} in {room} points {direction_name} (direction {direction})",
    "no_room": "no room lies {direction_name} of {room}",
    "collapsed_room": "the platform of {target} has collapsed",
    "centre_not_destination": "{target} is the centre room, which has no platform",
    "bounce": "{strigoi} bounces: it tries the opposite direction, {direction_name}",
    "bounce_failed": "the opposite direction fails too: {strigoi} stays in {room}",
    "occupied": "{target} holds the {other}: neither Strigoi moves",
    "teleport": "{strigoi} teleports from {start} to the centre of {to}",
    "ladder": "ladder {ladder} stands on that side of {room}",
    "ladder_guarded": "{hero} stands between {strigoi} and ladder {ladder} and is attacked instead",
    "ladder_destroyed": "{strigoi} destroys ladder {ladder} and does not move",
    "ladder_occupied": "{hero} was on ladder {ladder}: the pack loses 1 blood point and "
    "{hero} moves to other stairs",
    "last_ladder": "that was the last ladder: the pack loses 1 blood point",
    "stays_no_attack": "{strigoi} did not move, so it does not attack",
    "landing_on_hero": "{hero} stands on the centre of {room}: no protection, the pack loses "
    "1 blood point and {hero} moves to a ladder or stairs",
    "sees": "looking {direction_name}: {figure} at distance {distance}",
    "sees_nothing": "looking {direction_name}: nobody in sight along {reach} open space(s)",
    "line_closed": "looking {direction_name}: the corridor is closed",
    "target": "{strigoi} attacks {hero}, the nearest visible hero (distance {distance})",
    "target_tie": "{strigoi} attacks {hero}: distance {distance} is tied, {hero} has the higher "
    "initiative",
    "nobody_visible": "{strigoi} sees no hero and does not attack",
    "wounds": "{wounds} wound(s): card damage {damage} + token bonus {bonus}",
    "curse": "{strigoi} curses {room}: every hero there takes 1 wound",
    "no_curse": "{strigoi} did not move: no curse",
    "collapse_book": "book {letter} in the centre room {room} points {direction_name}",
    "collapse_letter_x": "the card shows X: no book in the centre room, nothing collapses",
    "collapse_no_room": "no room lies {direction_name} of the centre room: nothing collapses",
    "already_collapsed": "the platform of {target} has already collapsed: nothing happens",
    "collapse": "the platform of {target} collapses",
    "leap": "{hero} leaps to safety inside {target}",
    "crushed": "{hero} cannot leap: the pack loses 1 blood point and {hero} moves to stairs or a "
    "ladder",
    "strigoi_to_centre": "{strigoi} falls with the platform and moves to the centre room {room}",
}


class Reason(NamedTuple):
    """One step of an explanation. A NamedTuple: immutable and cheap, built on every rule call."""

    rule: str
    code: str
    facts: Mapping[str, Fact]

    def text(self) -> str:
        facts: dict[str, Fact] = dict(self.facts)
        for key in ("direction",):
            value = facts.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                facts[f"{key}_name"] = DIRECTION_NAMES[value]
        return _TEMPLATES[self.code].format(**facts)

    def as_data(self) -> dict[str, object]:
        facts = {k: list(v) if isinstance(v, tuple) else v for k, v in self.facts.items()}
        return {"rule": self.rule, "code": self.code, "facts": facts, "text": self.text()}


def reason(rule: str, code: str, **facts: Fact) -> Reason:
    return Reason(rule, code, facts)


def known_codes() -> frozenset[str]:
    return frozenset(_TEMPLATES)
