"""A game being played: rules + event log + current state. A command is acknowledged only once
its events are committed, so a power cut never loses an acknowledged command."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from companion.app.words.wording import describe
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.board_build import load_board
from companion.engine.board_schema import board_spec_to_data
from companion.engine.components import Catalog, parse_catalog
from companion.engine.fortress import Fortress
from companion.engine.game import events as e
from companion.engine.game.commands import Command
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.flow import decide
from companion.engine.game.game import GameView
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState
from companion.engine.options import Options
from companion.store.gamelog import CommandRecord, GameLog

Listener = Callable[[list[e.Event]], None]


@lru_cache(maxsize=8)
def fortress_of(board: bytes) -> Fortress:
    """The fortress a stored game was played on, built once per board document: building and
    validating a board costs several times more than resuming the state from its snapshot
    (benchmarks/game.py), and a `Fortress` is immutable, so resumes share it."""
    return load_board(msgspec.json.decode(board))


@lru_cache(maxsize=8)
def catalog_of(catalog: bytes) -> Catalog:
    return parse_catalog(msgspec.json.decode(catalog))


def options_data(options: GameOptions) -> dict[str, Any]:
    return {
        "centre_room_is_destination": options.rules.centre_room_is_destination,
        "seat_order_breaks_ties": options.rules.seat_order_breaks_ties,
        "physical": sorted(options.physical),
    }


def options_from(data: dict[str, Any]) -> GameOptions:
    return GameOptions(
        rules=Options(
            centre_room_is_destination=bool(data.get("centre_room_is_destination", False)),
            seat_order_breaks_ties=bool(data.get("seat_order_breaks_ties", True)),
        ),
        physical=frozenset(data.get("physical", [])),
    )


class GameSession(GameView):
    def __init__(self, log: GameLog, game_id: str) -> None:
        record = log.game(game_id)
        self.log = log
        self.game_id = game_id
        self.rules = GameRules(
            fortress_of(msgspec.json.encode(record.board)),
            catalog_of(msgspec.json.encode(record.catalog)),
            options_from(record.options),
        )
        self.state: GameState = log.state(game_id)
        self.head = record.head
        self._listeners: list[Listener] = []

    @classmethod
    def start(
        cls,
        log: GameLog,
        seed: int,
        seats: list[tuple[str, str]],
        options: GameOptions | None = None,
        board: Fortress | None = None,
    ) -> GameSession:
        """A new game on `board` (default: the default fortress file)."""
        fortress = board or load_board_file()
        catalog = load_catalog()
        options = options or GameOptions()
        rules = GameRules(fortress, catalog, options)
        started = new_game(rules, seed, seats)
        board_data = board_spec_to_data(fortress.spec)
        catalog_data = msgspec.to_builtins(catalog)
        game_id = log.create_game(started, seats, board_data, catalog_data, options_data(options))
        return cls(log, game_id)

    @classmethod
    def resume(cls, log: GameLog) -> GameSession | None:
        """The last unfinished game, as it was after its last acknowledged command."""
        game_id = log.last_unfinished()
        return None if game_id is None else cls(log, game_id)

    def waiting_text(self) -> str:
        """What the game waits for, in English (logs, scripts); the screens translate."""
        return describe(self.waiting_for)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Observers get the events of each accepted command; returns the unsubscribe call."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def execute(self, command: Command) -> list[e.Event]:
        """Decide, commit, then acknowledge (return). Refusals raise and store nothing."""
        events, after = decide(self.rules, self.state, command)
        self.head = self.log.append(self.game_id, self.head, command, events, after)
        self.state = after
        for listener in list(self._listeners):
            listener([e.public(x) for x in events])
        return events

    def undo(self, steps: int = 1) -> None:
        self._move_head(self.head - steps)

    def redo(self, steps: int = 1) -> None:
        self._move_head(self.head + steps)

    def rewind(self, head: int) -> None:
        """Back (or forward again) to just after the `head`-th command (0: the start)."""
        self._move_head(head)

    def command_at(self, seq: int) -> Command | None:
        """The `seq`-th command (1-based; undone ones too), or None."""
        if seq < 1:
            return None
        record = self.log.command(self.game_id, seq)
        return None if record is None else record.command

    def history(self) -> list[CommandRecord]:
        """Every command of this game, the undone ones (after the head) included."""
        return self.log.commands(self.game_id, upto=self.log.top(self.game_id))

    def events_of(self, record: CommandRecord) -> list[e.Event]:
        return self.log.events(self.game_id, upto=record.last_event, after=record.first_event - 1)

    def _move_head(self, head: int) -> None:
        self.log.set_head(self.game_id, head)
        self.head = head
        self.state = self.log.state(self.game_id, head)
