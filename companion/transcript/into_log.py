"""An `armata-transcript/1` stored as a game of the log (`python -m companion import`): the
transcript is played step by step as `replay` plays it, and each command the game accepts is
appended with its events; the whole game in one transaction, or nothing when a step fails."""

from __future__ import annotations

from pathlib import Path

import msgspec

from companion.app.session.game import options_data
from companion.engine.board_schema import board_spec_to_data
from companion.engine.game import events as e
from companion.engine.game.commands import Command
from companion.engine.game.state import GameState
from companion.errors import TranscriptError
from companion.store.gamelog import GameLog
from companion.transcript.model import Opened
from companion.transcript.replay import Recorder, replay_recorded


def import_transcript(raw: bytes, log: GameLog, source: str, folder: Path | None = None) -> str:
    """Store the transcript's game; its id. Its expectations are checked as `replay` does:
    a transcript that does not replay is refused, naming its step."""
    stored: list[str] = []

    def record(opened: Opened) -> Recorder:
        rules = opened.rules
        game_id = log.create_game(
            opened.started,
            opened.seats,
            board_spec_to_data(rules.fortress.spec),
            msgspec.to_builtins(rules.catalog),
            options_data(rules.options),
        )
        stored.append(game_id)
        head = [0]

        def append(command: Command, events: list[e.Event], after: GameState) -> None:
            head[0] = log.append(game_id, head[0], command, list(events), after)

        return append

    with log.db.atomic():
        outcome = replay_recorded(raw, source, folder, record)
        if not outcome.ok or not stored:
            first = outcome.problems[0].line(source) if outcome.problems else source
            raise TranscriptError(f"not imported: {first}")
    return stored[0]
