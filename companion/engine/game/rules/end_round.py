"""The end of a round (R-RND-4): advanced cards earned in the curse join their hands (R-ADV),
Destruction cards leave the game (R-ABL Destruction), an empty hand takes back the discard pile
of earlier rounds, and this round's cards form the new discard piles; in round 2 the Strigoi are
placed on their marked platforms at random (R-SET-3), and the players choose again."""

from __future__ import annotations

from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.queries import relocate_task
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import ChooseTask, EndRoundTask


def end_round(rules: GameRules, em: Emitter, task: EndRoundTask) -> None:
    state = em.state
    em.done()
    for h in state.heroes:  # R-ADV: earned in the curse, joined when that Strigoi turn ends
        if h.pending:
            em(e.AdvancedJoined(hero=h.hero))
    for h in state.heroes:  # R-ABL Destruction: the card leaves the game after use
        for card in list(h.played):
            if rules.is_action(card) and "destruction" in rules.card(card).abilities:
                em(e.CardRemoved(hero=h.hero, card=card))
    # R-RND-4: an empty hand takes the discard pile back, never a card played or discarded
    # this round (still beside the played card until RoundEnded makes the new pile).
    # Decision: when nothing is left from earlier rounds (every card went out this round),
    # this round's cards come back, so the player can choose a card again.
    empty = [h.hero for h in state.heroes if not any(rules.is_action(x) for x in h.hand)]
    for hero in empty:
        if state.hero(hero).discard:
            em(e.HandRecovered(hero=hero))
    em(e.RoundEnded(round=state.round))
    for hero in empty:
        h = state.hero(hero)
        if not any(rules.is_action(x) for x in h.hand) and h.discard:
            em(e.HandRecovered(hero=hero))
    new_round = state.round + 1
    em(e.PhaseChanged(phase=Phase.INITIATIVE, round=new_round, active=0))
    if new_round == 2 and not state.strigoi and not state.destroyed:  # R-SET-3
        marked = sorted(r.id for r in rules.fortress.rooms.values() if r.strigoi_start)
        if len(marked) >= 2:
            rooms = marked[:2]
            em.random().shuffle(rooms)
            # Decision (R-SET-3): a hero standing on a starting centre steps off to a ladder or
            # stairs of their choice (as in R-LOS-4, but no attack and no blood point is lost).
            centres = {rules.fortress.centre(room) for room in rooms}
            displaced = [h.hero for h in state.heroes if h.at in centres]
            for hero in displaced:
                em.queue(relocate_task(rules, em.state, hero, ladders_first=True), front=False)
                em(e.HeroMoved(hero=hero, to=None))
            em(
                e.StrigoiPlaced(strigoi="master", room=rooms[0]),
                e.StrigoiPlaced(strigoi="apprentice", room=rooms[1]),
            )
    em.queue(ChooseTask(), front=False)


RULE: TaskRule = TaskRule(
    kind=TaskKind.END_ROUND,
    task=EndRoundTask,
    rules=("R-RND-4", "R-SET-3", "R-ABL Destruction"),
    auto=end_round,
)


__all__ = [
    "RULE",
    "end_round",
]
