"""Wound tokens drawn by the app (R-WND-1, R-WND-2): one per unblocked wound; a third wound ends
the drawing (the hero is defeated); each Shock asks for a card."""

from __future__ import annotations

from companion.engine.game.context import GameRules
from companion.engine.game.effects import draw_token, take_wound
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import ShockTask, WoundsTask


def wounds(rules: GameRules, em: Emitter, task: WoundsTask) -> None:
    hero = task.hero
    em.done()
    shocks: list[ShockTask] = []
    for _ in range(task.wounds):
        token = draw_token(em, rules, "wound", None)
        if token is None:
            break
        defeated, shock = take_wound(rules, em, hero, token, task.attacker)
        if defeated:
            shocks = []
            break
        if shock:
            shocks.append(ShockTask(hero=hero))
    if shocks:
        em.queue(*shocks)


RULE: TaskRule = TaskRule(
    kind=TaskKind.WOUNDS, task=WoundsTask, rules=("R-WND-1", "R-WND-2", "R-ADV-2"), auto=wounds
)


__all__ = [
    "RULE",
    "wounds",
]
