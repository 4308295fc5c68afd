"""What the touchscreen's first frame needs from the game log before the table service runs: the
language, the text size and whether a game can be resumed.

The service opens and checks the log (sqlite-utils, the engine, msgspec), builds the nodes and
starts their threads: about half the app's start. The touchscreen shows Home first and starts
the service in the frame after (ui/app.py); this reads the three values Home shows straight from
the log with the standard library's sqlite3, read-only, so that frame is already in the table's
language and text size. Anything unreadable gives the defaults: the service, starting a frame
later, opens the log as always (and a damaged log never gets here: `python -m ui` checks it
before the app, companion/app/log_problem.py). The tests check that these are the values
Settings and GameLog give.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from companion.app.session.text_size import percent
from companion.app.words.i18n import LANGUAGES
from companion.boardfile import load_board_file
from companion.engine.fortress import Fortress
from companion.store.location import data_dir as data_dir  # where the log is

__all__ = ["Glance", "data_dir", "glance", "table_board"]

#: the log's file in the data folder (companion/app/service.py `open_log`)
LOG_FILE = "companion.db"


@dataclass(frozen=True)
class Glance:
    language: str = "en"
    text_size: int = 100  # percent (companion/app/session/text_size.py)
    resumable: bool = False  # a game is not finished (Home's Resume)


def glance(data: Path) -> Glance:
    """The log's language, text size and whether a game can be resumed; the defaults when there
    is no log yet or it cannot be read."""
    path = data / LOG_FILE
    if not path.is_file():
        return Glance()
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            settings = dict(
                db.execute("select key, value from settings where key in ('language', 'text_size')")
            )
            playing = db.execute("select 1 from games where status = 'playing' limit 1").fetchone()
    except sqlite3.Error:
        return Glance()
    language, text_size = _value(settings, "language"), _value(settings, "text_size")
    return Glance(
        language if language in LANGUAGES else "en",
        percent(text_size),
        playing is not None,
    )


def table_board() -> Fortress:
    """The board the service plays on (the default fortress, built once a process): Home
    draws it in the first frame."""
    return load_board_file()


def _value(settings: dict[str, str], key: str) -> object:
    try:
        return json.loads(settings[key])
    except (KeyError, TypeError, ValueError, RecursionError):
        return None
