"""What a finished game leaves in the table service once the table is back home (issue 32:
memory that stays flat when a kiosk plays game after game)."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from pathlib import Path

from companion.app.devices.voice import Silent
from companion.app.service import TableService
from companion.engine.game.state import GameState
from tests.support.processes import limit


def _states_alive() -> int:
    gc.collect()
    return sum(type(o) is GameState for o in gc.get_objects())


def test_a_finished_game_left_keeps_none_of_its_states(tmp_path: Path) -> None:
    """Each announcement holds the game state its card showed; the service kept the last
    game's until the next game began (a long game's: megabytes, measured with
    benchmarks/ui.py's games)."""
    posted: list[Callable[[], None]] = []  # the nodes' threads post; this thread runs it
    service = TableService(tmp_path, posted.append, speaker=Silent())
    try:
        service.start()
        session = service.new_game(3)
        rng = random.Random(3)
        for _ in range(3000):
            if session.state.phase == "over":
                break
            service.execute(rng.choice(session.legal_commands()))
            while posted:
                posted.pop(0)()
        assert session.state.phase == "over"
        del session
        held = len({id(a.board) for a in service.announcements if a.board is not None})
        assert held > 10  # the game told its story, each card with its board
        played = _states_alive()  # (other tests' states may be alive too)
        service.leave_game()
        while posted:
            posted.pop(0)()
        # the table watch's thread lets go of the last game once it has taken "no game"
        assert service.watch.wait_idle(limit(5))
        assert service.announcements == []
        assert _states_alive() <= played - held, (played, held)
    finally:
        service.close()
