"""The active hero's turn begins (R-RND-3): move, then the Strigoi token, then the turn's end."""

from __future__ import annotations

from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import EndTurnTask, MoveTask, StartTurnTask, StrigoiTask


def start_turn(rules: GameRules, em: Emitter, task: StartTurnTask) -> None:
    hero = em.state.active_hero
    em.done()
    assert hero is not None, "a turn starts in the turns phase"
    em.queue(MoveTask(hero=hero), StrigoiTask(), EndTurnTask())


RULE: TaskRule = TaskRule(
    kind=TaskKind.START_TURN, task=StartTurnTask, rules=("R-RND-3",), auto=start_turn
)


__all__ = [
    "RULE",
    "start_turn",
]
