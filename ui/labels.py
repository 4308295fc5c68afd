"""What a command button says. Whole sentences are translated as templates; hero, card and room
names stay as printed; the Strigoi are named as each language's rulebook names them."""

from __future__ import annotations

import msgspec

from companion.app.differences import Difference, Kind
from companion.app.tracking import Action, Step
from companion.engine.components import Catalog
from companion.engine.explain import Reason, hero_name, strigoi_name
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game.flow import describe
from companion.engine.game.state import Task
from ui.i18n import N_, tr

MODES = {"normal": N_("normal"), "wild": N_("wild")}
ATTACKS = {"melee": N_("melee"), "ranged": N_("ranged")}
PHASES = {
    "initiative": N_("initiative"),
    "turns": N_("turns"),
    "curse": N_("curse"),
    "over": N_("game over"),
}


def item_name(catalog: Catalog, item: str) -> str:
    """A card or reward token as the table knows it: a card by its printed title, a token by
    what it gives; a reward card's "id:wild"-style mode is kept. Unknown ids stay as they are."""
    source, _, mode = item.partition(":")
    reward = catalog.reward_card(source)
    if reward is not None:
        return f"{reward.title} ({tr(MODES[mode])})" if mode in MODES else reward.title
    token = catalog.reward_token(source)
    if token is not None:  # a token has no modes
        gives = [f"+{token.strength}"] if token.strength else []
        gives += [a.replace("_", " ").capitalize() for a in token.abilities]
        return tr("token {gives}").format(gives=" ".join(gives))
    if catalog.is_action_card(source):
        return catalog.card(source).title
    return item


def command_label(command: c.Command, catalog: Catalog) -> str:
    """The button's text, cards and tokens by name (the catalog's) instead of id."""
    data = msgspec.to_builtins(command)
    kind = data.pop("do")
    hero = hero_name(data.pop("hero", ""))

    def named(items: list[str]) -> str:
        return ", ".join(item_name(catalog, x) for x in items)

    match command:
        case c.ChooseCard(card=card):
            return tr("{hero}: play {card}").format(hero=hero, card=item_name(catalog, card))
        case c.Stay():
            return tr("{hero}: stay").format(hero=hero)
        case c.Move(to=to, stealth=True):
            return tr("{hero}: move to {cell} with Stealth").format(hero=hero, cell=list(to))
        case c.Move(to=to):
            return tr("{hero}: move to {cell}").format(hero=hero, cell=list(to))
        case c.Draw():
            return tr("{hero}: draw a token").format(hero=hero)
        case c.SkipFight():
            return tr("{hero}: no fight").format(hero=hero)
        case c.Protect(sources=[]):
            return tr("{hero}: take the wounds").format(hero=hero)
        case c.Protect(sources=sources):
            return tr("{hero}: block with {sources}").format(hero=hero, sources=named(sources))
        case c.UseMechanics(room=room, rotation=rotation):
            return tr("{hero}: turn {room} to position {rotation}").format(
                hero=hero, room=room, rotation=rotation
            )
        case c.Fight(rewards=[]):
            return tr("{hero}: fight").format(hero=hero)
        case c.Fight(rewards=rewards):
            plays = named([f"{r.item}:{r.mode}" for r in rewards])
            return tr("{hero}: fight with {rewards}").format(hero=hero, rewards=plays)
        case c.AttackStrigoi(strigoi=strigoi, mode=mode, rewards=rewards):
            text = tr("{hero}: attack {strigoi} ({mode})").format(
                hero=hero, strigoi=strigoi_label(strigoi), mode=tr(ATTACKS.get(mode, mode))
            )
            if rewards:
                plays = named([f"{r.item}:{r.mode}" for r in rewards])
                text += " " + tr("with {rewards}").format(rewards=plays)
            return text
    details = ", ".join(f"{k} {v}" for k, v in data.items() if v not in (None, [], False))
    return f"{hero}: {kind.replace('_', ' ')}" + (f" ({details})" if details else "")


def group_label(key: tuple[str, ...]) -> str:
    """The button that opens a group of commands (ui/option_groups.py)."""
    if key[0] == "choose":
        return tr("{hero}: pick a card (only you look)").format(hero=hero_name(key[1]))
    if key[0] == "mechanics":
        return tr("{hero}: Mechanics, turn the platform of {room}").format(
            hero=hero_name(key[1]), room=key[2]
        )
    if key[0] == "leap":
        return tr("{hero}: Leap to a space of this room").format(hero=hero_name(key[1]))
    if key[0] == "pack":
        return tr("{hero}: Pack, jump to a comrade's room").format(hero=hero_name(key[1]))
    return " ".join(key)


def strigoi_label(strigoi: str) -> str:
    """Master, Apprentice or Supreme Strigoi in the players' language."""
    return strigoi_name(strigoi, tr)


def render(reason: Reason) -> str:
    """An engine reason in the players' language."""
    return reason.text(tr)


def waiting_label(task: Task | None) -> str:
    if task is None:
        return tr("nothing (game over)")
    return describe(task, tr)


# ----- the table: rooms, directions, figures, what to do, what differs --------------------------
#: Rooms by their compass position (the default fortress's ids); other ids stay as they are.
ROOM_NAMES = {
    "C": N_("centre room"),
    "N": N_("north room"),
    "NE": N_("north-east room"),
    "E": N_("east room"),
    "SE": N_("south-east room"),
    "S": N_("south room"),
    "SW": N_("south-west room"),
    "W": N_("west room"),
    "NW": N_("north-west room"),
}
#: The six directions of BOARD-FORMAT.md (0 = east, counter-clockwise).
DIRECTION_NAMES = (
    N_("east"),
    N_("north-east"),
    N_("north-west"),
    N_("west"),
    N_("south-west"),
    N_("south-east"),
)


def room_name(room: str) -> str:
    return tr(ROOM_NAMES[room]) if room in ROOM_NAMES else room


def direction_name(direction: int) -> str:
    return tr(DIRECTION_NAMES[direction % 6])


def figure_label(figure: str | None) -> str:
    """A figure on the table: a hero by name, a Strigoi figure as the rulebook names it."""
    if figure is None:
        return tr("nobody")
    return (
        strigoi_label(figure)
        if figure in ("master", "apprentice", "supreme")
        else hero_name(figure)
    )


def first_book(fortress: Fortress, room: str) -> str:
    """The letter of the room's platform's first book (books[0]): the mark a turn is told by."""
    platform = fortress.platforms.get(room)
    return platform.books[0] if platform is not None else "?"


def platform_home(fortress: Fortress, platform: str | None) -> str:
    """A platform named by the room it lies in at setup ("the platform of the north-east
    room"), never by its id."""
    room = next((r.id for r in fortress.rooms.values() if r.platform == platform), None)
    return room_name(room) if room is not None else tr("an unknown platform")


def action_text(fortress: Fortress, action: Action) -> str:
    """What the table must do, as a player reads it aloud."""
    room = room_name(action.room)
    book = first_book(fortress, action.room)
    facing = direction_name(action.rotation or 0)
    match action.step:
        case Step.TURN:
            return tr(
                "Turn the platform in the {room} until book {book} faces {direction} "
                "(the lit edge)."
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
