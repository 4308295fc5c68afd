"""Backups of the game log beside it (`<data>/backups/`), made with SQLite's online backup API
from a connection that writes nothing beside the log (companion/store/untouched.py): a table
that is playing goes on while its log is copied, and a root-run update never leaves files
behind that the table's user cannot open.

Kinds: `game` (after every finished game), `daily` (the timer), `update` (before an update
may migrate the log: the version it came from is in the name), `manual`. Each kind keeps its
newest few (`KEEP`), and all of them together stay under `MAX_BYTES` (the oldest go first; the
newest backup always stays). A restore keeps the log it replaces aside (renamed, never
deleted) and copies the backup in with the same API.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import BackupError, LogTooNew, LogUnusable
from companion.store.integrity import check, connect, keep_aside
from companion.store.untouched import read_untouched

KEEP = {"game": 10, "daily": 7, "update": 3, "manual": 10}
MAX_BYTES = 256 * 1024 * 1024
_NAME = re.compile(
    r"^companion-(?P<kind>[a-z]+)-(?P<stamp>\d{8}T\d{12}Z)"
    r"(?:-from-(?P<version>[0-9A-Za-z.+!-]+))?\.db$"
)


@dataclass(frozen=True)
class Backup:
    path: Path
    kind: str
    made: datetime
    from_version: str | None  # an update's: the version that wrote the log
    size: int

    @classmethod
    def of(cls, path: Path) -> Backup | None:
        found = _NAME.match(path.name)
        if found is None or not path.is_file():
            return None
        made = datetime.strptime(found["stamp"], "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
        return cls(path, found["kind"], made, found["version"], path.stat().st_size)


def folder_of(log: Path) -> Path:
    return log.parent / "backups"


def backups(folder: Path) -> list[Backup]:
    """Every backup in `folder`, newest first."""
    if not folder.is_dir():
        return []
    found = [b for p in folder.iterdir() if (b := Backup.of(p)) is not None]
    return sorted(found, key=lambda b: (b.made, b.path.name), reverse=True)


def make_backup(
    log: Path, kind: str, *, from_version: str | None = None, folder: Path | None = None
) -> Path:
    """Copy the log (as it is now, a consistent moment even while it is written) into a new
    backup; its path. Then the folder is pruned (`prune`)."""
    if kind not in KEEP:
        raise BackupError(f"no kind of backup {kind!r} (one of {', '.join(KEEP)})")
    if not log.is_file():
        raise BackupError(f"no game log at {log}")
    folder = folder_of(log) if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    owned_like(folder, log.parent)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    suffix = f"-from-{from_version}" if from_version else ""
    target = folder / f"companion-{kind}-{stamp}{suffix}.db"
    try:
        with contextlib.closing(read_untouched(log)) as source:
            _copy(source, target)
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"cannot back {log} up into {folder}: {exc}") from None
    owned_like(target, log.parent)
    prune(folder)
    return target


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """`source`'s database into a new file `target`, whole or not at all."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(str(partial))) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)


def owned_like(path: Path, model: Path) -> None:
    """Run as root (an update, a restore by hand): give the file to the table's user, who
    owns the data folder, or the table could not read what root wrote."""
    if os.geteuid() == 0:
        info = model.stat()
        with contextlib.suppress(OSError):
            os.chown(path, info.st_uid, info.st_gid)


def prune(
    folder: Path, keep: dict[str, int] | None = None, max_bytes: int = MAX_BYTES
) -> list[Path]:
    """Remove the backups beyond each kind's count, then the oldest while all of them take
    more than `max_bytes` (the newest always stays); what was removed."""
    keep = KEEP if keep is None else keep
    found = backups(folder)
    removed: list[Path] = []
    seen: dict[str, int] = {}
    staying: list[Backup] = []
    for backup in found:
        seen[backup.kind] = seen.get(backup.kind, 0) + 1
        if seen[backup.kind] > keep.get(backup.kind, 1):
            removed.append(backup.path)
        else:
            staying.append(backup)
    while len(staying) > 1 and sum(b.size for b in staying) > max_bytes:
        removed.append(staying.pop().path)
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def due(folder: Path, kind: str, every: timedelta) -> bool:
    """Whether the newest backup of `kind` is older than `every` (or there is none)."""
    newest = next((b for b in backups(folder) if b.kind == kind), None)
    return newest is None or datetime.now(UTC) - newest.made >= every


def readable(path: Path) -> None:
    """Raise when this version cannot use the backup at `path` (damaged, newer, not a log);
    an older one is fine: the table migrates it when it opens it."""
    with contextlib.closing(connect(path, read_only=True)) as conn:
        check(conn, path, "quick")


def newest_readable(folder: Path, kind: str | None = None) -> Backup | None:
    """The newest backup this version can use (of `kind`): what an older version offers when
    a newer one has migrated the log."""
    for backup in backups(folder):
        if kind is not None and backup.kind != kind:
            continue
        try:
            readable(backup.path)
        except (LogUnusable, LogTooNew):
            continue
        return backup
    return None


def restore(backup: Path, log: Path) -> Path | None:
    """Put `backup` back as the game log at `log`: the log there is kept aside first
    (`companion.db.replaced-<time>`, never deleted); where it was kept, or None when there
    was none. The table must not be running on the log meanwhile (stop its unit first)."""
    try:
        readable(backup)
    except LogUnusable as exc:
        raise BackupError(f"cannot restore {backup}: {exc.reason}") from None
    aside = keep_aside(log, "replaced") if log.exists() else None
    try:
        with contextlib.closing(read_untouched(backup)) as source:
            _copy(source, log)
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"cannot restore {backup} to {log}: {exc}") from None
    owned_like(log, log.parent)
    return aside


def restore_open(backup: Path, live: sqlite3.Connection, log: Path) -> Path:
    """Put `backup` (a log this version opened: migrated, checked) in place of the content of
    the log open on `live` (the table running: its connection and every object on it stay
    valid, no restart). The log's content is first copied aside whole
    (`companion.db.replaced-<time>`, never deleted); where it was kept. Run on the thread that
    owns `live`, with no game being played on it."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    aside = log.with_name(f"{log.name}.replaced-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = log.with_name(f"{log.name}.replaced-{stamp}-{n}")
    try:
        _copy(live, aside)
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"cannot keep {log} aside as {aside.name}: {exc}") from None
    owned_like(aside, log.parent)
    try:
        with contextlib.closing(read_untouched(backup)) as source:
            source.backup(live)
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"cannot restore {backup} to {log}: {exc}") from None
    return aside
