"""Wound tokens drawn at the table (physical): one entered per unblocked wound (R-WND-1,
R-WND-2); a third wound ends the drawing."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.effects import draw_token, take_wound
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import draws
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AnyTask, ShockTask, WoundDrawTask


def wound_draw(rules: GameRules, em: Emitter, task: WoundDrawTask, cmd: c.EnterDraw) -> None:
    hero = task.hero
    token = draw_token(em, rules, "wound", cmd.token)
    em.done()
    assert token is not None
    defeated, shock = take_wound(rules, em, hero, token, task.attacker)
    if defeated:
        return
    tasks: list[AnyTask] = []
    if task.wounds > 1:
        tasks.append(WoundDrawTask(hero=hero, wounds=task.wounds - 1, attacker=task.attacker))
    if shock:
        tasks.append(ShockTask(hero=hero))
    if tasks:
        em.queue(*tasks)


def legal(rules: GameRules, state: GameState, task: WoundDrawTask) -> list[c.Command]:
    return draws(rules, state, task.hero, "wound")


RULE: TaskRule = TaskRule(
    kind=TaskKind.WOUND_DRAW,
    task=WoundDrawTask,
    rules=("R-WND-1", "R-WND-2"),
    handlers={c.EnterDraw: wound_draw},
    legal=legal,
)


__all__ = [
    "RULE",
    "legal",
    "wound_draw",
]
