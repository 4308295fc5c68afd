"""The end of a turn (R-RND-3, R-ADV): earned cards join their hands; the next hero's turn, or
phase 3 — the curse, unless a Strigoi attacked this round or none is on the board (R-RND-4)."""

from __future__ import annotations

from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import CurseTask, EndRoundTask, EndTurnTask, StartTurnTask


def end_turn(rules: GameRules, em: Emitter, task: EndTurnTask) -> None:
    state = em.state
    em.done()
    for h in state.heroes:  # R-ADV: earned cards join the hand at the end of the turn
        if h.pending:
            em(e.AdvancedJoined(hero=h.hero))
    if state.active + 1 < len(state.turn_order):
        em(e.PhaseChanged(phase=Phase.TURNS, round=state.round, active=state.active + 1))
        em.queue(StartTurnTask())
        return
    if state.attack_marker or not state.strigoi:
        em.queue(EndRoundTask())
    else:
        em(e.PhaseChanged(phase=Phase.CURSE, round=state.round, active=0))
        em.queue(CurseTask(), EndRoundTask(), front=False)


RULE: TaskRule = TaskRule(
    kind=TaskKind.END_TURN, task=EndTurnTask, rules=("R-RND-3", "R-RND-4", "R-ADV-1"), auto=end_turn
)


__all__ = [
    "RULE",
    "end_turn",
]
