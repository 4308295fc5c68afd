"""What a finished game leaves in the table service once the table is back home (issue 32:
memory that stays flat when a kiosk plays game after game)."""

from __future__ import annotations

import gc
import random
from pathlib import Path

from companion.app.service import TableService
from companion.app.voice import Silent
from companion.engine.game.state import GameState


def _play_to_the_end(service: TableService, seed: int) -> int:
    session = service.new_game(seed)
    rng = random.Random(seed)
    steps = 0
    while session.state.phase != "over" and steps < 3000:
        service.execute(rng.choice(session.legal_commands()))
        steps += 1
    assert session.state.phase == "over"
    return steps


def _states_alive() -> int:
    gc.collect()
    return sum(type(o) is GameState for o in gc.get_objects())


def test_a_finished_game_left_keeps_none_of_its_states(tmp_path: Path) -> None:
    """Each announcement holds the game state its card showed; the service kept the last
    game's until the next game began (a long game's: about 2 MB, measured with
    benchmarks/ui.py's games)."""
    service = TableService(tmp_path, lambda call: call(), speaker=Silent())
    try:
        service.start()
        _play_to_the_end(service, 3)
        told = len(service.announcements)
        assert told > 10  # the game told its story
        played = _states_alive()
        service.leave_game()
        assert service.announcements == []
        assert played >= told // 2  # (announcements of one command share a state)
        assert _states_alive() == 0, (played, told)
    finally:
        service.close()
