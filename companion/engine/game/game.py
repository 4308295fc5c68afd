"""A game in memory: state plus the log of its events (the store persists the same events)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide_in_place
from companion.engine.game.fold import apply
from companion.engine.game.kinds import Phase
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AnyTask
from companion.errors import StoreCorrupt


def replay(events: list[e.Event]) -> GameState:
    """The state after `events` (the first must be GameStarted): state = fold of events."""
    first = events[0] if events else None
    if not isinstance(first, e.GameStarted):
        raise StoreCorrupt("a game log starts with GameStarted")
    state = started_state(first)
    for event in events[1:]:
        apply(state, event)
    return state


class GameView:
    """What every holder of a game state can ask: legal commands, what the game waits for."""

    rules: GameRules
    state: GameState

    def legal_commands(self) -> list[c.Command]:
        return legal_commands(self.rules, self.state)

    @property
    def waiting_for(self) -> AnyTask | None:
        return self.state.tasks[0] if self.state.tasks else None


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
        return self.state.phase == Phase.OVER


__all__ = ["Game", "GameView", "replay"]
