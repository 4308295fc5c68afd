"""The turn tracker as a value (issue 40, item 4): who acts in this round and in which order,
whom the game waits for, and each hero's wounds and rewards, built once from the game state.

The touchscreen's tracker strip and the phones' (table view and seat page) render this one
value; it holds ids and numbers, never words, so each front end says it in its own language.

Before the reveal the heroes stand in seat order, each "choosing" or "chosen" — never which
card (R-RND-1); after it in initiative order (R-RND-2) with the revealed initiative, "done",
"on the move" or "to come". The Strigoi's part of a turn (R-RND-3 c: its action token and what
follows from it) and the curse (R-CUR) mark the Strigoi instead of the hero."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engine.game.context import GameRules
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.state import GameState, HeroState


class Stage(StrEnum):
    """Where a hero is in this round."""

    CHOOSING = "choosing"  # R-RND-1: no card chosen yet
    CHOSEN = "chosen"  # a card chosen, kept secret until everyone has chosen
    TO_COME = "to_come"  # revealed: their turn is still to come
    ON_THE_MOVE = "on_the_move"  # their turn now
    DONE = "done"  # their turn is over this round


@dataclass(frozen=True)
class TrackerRow:
    """One hero in the tracker. `waited`: the game waits for this hero's decision now (their
    card, their move, blocking a wound during the Strigoi's attack)."""

    hero: str
    stage: Stage
    initiative: int | None  # the revealed card's initiative; None before the reveal
    wounds: int  # counted toward defeat (R-WND-1: the Double Wound counts 2)
    rewards: int  # reward cards and reward tokens held (R-REW)
    waited: bool


@dataclass(frozen=True)
class TurnTracker:
    """The round at a glance: the heroes in this round's order and the Strigoi after them.
    `strigoi_turn`: the Strigoi acts now (its token of the active hero's turn, or the curse)."""

    round: int
    phase: Phase
    revealed: bool
    rows: tuple[TrackerRow, ...]
    strigoi_turn: bool

    @property
    def marked(self) -> str | None:
        """The one the tracker marks as acting: a hero's id, "strigoi", or None (the choice of
        cards, where everyone who still chooses is waited for, or a finished game)."""
        if self.strigoi_turn:
            return "strigoi"
        return next((r.hero for r in self.rows if r.stage == Stage.ON_THE_MOVE), None)


#: tasks of the active hero's turn that come before the Strigoi's token (R-RND-3 a, b)
BEFORE_STRIGOI = frozenset({TaskKind.START_TURN, TaskKind.MOVE})


def strigoi_acts(state: GameState) -> bool:
    """Whether the Strigoi's part of a turn is on: its action token waits to be drawn, or the
    token was drawn and what it led to (wounds, a displaced hero, a counterattack) is not over;
    or the curse of phase 3 (R-CUR)."""
    if state.phase == Phase.CURSE:
        return True
    if state.phase != Phase.TURNS or not state.tasks:
        return False
    head = state.tasks[0].kind
    if head == TaskKind.STRIGOI:
        return True
    kinds = {t.kind for t in state.tasks}
    if TaskKind.STRIGOI in kinds or kinds & BEFORE_STRIGOI:
        return False  # the hero's own move and fight come first
    # the token is drawn: the step's consequences until the end of the turn; using an ability
    # when no token is drawn (R-ABL "When") is the hero's own
    return head not in (TaskKind.END_TURN, TaskKind.ABILITIES)


def turn_tracker(rules: GameRules, state: GameState) -> TurnTracker:
    """The tracker of `state`: one row per hero in this round's order."""
    revealed = state.phase != Phase.INITIATIVE and bool(state.turn_order)
    heroes: list[HeroState]
    if revealed:
        heroes = [state.hero(x) for x in state.turn_order]
    else:
        heroes = sorted(state.heroes, key=lambda h: h.seat)
    head = state.tasks[0] if state.tasks else None
    choosing = head is not None and head.kind == TaskKind.CHOOSE
    acting = state.active_hero
    order = state.turn_order
    rows = []
    for h in heroes:
        if not revealed:
            stage = Stage.CHOSEN if h.chosen is not None else Stage.CHOOSING
        elif state.phase != Phase.TURNS:  # the curse, or a game won
            stage = Stage.DONE
        elif h.hero == acting:
            stage = Stage.ON_THE_MOVE
        else:
            stage = Stage.DONE if order.index(h.hero) < state.active else Stage.TO_COME
        chosen = h.chosen if revealed else None
        initiative = (
            rules.catalog.card(chosen).initiative
            if chosen is not None and rules.catalog.is_action_card(chosen)
            else None
        )
        waited = (h.chosen is None) if choosing else (head is not None and head.hero == h.hero)
        rows.append(
            TrackerRow(
                hero=h.hero,
                stage=stage,
                initiative=initiative,
                wounds=sum(rules.catalog.wound(w).value for w in h.wounds),
                rewards=len(h.reward_cards) + len(h.reward_tokens),
                waited=waited and state.phase != Phase.OVER,
            )
        )
    return TurnTracker(
        round=state.round,
        phase=state.phase,
        revealed=revealed,
        rows=tuple(rows),
        strigoi_turn=strigoi_acts(state),
    )


__all__ = ["BEFORE_STRIGOI", "Stage", "TrackerRow", "TurnTracker", "strigoi_acts", "turn_tracker"]
