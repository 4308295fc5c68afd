"""Table settings that outlive a game (language, voice), in the `settings` table as JSON."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from companion.store.schema import migrations

DEFAULTS: dict[str, Any] = {
    "language": "en",
    "voice": True,
    "volume": 100,
    "speed": 165,
    "text_size": "normal",  # or "large": every text a quarter bigger
}


class Settings:
    def __init__(self, db: Database) -> None:
        self.db = db
        migrations.apply(db)
        self._table = db.table("settings")

    def get(self, key: str) -> Any:
        try:
            return json.loads(self._table.get(key)["value"])
        except (NotFoundError, json.JSONDecodeError, TypeError):
            return DEFAULTS.get(key)  # an unreadable value falls back to the default

    def set(self, key: str, value: Any) -> None:
        with self.db.conn:
            self._table.upsert({"key": key, "value": json.dumps(value)}, pk="key")
