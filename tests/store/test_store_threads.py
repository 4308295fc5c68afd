"""No thread but the one that opened the log touches it (ARCHITECTURE: threads post): the store
enforces it, whatever a later change does. Its one SQLite connection (the log, the settings,
the tag registry and the idle `release_memory` all use it) keeps sqlite3's same-thread check,
so a call from any other thread fails at once instead of racing the owner's."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.errors import StoreError
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from companion.store.settings import Settings
from tests.support.processes import limit

CALLS: dict[str, Callable[[GameLog], Any]] = {
    "the games": lambda log: log.games(),
    "the last unfinished game": lambda log: log.last_unfinished(),
    "the idle release (PRAGMA shrink_memory)": lambda log: log.release_memory(),
    "a setting": lambda log: Settings(log.db).get("language"),
    "the tag registry": lambda log: NfcRegistry(log.db).bindings(),
}


@pytest.mark.parametrize("what", sorted(CALLS))
def test_the_log_refuses_any_thread_but_its_owners(tmp_path: Path, what: str) -> None:
    with GameLog(tmp_path / "companion.db") as log:
        CALLS[what](log)  # on the owner's thread: fine
        failed: list[BaseException] = []

        def elsewhere() -> None:
            try:
                CALLS[what](log)
            except (StoreError, sqlite3.ProgrammingError) as problem:
                failed.append(problem)

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join(limit(10))
        assert len(failed) == 1, f"{what} ran on another thread"
        assert "same thread" in str(failed[0])
