"""A game in memory: state plus the log of its events (the store persists the same events)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.flow import advance, decide_in_place, describe, started_state
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState, Task


def replay(events: list[e.Event]) -> GameState:
    """The state after `events` (the first must be GameStarted): state = fold of events."""
    first = events[0]
    if not isinstance(first, e.GameStarted):
        raise ValueError("a game log starts with GameStarted")
    state = started_state(first)
    for event in events[1:]:
        e.apply(state, event)
    return state


class GameView:
    """What every holder of a game state can ask: legal commands, what the game waits for."""

    rules: GameRules
    state: GameState

    def legal_commands(self) -> list[c.Command]:
        return legal_commands(self.rules, self.state)

    @property
    def waiting_for(self) -> Task | None:
        return self.state.tasks[0] if self.state.tasks else None

    def waiting_text(self) -> str:
        task = self.waiting_for
        return "nothing (game over)" if task is None else describe(task)


class Game(GameView):
    def __init__(self, rules: GameRules, events: list[e.Event]) -> None:
        self.rules = rules
        self.events = list(events)
        self.state = replay(self.events)

    @classmethod
    def new(cls, rules: GameRules, seed: int, seats: list[tuple[str, str]]) -> Game:
        return cls(rules, [new_game(rules, seed, seats)])

    def execute(self, command: c.Command) -> list[e.Event]:
        """Apply a command; refused ones raise IllegalCommand and change nothing."""
        events = decide_in_place(self.rules, self.state, command)
        self.events.extend(events)
        return events

    @property
    def over(self) -> bool:
        return self.state.phase == "over"


__all__ = ["Game", "GameView", "advance", "replay"]
