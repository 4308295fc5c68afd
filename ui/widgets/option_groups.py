"""How the round screen offers the legal commands: one button each, except where a list would
be long or must stay private — those become one group button that opens its commands.

- Initiative: one group per hero, so a player opens only their own hand and the other cards
  stay hidden (R-RND-1: choices are secret until all are in).
- Mechanics: one group per room (6 rooms x 5 turns would be 30 buttons).
- Protection: the sources are toggled one by one, then "block" (`ProtectPicker`).
- Commands that go to a space (move, relocate, leap, pack, take a fight marker) are chosen on
  the board, not from a list: `board_modes` sorts them by what they do.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.board.targets import target_cell
from companion.engine.game import commands as c
from companion.engine.hexgrid import Cell


@dataclass(frozen=True)
class Group:
    key: tuple[str, ...]  # ("choose", hero) | ("mechanics", hero, room)
    commands: tuple[c.Command, ...]


Item = c.Command | Group


def group_key(command: c.Command) -> tuple[str, ...] | None:
    match command:
        case c.ChooseCard(hero=hero):
            return ("choose", hero)
        case c.UseMechanics(hero=hero, room=room):
            return ("mechanics", hero, room)
    return None


#: a board mode: what a tap on a space does, and with which source
Mode = tuple[str, str]
BOARD_COMMANDS = (c.Move, c.Relocate, c.Leap, c.PlaceFightMarker, c.UseLeap, c.UsePack)


def board_mode(command: c.Command) -> Mode | None:
    match command:
        case c.Move(stealth=stealth):
            return ("stealth" if stealth else "move", "")
        case c.Relocate():
            return ("relocate", "")
        case c.Leap(source=source):
            return ("escape", source)
        case c.PlaceFightMarker():
            return ("marker", "")
        case c.UseLeap(source=source):
            return ("leap", source)
        case c.UsePack(source=source):
            return ("pack", source)
    return None


def board_modes(commands: list[c.Command]) -> dict[Mode, dict[Cell, c.Command]]:
    """The commands chosen on the board, by mode, each mode's cells in the engine's order."""
    modes: dict[Mode, dict[Cell, c.Command]] = {}
    for command in commands:
        mode, cell = board_mode(command), target_cell(command)
        if mode is not None and cell is not None:
            modes.setdefault(mode, {}).setdefault(cell, command)
    return modes


def arrange(commands: list[c.Command]) -> list[Item]:
    """Commands in the engine's order; grouped ones where their first member stood."""
    items: list[Item] = []
    groups: dict[tuple[str, ...], list[c.Command]] = {}
    for command in commands:
        if isinstance(command, BOARD_COMMANDS):
            continue  # chosen on the board
        key = group_key(command)
        if key is None:
            items.append(command)
            continue
        if key not in groups:
            groups[key] = []
            items.append(Group(key, ()))
        groups[key].append(command)
    return [
        Group(item.key, tuple(groups[item.key])) if isinstance(item, Group) else item
        for item in items
    ]


@dataclass
class ProtectPicker:
    """Block wounds by toggling sources; the choice is one of the engine's legal `Protect`
    commands or nothing (so the button only offers what the rules allow)."""

    options: tuple[c.Protect, ...]
    chosen: frozenset[str] = frozenset()

    @property
    def sources(self) -> list[str]:
        seen: list[str] = []
        for option in self.options:
            seen += [s for s in option.sources if s not in seen]
        return seen

    def toggle(self, source: str) -> None:
        self.chosen = self.chosen ^ {source}

    def command(self) -> c.Protect | None:
        return next((o for o in self.options if frozenset(o.sources) == self.chosen), None)
