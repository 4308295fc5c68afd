"""The turn tracker as a value (issue 40, item 4), on games played through the table service:
seat order with "choosing"/"chosen" before the reveal and never the card (R-RND-1), initiative
order after it (R-RND-2), the hero on the move and the Strigoi's part of a turn marked
(R-RND-3), wounds and rewards as the state has them."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.devices.voice import Silent
from companion.app.service import TableService
from companion.app.session.turn_tracker import Stage, TurnTracker, turn_tracker
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.state import GameState
from tests.support.random_games import settled


def check(tracker: TurnTracker, state: GameState, rules_wound: Callable[[str], int]) -> None:
    """Every promise of the tracker against the state it was built from."""
    rows = tracker.rows
    assert sorted(r.hero for r in rows) == sorted(h.hero for h in state.heroes)
    for row in rows:
        h = state.hero(row.hero)
        assert row.wounds == sum(rules_wound(w) for w in h.wounds)
        assert row.rewards == len(h.reward_cards) + len(h.reward_tokens)
    if state.phase == Phase.INITIATIVE:
        # R-RND-1: seat order, who has chosen, never which card (no initiative before the reveal)
        assert not tracker.revealed
        seats = sorted(state.heroes, key=lambda h: h.seat)
        assert [r.hero for r in rows] == [h.hero for h in seats]
        for row in rows:
            chosen = state.hero(row.hero).chosen is not None
            assert row.stage == (Stage.CHOSEN if chosen else Stage.CHOOSING)
            assert row.initiative is None
            assert row.waited == (not chosen)
        assert tracker.marked is None
        return
    # R-RND-2: this round's turn order, by ascending initiative
    assert tracker.revealed
    assert [r.hero for r in rows] == state.turn_order
    initiatives = [r.initiative for r in rows if r.initiative is not None]
    assert initiatives == sorted(initiatives)
    if state.phase == Phase.TURNS:
        stages = [r.stage for r in rows]
        a = state.active
        after = len(rows) - a - 1
        assert stages == [Stage.DONE] * a + [Stage.ON_THE_MOVE] + [Stage.TO_COME] * after
        head = state.tasks[0]
        if head.kind == TaskKind.STRIGOI:
            assert tracker.marked == "strigoi"
        elif head.kind in (TaskKind.MOVE, TaskKind.END_TURN):
            assert tracker.marked == state.active_hero
        waited = [r.hero for r in rows if r.waited]
        assert waited == ([head.hero] if head.hero else [])
    else:
        assert all(r.stage == Stage.DONE for r in rows)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_tracker_follows_games_played_through_the_service(tmp_path: Path, seed: int) -> None:
    posted: list[Callable[[], None]] = []
    service = TableService(tmp_path, posted.append, speaker=Silent())
    marks: list[tuple[int, str]] = []  # (round, marked) each time the mark changes
    try:
        service.start()
        session = service.new_game(seed)
        rules = session.rules
        rng = random.Random(seed)
        while session.state.round < 4 and session.state.phase != Phase.OVER:
            state = session.state
            tracker = turn_tracker(rules, state)
            check(tracker, state, lambda w: rules.catalog.wound(w).value)
            if tracker.marked and (not marks or marks[-1] != (state.round, tracker.marked)):
                marks.append((state.round, tracker.marked))
            outcome = service.execute(rng.choice(settled(state, session.legal_commands())))
            assert outcome.refused is None
            while posted:
                posted.pop(0)()
    finally:
        service.close()
    # the mark goes from hero to hero in each round's order, and to the Strigoi from round 2 on
    for number in (1, 2, 3):
        heroes = [m for r, m in marks if r == number and m != "strigoi"]
        assert len(heroes) >= 2, marks
    assert any(m == "strigoi" for r, m in marks if r >= 2), marks
    assert not any(m == "strigoi" for r, m in marks if r == 1)  # R-TEL-1: from round 2 on
