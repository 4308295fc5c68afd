"""How the round screen offers the legal commands: one button each, except where a list would
be long or must stay private — those become one group button that opens its commands.

- Initiative: one group per hero, so a player opens only their own hand and the other cards
  stay hidden (R-RND-1: choices are secret until all are in).
- Mechanics: one group per room (6 rooms x 5 turns would be 30 buttons); Leap and Pack: one
  group each (one command per reachable space).
- Protection: the sources are toggled one by one, then "block" (`ProtectPicker`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.game import commands as c


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
        case c.UseLeap(hero=hero):
            return ("leap", hero)
        case c.UsePack(hero=hero):
            return ("pack", hero)
    return None


def arrange(commands: list[c.Command]) -> list[Item]:
    """Commands in the engine's order; grouped ones where their first member stood."""
    items: list[Item] = []
    groups: dict[tuple[str, ...], list[c.Command]] = {}
    for command in commands:
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
