"""What the table must do and what differs from the game, in words: the to-dos, the
differences, the ladder sites of the setup."""
from __future__ import annotations

from collections.abc import Sequence

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.table.differences import Difference, Kind
from companion.app.table.tracking import Action, Step
from companion.app.words.i18n import N_, capital_first, ntr, tr
from companion.app.words.names import (
    direction_name,
    figure_label,
    first_book,
    platform_home,
    room_name,
)
from companion.engine.explain import (
    hero_name,
)
from companion.engine.fortress import Fortress


def action_text(fortress: Fortress, action: Action) -> str:
    """What the table must do, as a player reads it aloud."""
    room = room_name(action.room)
    book = first_book(fortress, action.room)
    facing = direction_name(action.rotation or 0)
    match action.step:
        case Step.TURN:
            return tr(
                "Turn the platform in the {room} until book {book} faces {direction}, the lit edge."
            ).format(room=room, book=book, direction=facing)
        case Step.SET_UP:
            return tr(
                "Set the platform of the {home} into the {room}, book {book} facing {direction}."
            ).format(
                home=platform_home(fortress, action.platform),
                room=room,
                book=book,
                direction=facing,
            )
        case Step.RESTORE_PLATFORM:
            return tr(
                "Put the platform back into the {room}, book {book} facing {direction}."
            ).format(room=room, book=book, direction=facing)
        case Step.REMOVE_PLATFORM:
            return tr("Take the platform out of the {room}: it collapsed.").format(room=room)
        case Step.PLACE_FIGURE:
            return tr("{figure}: put it on the centre of the {room}.").format(
                figure=figure_label(action.figure), room=room
            )
    if action.figure is None:
        return tr("Clear the centre of the {room}.").format(room=room)
    return tr("{figure}: take it off the centre of the {room}.").format(
        figure=figure_label(action.figure), room=room
    )


def table_line(fortress: Fortress, action: Action) -> str:
    """A line of the round screen's table list: what to do, then, as a sentence of its own,
    that the readers will see it done (never a second bracket after the first)."""
    text = action_text(fortress, action)
    if action.sensed:
        text += " " + tr("The readers will see it done.")
    return text


def differences_alert(fortress: Fortress, differences: Sequence[Difference]) -> str:
    """The round screen's strip: the first difference as its own sentence (a capital first),
    then how many more and what to do, as whole sentences of their own."""
    if not differences:
        return ""
    first = difference_text(fortress, differences[0])
    more = len(differences) - 1
    tail = (
        ntr(
            "And {count} more difference. Tap to resync.",
            "And {count} more differences. Tap to resync.",
            more,
        ).format(count=more)
        if more
        else tr("Tap to resync.")
    )
    return f"{capital_first(first)} {tail}"


def difference_text(fortress: Fortress, difference: Difference) -> str:
    """What the readers see that the game does not hold, in one sentence."""
    room = room_name(difference.room)
    reader = tr("rim reader") if difference.reader == 0 else tr("centre reader")
    book = first_book(fortress, difference.room)
    table, game = difference.table, difference.game
    match difference.kind:
        case Kind.ROTATION:
            return tr("{room}: book {book} faces {table}; the game has it facing {game}.").format(
                room=room,
                book=book,
                table=direction_name(int(table or 0)),
                game=direction_name(int(game or 0)),
            )
        case Kind.NO_PLATFORM:
            return tr("{room}: no platform is read; the game has one there.").format(room=room)
        case Kind.STILL_THERE:
            return tr("{room}: a platform is still there; it collapsed in the game.").format(
                room=room
            )
        case Kind.WRONG_PLATFORM:
            return tr("{room}: the platform of the {home} lies here.").format(
                room=room, home=platform_home(fortress, str(table))
            )
        case Kind.PLATFORM_TWICE:
            return tr("{room}: the same platform is read in two rooms (a doubled tag?).").format(
                room=room
            )
        case Kind.UNKNOWN_TAG:
            return tr("{room}: an unregistered tag lies on the {reader}.").format(
                room=room, reader=reader
            )
        case Kind.FOREIGN_TAG:
            return tr("{room}: something that is not meant there lies on the {reader}.").format(
                room=room, reader=reader
            )
        case Kind.FIGURE_MISSING:
            return tr("{room}: {figure} should stand on the centre.").format(
                room=room, figure=figure_label(str(game))
            )
        case Kind.WRONG_FIGURE:
            return tr("{room}: {figure} stands on the centre; the game has {other} there.").format(
                room=room, figure=figure_label(str(table)), other=figure_label(str(game))
            )
    return tr("{room}: {figure} stands on the centre; the game has nobody there.").format(
        room=room, figure=figure_label(str(table))
    )


def site_label(room: str, side: int) -> str:
    """A ladder site of the setup wizard, a label that starts with a capital in every
    language: "North-east room, north-west side" (room names are lower case mid-sentence)."""
    return capital_first(
        tr("{room}, {side} side").format(room=room_name(room), side=direction_name(side))
    )


def ladder_seat_line(hero: str, site: tuple[str, int] | None) -> str:
    """Where a hero's ladder stands, a sentence of the setup wizard's list ("Roel's ladder
    stands in the west room, on the south-west side."), never "Roel: West room, south-west
    side" (a capital mid-line, and French wants its own spacing before a colon)."""
    if site is None:
        return tr("{hero} has no ladder yet.").format(hero=hero_name(hero))
    room, side = site
    return tr("{hero}'s ladder stands in the {room}, on the {side} side.").format(
        hero=hero_name(hero), room=room_name(room), side=direction_name(side)
    )


#: why no ladder may stand on a site, as one sentence naming the site (setup_plan's reasons)
SITE_REFUSALS = {
    "no corridor reaches this side": N_(
        "No ladder on the {side} side of the {room}: no corridor reaches it."
    ),
    "the room's platform has the Strigoi mark": N_(
        "No ladder in the {room}: its platform has the Strigoi mark."
    ),
    "{hero}'s ladder stands here": N_(
        "No other ladder on the {side} side of the {room}: {hero}'s ladder stands there."
    ),
}


def site_refusal(room: str, side: int, reason: str, holder: str = "") -> str:
    """Why no ladder may stand on a site, one whole sentence in the players' language."""
    template = SITE_REFUSALS.get(reason)
    if template is None:
        return f"{site_label(room, side)}: {tr(reason).format(hero=hero_name(holder))}"
    return tr(template).format(
        room=room_name(room), side=direction_name(side), hero=hero_name(holder)
    )
