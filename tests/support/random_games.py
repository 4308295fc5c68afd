"""Test helper: random legal games on the default fortress, every command with the story the
app tells of it (the cards, the banner, the voice)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from companion.app.story.announce import announcements
from companion.app.story.announcement import Announcement
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState

#: (before, command, events, after, story) of one command
Told = tuple[GameState, c.Command, list[e.Event], GameState, list[Announcement]]


def played(rules: GameRules, seats: Sequence[tuple[str, str]], games: int) -> Iterator[Told]:
    """Every command of `games` random games (seeds 0, 1, ...), to each game's end."""
    for seed in range(games):
        rng = random.Random(seed)
        state = started_state(new_game(rules, seed, list(seats)))
        while state.phase != "over":
            command = rng.choice(settled(state, legal_commands(rules, state)))
            events, after = decide(rules, state, command)
            yield state, command, events, after, announcements(rules, state, events, command)
            state = after


def settled(state: GameState, legal: list[c.Command]) -> list[c.Command]:
    """The legal commands but the swaps of a card already chosen (R-RND-1 allows them until the
    reveal): a random table that changes its mind plays the same games, only longer. Without
    them the list is what it was before swaps were legal, so the seeds keep their games."""
    return [
        x for x in legal if not (isinstance(x, c.ChooseCard) and state.hero(x.hero).chosen)
    ]
