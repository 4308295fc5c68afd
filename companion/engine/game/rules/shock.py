"""A Shock wound (R-WND-1): discard a hand card to the played pile, or block the Shock with one
Protection (R-ABL: Protection blocks one wound or one Shock)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import protection_sources
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.state import GameState
from companion.engine.game.tasks import ShockTask


def shock(
    rules: GameRules, em: Emitter, task: ShockTask, cmd: c.DiscardForShock | c.Protect
) -> None:
    if isinstance(cmd, c.Protect):
        if len(cmd.sources) != 1:
            raise refuse(cmd, "one Protection blocks the Shock")
        em.done()
        spend_ability(rules, em, cmd, cmd.hero, "protection", cmd.sources[0])
        return
    if cmd.card not in em.state.hero(cmd.hero).hand:
        raise refuse(cmd, f"{cmd.card!r} is not in {cmd.hero}'s hand")
    em.done()
    em(e.CardPlayed(hero=cmd.hero, card=cmd.card, reason="shock"))


def legal(rules: GameRules, state: GameState, task: ShockTask) -> list[c.Command]:
    h = state.hero(task.hero)
    found: list[c.Command] = [c.DiscardForShock(hero=h.hero, card=x) for x in h.hand]
    return found + [  # R-ABL: one Protection blocks a Shock
        c.Protect(hero=h.hero, sources=[x]) for x in dict.fromkeys(protection_sources(rules, h))
    ]


def empty_hand(rules: GameRules, em: Emitter, task: ShockTask) -> bool:
    if em.state.hero(task.hero).hand:
        return False
    em.done()
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.SHOCK,
    task=ShockTask,
    rules=("R-WND-1", "R-ABL Protection"),
    handlers={c.DiscardForShock: shock, c.Protect: shock},
    legal=legal,
    moot=empty_hand,
)


__all__ = [
    "RULE",
    "empty_hand",
    "legal",
    "shock",
]
