"""R-ABL "When": no Strigoi token is drawn this turn (round 1, or the Supreme), yet the hero
could still use an ability after the fight: they use them, then say Proceed."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.effects import supreme_steps
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.own_turn import TURN_HANDLERS, abilities_left, turn_abilities
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AbilitiesTask


def proceed(rules: GameRules, em: Emitter, task: AbilitiesTask, cmd: c.Proceed) -> None:
    """No more abilities: on to the Supreme's step or the end of the turn."""
    em.done()
    supreme_steps(em)


def legal(rules: GameRules, state: GameState, task: AbilitiesTask) -> list[c.Command]:
    return [c.Proceed(hero=task.hero), *turn_abilities(rules, state, state.hero(task.hero))]


def none_left(rules: GameRules, em: Emitter, task: AbilitiesTask) -> bool:
    if abilities_left(rules, em.state):
        return False
    em.done()
    supreme_steps(em)
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.ABILITIES,
    task=AbilitiesTask,
    rules=("R-ABL", "R-TEL-1"),
    handlers={c.Proceed: proceed, **TURN_HANDLERS},
    legal=legal,
    moot=none_left,
)


__all__ = [
    "RULE",
    "legal",
    "none_left",
    "proceed",
]
