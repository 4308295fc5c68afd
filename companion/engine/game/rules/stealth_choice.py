"""After a Stealth peek (R-ENC-6): fight the monster, or leave it face up on its stack (no fight
this turn then)."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import fights
from companion.engine.game.rules.fight import resolve_monster_fight
from companion.engine.game.rules.own_turn import FIGHT_HANDLERS, fight_abilities
from companion.engine.game.state import GameState
from companion.engine.game.tasks import StealthChoiceTask


def stealth_choice(rules: GameRules, em: Emitter, task: StealthChoiceTask, cmd: Any) -> None:
    em.done()
    if not task.spent:  # the played card's icon, used now
        em(e.AbilityUsed(hero=cmd.hero, ability="stealth"))
    if isinstance(cmd, c.LeaveMonster):  # R-ENC-6
        em(e.TokenLeftFaceUp(stack=task.stack, token=task.token))
        em(e.FoughtThisTurn(value=False))
        return
    resolve_monster_fight(rules, em, task, cmd)


def legal(rules: GameRules, state: GameState, task: StealthChoiceTask) -> list[c.Command]:
    h = state.hero(task.hero)
    return [c.LeaveMonster(hero=h.hero), *fights(rules, h), *fight_abilities(rules, state, h)]


RULE: TaskRule = TaskRule(
    kind=TaskKind.STEALTH_CHOICE,
    task=StealthChoiceTask,
    rules=("R-ENC-6", "R-ABL Stealth"),
    handlers={c.Fight: stealth_choice, c.LeaveMonster: stealth_choice, **FIGHT_HANDLERS},
    legal=legal,
)


__all__ = [
    "RULE",
    "legal",
    "stealth_choice",
]
