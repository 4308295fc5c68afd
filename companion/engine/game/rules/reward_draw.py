"""A reward drawn at the table (physical, R-REW): the player enters the token or card that came
up; a third reward card may earn another player the Nighttime Rebel (R-ADV-2)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import draw_token, nighttime_rebel
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import draws
from companion.engine.game.state import GameState
from companion.engine.game.tasks import RewardDrawTask


def reward_draw(rules: GameRules, em: Emitter, task: RewardDrawTask, cmd: c.EnterDraw) -> None:
    stack = task.stack
    item = draw_token(em, rules, stack, cmd.token)
    em.done()
    assert item is not None
    em(e.RewardTaken(hero=cmd.hero, stack=stack, item=item))
    if stack == "reward_card":
        nighttime_rebel(rules, em, cmd.hero)


def legal(rules: GameRules, state: GameState, task: RewardDrawTask) -> list[c.Command]:
    return draws(rules, state, task.hero, task.stack)


RULE: TaskRule = TaskRule(
    kind=TaskKind.REWARD_DRAW,
    task=RewardDrawTask,
    rules=("R-REW-1", "R-REW-2", "R-ADV-2"),
    handlers={c.EnterDraw: reward_draw},
    legal=legal,
)


__all__ = [
    "RULE",
    "legal",
    "reward_draw",
]
