"""Every legal command for what the game waits on (python-chess style: generated, not guessed).

Each task module of `rules/` lists its own, beside the handler that applies them; manual
corrections are always possible and not listed."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import Phase
from companion.engine.game.registry import BY_TYPE
from companion.engine.game.state import GameState


def legal_commands(rules: GameRules, state: GameState) -> list[c.Command]:
    if state.phase == Phase.OVER or not state.tasks:
        return []
    task = state.tasks[0]
    return BY_TYPE[type(task)].legal(rules, state, task)


__all__ = ["legal_commands"]
