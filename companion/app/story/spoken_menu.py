"""The choices of a table without a screen, as a voice reads them: Next reads one item after
the other, Confirm takes it. A long run of commands to a space (139 spaces to move to) is one
item in words ("Roel can move to 139 spaces. Press Confirm to choose the room."); Confirm
opens it by room, then the room's spaces one by one. A card chosen in secret is never read
out (R-RND-1): its holder taps it on the card reader. On the simulated board nobody can tap
its reader, so Next offers a tap of the simulated reader for each hero still choosing: Confirm
plays a card of theirs without its name being said (the simulated hands, as for figures)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.app.board.targets import target_cell
from companion.app.words.i18n import ntr, tr
from companion.app.words.names import room_name
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c

#: a run of commands to spaces longer than this is read as one item, then by room
SPACES_READ_ONE_BY_ONE = 6


@dataclass(frozen=True)
class Group:
    """Several commands read as one item; Confirm opens them."""

    words: str
    commands: tuple[c.Command, ...]


@dataclass(frozen=True)
class SimulatedTap:
    """A hero's secret card tapped on the simulated reader: read without the card's name."""

    hero: str
    command: c.ChooseCard


Item = c.Command | Group | SimulatedTap


def _kind(command: c.Command) -> str:
    if isinstance(command, c.Move):
        return "stealth" if command.stealth else "move"
    if isinstance(command, c.UseLeap):
        return "leap"
    return type(command).__name__.lower()


def _many(kind: str, hero: str, count: int) -> str:
    """A hero's spaces of one kind, in one sentence per language."""
    if kind == "stealth":
        text = ntr(
            "{hero} can move with Stealth to {count} space. Press Confirm to choose the room.",
            "{hero} can move with Stealth to {count} spaces. Press Confirm to choose the room.",
            count,
        )
    elif kind == "relocate":
        text = ntr(
            "{hero} can go to {count} ladder or stairs space. Press Confirm to choose the room.",
            "{hero} can go to {count} ladder or stairs spaces. Press Confirm to choose the room.",
            count,
        )
    elif kind == "leap":
        text = ntr(
            "{hero} can Leap to {count} space. Press Confirm to choose the room.",
            "{hero} can Leap to {count} spaces. Press Confirm to choose the room.",
            count,
        )
    elif kind == "usepack":
        text = ntr(
            "{hero} can jump with Pack to {count} space. Press Confirm to choose the room.",
            "{hero} can jump with Pack to {count} spaces. Press Confirm to choose the room.",
            count,
        )
    elif kind == "placefightmarker":
        text = ntr(
            "{hero} can take a fight marker from {count} space. Press Confirm to choose the room.",
            "{hero} can take a fight marker from {count} spaces. Press Confirm to choose the room.",
            count,
        )
    else:
        text = ntr(
            "{hero} can move to {count} space. Press Confirm to choose the room.",
            "{hero} can move to {count} spaces. Press Confirm to choose the room.",
            count,
        )
    return text.format(hero=hero_name(hero), count=count)


def items(commands: list[c.Command], simulated: bool = False) -> list[Item]:
    """The choices to read: commands in the engine's order, a long run of one hero's commands
    of one kind to spaces as one group where its first stood, card choices left out (they
    are secret: `secret_choosers` says who still chooses); on the `simulated` board, one
    simulated reader's tap for each hero still choosing, where that hero's first card stood."""
    runs: dict[tuple[str, str], list[c.Command]] = {}
    for command in commands:
        if target_cell(command) is not None:
            runs.setdefault((getattr(command, "hero", ""), _kind(command)), []).append(command)
    out: list[Item] = []
    opened: set[tuple[str, str]] = set()
    tapped: set[str] = set()
    for command in commands:
        if isinstance(command, c.ChooseCard):
            if simulated and command.hero not in tapped:
                tapped.add(command.hero)
                out.append(SimulatedTap(command.hero, command))
            continue
        if target_cell(command) is None:
            out.append(command)
            continue
        key = (getattr(command, "hero", ""), _kind(command))
        run = runs[key]
        if len(run) <= SPACES_READ_ONE_BY_ONE:
            out.append(command)
        elif key not in opened:
            opened.add(key)
            out.append(Group(_many(key[1], key[0], len(run)), tuple(run)))
    return out


def by_room(group: Group, fortress: Fortress) -> list[Item]:
    """An opened group: one item per room (its spaces one by one when a room has few)."""
    rooms: dict[str, list[c.Command]] = {}
    for command in group.commands:
        cell = target_cell(command)
        room = fortress.room_at(cell) if cell is not None else None
        rooms.setdefault(room or "", []).append(command)
    out: list[Item] = []
    for room, commands in rooms.items():
        if len(commands) == 1 or not room:
            out.extend(commands)
            continue
        words = ntr(
            "{count} space in the {room}. Press Confirm to hear it.",
            "{count} spaces in the {room}. Press Confirm to hear them.",
            len(commands),
        ).format(room=room_name(room), count=len(commands))
        out.append(Group(words, tuple(commands)))
    return out


def secret_choosers(commands: list[c.Command]) -> list[str]:
    """The heroes who still choose a card in secret, in the engine's order."""
    heroes: list[str] = []
    for command in commands:
        if isinstance(command, c.ChooseCard) and command.hero not in heroes:
            heroes.append(command.hero)
    return heroes


def choose_in_secret(hero: str) -> str:
    return tr("{hero}, choose your card in secret: tap it on the card reader.").format(
        hero=hero_name(hero)
    )


def read(item: Item, position: int, count: int, label: Callable[[c.Command], str]) -> str:
    """What Next says for an item, one sentence: "Choice 1 of 2: Attila stays where they are."
    (`label` gives a command's spoken sentence)."""
    if isinstance(item, Group):
        words = item.words
    elif isinstance(item, SimulatedTap):
        words = tr("the simulated reader plays a card for {hero} without saying which.").format(
            hero=hero_name(item.hero)
        )
    else:
        words = label(item)  # one sentence (labels.SPOKEN), never "Attila: stay"
    words = words.strip()
    if words and words[-1] not in ".!?":
        words += "."
    return tr("Choice {position} of {count}: {choice}").format(
        position=position, count=count, choice=words
    )


__all__ = [
    "SPACES_READ_ONE_BY_ONE",
    "Group",
    "Item",
    "SimulatedTap",
    "by_room",
    "choose_in_secret",
    "items",
    "read",
    "secret_choosers",
]
