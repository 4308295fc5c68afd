"""A monk drawn (R-ENC-3): free him (the discard pile back into the hand, a fight marker), or
attack him: he turns into the top grey monster, fought as drawn."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import fight_marker
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.state import GameState
from companion.engine.game.tasks import EncounterTask, MonkTask


def monk(rules: GameRules, em: Emitter, task: MonkTask, cmd: Any) -> None:
    em.done()
    em(e.TokenDiscarded(stack=task.stack, token=task.token))
    if isinstance(cmd, c.FreeMonk):  # R-ENC-3
        em(e.HandRecovered(hero=cmd.hero))
        fight_marker(rules, em, cmd.hero)
        return
    # The monk turns into the top grey monster: drawn like any encounter (or entered, physical).
    em.queue(EncounterTask(hero=cmd.hero, stack="grey", monk=True))


def legal(rules: GameRules, state: GameState, task: MonkTask) -> list[c.Command]:
    return [c.FreeMonk(hero=task.hero), c.AttackMonk(hero=task.hero)]


RULE: TaskRule = TaskRule(
    kind=TaskKind.MONK,
    task=MonkTask,
    rules=("R-ENC-3",),
    handlers={c.FreeMonk: monk, c.AttackMonk: monk},
    legal=legal,
)


__all__ = [
    "RULE",
    "legal",
    "monk",
]
