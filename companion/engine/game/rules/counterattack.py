"""A counterattack (R-LOS-5): the attacked hero may fight the Strigoi that attacked them, with
enough blood on the Altar; only reward abilities act during it."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import strigoi_targets
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.fight_choice import attack_strigoi, attacks
from companion.engine.game.rules.own_turn import FIGHT_HANDLERS, fight_abilities, retrieval
from companion.engine.game.state import GameState
from companion.engine.game.tasks import CounterattackTask


def legal(rules: GameRules, state: GameState, task: CounterattackTask) -> list[c.Command]:
    return attacks(rules, state, task.hero, task.strigoi) + fight_abilities(
        rules, state, state.hero(task.hero)
    )


def out_of_reach(rules: GameRules, em: Emitter, task: CounterattackTask) -> bool:
    if [t for t in strigoi_targets(rules, em.state, task.hero) if t[0] == task.strigoi]:
        return False
    em.done()
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.COUNTERATTACK,
    task=CounterattackTask,
    rules=("R-LOS-5", "R-HIT-3"),
    handlers={
        c.AttackStrigoi: attack_strigoi,
        c.SkipFight: attack_strigoi,
        c.UseRetrieval: retrieval,
        **FIGHT_HANDLERS,
    },
    legal=legal,
    moot=out_of_reach,
)


__all__ = [
    "RULE",
    "legal",
    "out_of_reach",
]
