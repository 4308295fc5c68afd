"""Table settings that outlive a game (language, voice), in the `settings` table as JSON."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from companion.store.schema import migrations

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "language": "en",
    "voice": True,
    "volume": 100,
    "speed": 165,
    "text_size": 100,  # percent, in steps (companion/app/session/text_size.py; once "normal")
    "hotspot": "auto",  # the table's own Wi-Fi: "auto" (where no network is in reach), "on", "off"
    "hotspot_credentials": None,  # {"name": ..., "password": ...}, made at the first opening
    "seat_tokens": None,  # the phones' seat links (companion/app/web/seats.py), kept over a restart
}


class Settings:
    def __init__(self, db: Database) -> None:
        self.db = db
        if migrations.pending(db):  # none on a log GameLog opened (it may be read-only)
            migrations.apply(db)
        self._table = db.table("settings")
        #: values that could not be stored (a read-only or full log): kept for this run
        self._unsaved: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        if key in self._unsaved:
            return self._unsaved[key]
        try:
            return json.loads(self._table.get(key)["value"])
        except (NotFoundError, ValueError, TypeError, RecursionError):
            return DEFAULTS.get(key)  # an unreadable value falls back to the default

    def set(self, key: str, value: Any) -> None:
        """Store a setting; when the log cannot be written it holds for this run only."""
        try:
            with self.db.conn:
                self._table.upsert({"key": key, "value": json.dumps(value)}, pk="key")
        except sqlite3.Error as exc:
            log.warning("setting %s kept for this run only: %s", key, exc)
            self._unsaved[key] = value
        else:
            self._unsaved.pop(key, None)
