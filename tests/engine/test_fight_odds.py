"""The fight helper's figures come from the engine (R-ENC-1): `fight_odds` before the fight
agrees with what the fight then does — a win takes no monster wound, a loss takes one."""

from __future__ import annotations

import random

import pytest

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import clone
from companion.engine.game.flow import decide
from companion.engine.game.game import Game
from companion.engine.game.queries import fight_odds
from companion.engine.game.state import GameState
from companion.engine.game.tasks import ProtectTask
from companion.errors import IllegalCommand

RULES = GameRules(load_board_file(), load_catalog())


def _fights(seed: int) -> list[tuple[GameState, c.Fight]]:
    game = Game.new(RULES, seed, [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")])
    rng = random.Random(seed)
    found = []
    for _ in range(3000):
        if game.over:
            break
        options = game.legal_commands()
        found += [(clone(game.state), o) for o in options if isinstance(o, c.Fight)]
        game.execute(rng.choice(options))
    return found


@pytest.mark.rule("R-ENC-2")
def test_fight_odds_predict_the_outcome() -> None:
    checked = {"won": 0, "lost": 0}
    for seed in range(12):
        for state, fight in _fights(seed):
            strength, monster = fight_odds(RULES, state, fight)
            events, _after = decide(RULES, state, fight)
            monster_wound = any(  # R-ENC-2: a lost fight queues the monster's wound
                isinstance(t, ProtectTask) and t.cause == state.tasks[0].token  # type: ignore[union-attr]
                for event in events
                if isinstance(event, e.TasksQueued)
                for t in event.tasks
            )
            assert monster_wound == (strength < monster), (seed, fight, strength, monster)
            checked["lost" if monster_wound else "won"] += 1
    assert checked["won"] > 0 and checked["lost"] > 0, checked


def test_fight_odds_refuse_outside_a_fight() -> None:
    game = Game.new(RULES, 1, [("roel", "L1"), ("matthew", "L2")])
    with pytest.raises(IllegalCommand, match="no monster fight"):
        fight_odds(RULES, game.state, c.Fight(hero="roel"))
