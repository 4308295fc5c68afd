"""What a table keeps when its game log is kept aside for a fresh one: its settings (language,
voice, text size) and the NFC tags the players registered. The games stay in the old file; these
two small tables are read from it, read-only, as far as they can still be read."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from companion.store.settings import DEFAULTS, Settings
from companion.store.untouched import read_untouched

log = logging.getLogger(__name__)


def carry_over(aside: Path, fresh: GameLog) -> tuple[int, int]:
    """Copy the settings and tag bindings still readable in `aside` into `fresh`; (settings,
    tags) copied. A damaged row is skipped; nothing in `aside` is written."""
    settings, tags = 0, 0
    try:
        old = read_untouched(aside)  # its -wal read too, nothing written beside it
    except (sqlite3.Error, CompanionError) as exc:
        log.warning("nothing carried over from %s: %s", aside, exc)
        return 0, 0
    try:
        stored = Settings(fresh.db)
        for key, value in _rows(old, "select key, value from settings"):
            try:
                if key in DEFAULTS:
                    stored.set(str(key), json.loads(str(value)))
                    settings += 1
            except (ValueError, TypeError, CompanionError):
                continue
        registry = NfcRegistry(fresh.db)
        for uid, kind, target in _rows(old, "select uid, kind, target from nfc_bindings"):
            try:
                registry.bind(str(uid), str(kind), str(target))
                tags += 1
            except CompanionError:
                continue
    finally:
        old.close()
    return settings, tags


def _rows(conn: sqlite3.Connection, query: str) -> list[tuple[object, ...]]:
    try:
        return list(conn.execute(query))
    except sqlite3.Error as exc:  # the table is damaged or missing: nothing from it
        log.warning("could not carry over (%s): %s", query, exc)
        return []


__all__ = ["carry_over"]
