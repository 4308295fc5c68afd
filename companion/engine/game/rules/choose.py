"""Phase 1, initiative (R-RND-1, R-RND-2): every player chooses a card in secret; when all have,
the cards are revealed and the turns go by initiative. Until then a player who has chosen may
choose another card instead (a face-down card can be swapped before all reveal together)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.state import GameState
from companion.engine.game.tasks import ChooseTask, StartTurnTask
from companion.errors import UnknownName


def choose(rules: GameRules, em: Emitter, task: ChooseTask, cmd: c.ChooseCard) -> None:
    state = em.state
    try:
        h = state.hero(cmd.hero)
    except UnknownName:
        raise refuse(cmd, f"{cmd.hero!r} is not playing") from None
    if h.chosen == cmd.card:
        raise refuse(cmd, f"{cmd.hero} has already chosen {cmd.card!r}")
    if cmd.card not in h.hand or not rules.is_action(cmd.card):
        raise refuse(cmd, f"{cmd.card!r} is not an action card in {cmd.hero}'s hand")
    em(e.CardChosen(hero=cmd.hero, card=cmd.card))
    if all(x.chosen is not None for x in state.heroes):
        order = sorted(
            state.heroes,
            key=lambda x: (
                rules.card(x.chosen or "").initiative,
                x.seat if rules.options.rules.seat_order_breaks_ties else 0,
            ),
        )
        em.done()
        em(e.CardsRevealed(order=[x.hero for x in order]))
        em(e.PhaseChanged(phase=Phase.TURNS, round=state.round, active=0))
        em.queue(StartTurnTask())


def legal(rules: GameRules, state: GameState, task: ChooseTask) -> list[c.Command]:
    # the first choices before the swaps: whoever takes the first legal command moves the game on
    waiting = [x for x in state.heroes if x.chosen is None]
    chosen = [x for x in state.heroes if x.chosen is not None]
    return [
        c.ChooseCard(hero=x.hero, card=card)
        for x in (*waiting, *chosen)
        for card in x.hand
        if rules.is_action(card) and card != x.chosen
    ]


RULE: TaskRule = TaskRule(
    kind=TaskKind.CHOOSE,
    task=ChooseTask,
    rules=("R-RND-1", "R-RND-2"),
    handlers={c.ChooseCard: choose},
    legal=legal,
)


__all__ = [
    "RULE",
    "choose",
    "legal",
]
