"""Phase 3, the curse (R-CUR): the Master (the Supreme, once one Strigoi is gone) teleports by
the first player's card and curses every hero in sight; each may protect, except the one it
lands on (Decision); displaced heroes are asked where to go."""

from __future__ import annotations

from companion.engine.game import events as e
from companion.engine.game.context import GameRules, played_card, situation
from companion.engine.game.effects import lose_blood
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import relocate_task
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import AnyTask, CurseTask, ProtectTask
from companion.engine.strigoi import curse as curse_of
from companion.engine.strigoi import cursing_strigoi
from companion.errors import IllegalCommand


def curse(rules: GameRules, em: Emitter, task: CurseTask) -> None:
    state = em.state
    em.done()
    first = state.hero(state.turn_order[0])
    card = played_card(rules, first)
    if card is None:
        return
    try:
        name = cursing_strigoi(situation(rules, state))
    except IllegalCommand:
        return
    result = curse_of(rules.fortress, situation(rules, state), card.letter, rules.options.rules)
    landed = set(result.relocate) if result.teleport.moved else set()
    by_seat = sorted(result.cursed, key=lambda x: state.hero(x).seat)
    tasks: list[AnyTask] = [
        # R-CUR Decision: the hero on the landing centre is cursed without protection
        ProtectTask(hero=x, wounds=1, attacker=name, protectable=x not in landed)
        for x in by_seat
    ]
    ladders_first = result.ladder_destroyed is None  # as in R-LOS-4 / R-TEL-4
    tasks += [relocate_task(rules, em.state, x, ladders_first) for x in result.relocate]
    if tasks:  # asked before the heroes are taken off the board
        em.queue(*tasks)
    for hero in result.relocate:  # off the board until placed
        em(e.HeroMoved(hero=hero, to=None))
    if result.teleport.moved:
        em(e.StrigoiMoved(strigoi=name, room=result.teleport.to))
        em(e.CurseCast(strigoi=name, room=result.teleport.to, heroes=list(result.cursed)))
    if result.ladder_destroyed is not None:
        em(e.LadderDestroyed(ladder=result.ladder_destroyed))
    for _ in range(result.blood_lost):
        lose_blood(em, f"{name}'s curse")


RULE: TaskRule = TaskRule(kind=TaskKind.CURSE, task=CurseTask, rules=("R-CUR-1",), auto=curse)


__all__ = [
    "RULE",
    "curse",
]
