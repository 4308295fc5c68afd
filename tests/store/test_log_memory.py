"""The game log gives its page cache back when asked (companion/store/gamelog.py
`release_memory`, which the touchscreen calls once the table idles after a game): SQLite's heap,
as the SQLite library itself counts it, drops, and the log reads on as before."""

from __future__ import annotations

import ctypes
import random
from pathlib import Path

from companion.app.session.game import GameSession
from companion.store.gamelog import GameLog

SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


def sqlite_heap() -> int:
    """Bytes SQLite holds (the library Python's sqlite3 module uses)."""
    used = ctypes.CDLL("libsqlite3.so.0").sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


def test_the_log_gives_its_page_cache_back(tmp_path: Path) -> None:
    with GameLog(tmp_path / "companion.db") as log:
        session = GameSession.start(log, 5, SEATS)
        rng = random.Random(5)
        for _ in range(150):
            if session.state.phase == "over":
                break
            session.execute(rng.choice(session.legal_commands()))
        for head in range(0, session.head, 10):  # read the game back: its pages cached
            log.state(session.game_id, head)
        cached = sqlite_heap()
        log.release_memory()
        released = sqlite_heap()
        assert released < cached - 200_000, (cached, released)
        assert log.state(session.game_id) == session.state  # reads on from the file
    log.release_memory()  # closed: nothing to do, no error
