"""`python -m companion import FILE`: games into the table's log from a backup (or another
game log), an `armata-game/1` export (GameLog.export_jsonl) or an `armata-transcript/1`. Each
game is added as a new game (a new id); the log's own games stay as they are."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from companion.errors import BackupError, StoreError
from companion.store.gamelog import GameLog
from companion.store.integrity import HEADER


def kind_of(source: Path) -> str:
    """ "log" (SQLite), "export" (armata-game/1 lines) or "transcript"."""
    with source.open("rb") as file:
        head = file.read(len(HEADER))
    if head == HEADER:
        return "log"
    first = source.read_text(encoding="utf-8").lstrip().split("\n", 1)[0]
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        return "transcript"  # a whole JSON document over many lines
    return (
        "export"
        if isinstance(header, dict) and header.get("format") == "armata-game/1"
        else "transcript"
    )


def import_games(source: Path, log_path: Path, game: str | None = None) -> list[str]:
    """Import into the log at `log_path`; the new games' ids. From a log: the game `game`
    (its id there), or every game when None."""
    kind = kind_of(source)
    with GameLog(log_path) as log:
        if kind == "export":
            lines = source.read_text(encoding="utf-8").splitlines()
            return [log.import_jsonl(lines, source=str(source))]
        if kind == "transcript":
            from companion.transcript.into_log import import_transcript

            return [import_transcript(source.read_bytes(), log, str(source), source.parent)]
        return _from_log(source, log, game)


def _from_log(source: Path, log: GameLog, game: str | None) -> list[str]:
    """A backup may be older than this version: it is read from a copy, migrated there."""
    with tempfile.TemporaryDirectory(prefix="armata-import-") as scratch:
        copy = Path(scratch) / "companion.db"
        shutil.copyfile(source, copy)
        with GameLog(copy) as other:
            ids = [g.id for g in other.games()]
            if game is not None and game not in ids:
                raise BackupError(f"{source}: no game {game!r} (it holds {', '.join(ids)})")
            chosen = ids if game is None else [game]
            exported = {i: list(other.export_jsonl(i)) for i in chosen}
    if not exported:
        raise StoreError(f"{source}: no game to import")
    return [log.import_jsonl(lines, source=f"{source}: game {i}") for i, lines in exported.items()]
