"""The threat map as the screens show it (the touchscreen's toggle, the phones'): the engine's
threat map for the hero the game waits for, level by space; nothing when there is no such hero,
no Strigoi yet, or the hero is off the board."""

from __future__ import annotations

from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from companion.engine.threat import Level, threat_map
from companion.errors import CompanionError


def waiting_hero(task: Task | None, state: GameState) -> str | None:
    """The hero the game waits for (the mover), or the active one."""
    if task is not None and task.hero is not None:
        return task.hero
    return state.active_hero


def threat_levels(rules: GameRules, here: Situation, hero: str | None) -> dict[Cell, Level]:
    """Each space's threat level for `hero` on the situation `here` (the board's)."""
    if hero is None or not here.strigoi:
        return {}
    try:
        here.hero(hero)
        found = threat_map(
            rules.fortress, here, hero, None, rules.catalog.damage(), rules.options.rules
        )
    except (KeyError, CompanionError):  # the hero off the board: no map to show
        return {}
    return {cell: found.level(cell) for cell in found.cells}


__all__ = ["threat_levels", "waiting_hero"]
