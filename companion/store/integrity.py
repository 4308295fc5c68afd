"""Opening a game log the way SQLite promises it: checked before anything is written.

At open: the file is an SQLite database (its header), `PRAGMA quick_check` (or the full
`integrity_check` on demand) finds nothing, every migration it records is one this version
knows, and the tables the log needs are there. These checks read the log through a
connection that writes nothing in its folder (companion/store/untouched.py), so a log that
fails is never written to, nor is anything created beside it: the caller gets `LogDamaged`,
`LogTooNew` or `LogUnreadable` and may `keep_aside` the file and start a fresh one. A log whose
folder (or file) is not writable, or that is opened to be exported or checked, is read the same
way: it can be viewed and exported, not played. SQLite's own errors met later (a full disk,
a read-only file) become `LogFull`, `LogReadOnly` or `LogDamaged` through `store_errors`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from sqlite_utils import Database

from companion.errors import (
    LogDamaged,
    LogFull,
    LogNotADatabase,
    LogReadOnly,
    LogTooNew,
    LogUnreadable,
    StoreError,
)
from companion.store.schema import migrations
from companion.store.untouched import read_untouched

Check = Literal["quick", "full", "none"]
#: the caller's own reading of a checked log (raises `LogDamaged` when it cannot read it)
Vet = Callable[[Database], None]
HEADER = b"SQLite format 3\x00"
#: the tables (and the columns of each) this version reads and writes
TABLES = {
    "games": {"id", "created_at", "seed", "seats", "options", "board", "catalog", "head"},
    "commands": {"game_id", "seq", "payload", "first_event", "last_event", "at"},
    "events": {"game_id", "seq", "kind", "payload"},
    "snapshots": {"game_id", "event_seq", "state"},
    "nfc_bindings": {"uid", "kind", "target"},
    "settings": {"key", "value"},
}
_CREATED_BY = {
    "games": "m001_game_log",
    "commands": "m001_game_log",
    "events": "m001_game_log",
    "snapshots": "m001_game_log",
    "nfc_bindings": "m002_bindings_and_settings",
    "settings": "m002_bindings_and_settings",
}
MESSAGES = {
    "full": "no space left: the last move was not saved",
    "read_only": "the game log is read-only: it can be viewed and exported, not played",
}


@functools.cache
def _known_migrations() -> frozenset[str]:
    """Every migration this version has: all of them are pending on an empty database."""
    return frozenset(m.name for m in migrations.pending(Database(memory=True)))


def writable(path: Path) -> bool:
    """Whether the log at `path` can be written: the file (when it exists) and its folder,
    which holds SQLite's write-ahead log next to it."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def refuse_unopenable(path: Path, read_only: bool) -> None:
    """`LogUnreadable` (or `LogNotADatabase`) when the file cannot be a log at all; reads at
    most its first bytes."""
    if path.is_dir():
        raise LogUnreadable(path, "it is a folder, not a file")
    if not path.parent.is_dir():
        raise LogUnreadable(path, f"no folder {path.parent}")
    if path.exists():
        try:
            with path.open("rb") as file:
                head = file.read(len(HEADER))
        except OSError as exc:
            raise LogUnreadable(path, exc.strerror or str(exc)) from None
        if head and head != HEADER:
            raise LogNotADatabase(path, "it is not an SQLite database (its first bytes are wrong)")
    elif read_only:
        raise LogUnreadable(path, "there is none, and its folder is read-only")


def connect(path: Path, read_only: bool) -> sqlite3.Connection:
    """A connection to the log; `LogUnreadable` when the file cannot be opened at all.
    Read-only: it writes nothing beside the log either (companion/store/untouched.py)."""
    refuse_unopenable(path, read_only)
    try:
        return read_untouched(path) if read_only else sqlite3.connect(str(path))
    except sqlite3.Error as exc:
        problem = translate(exc, path)
        raise (
            problem if isinstance(problem, LogDamaged) else LogUnreadable(path, str(exc))
        ) from None


def check(conn: sqlite3.Connection, path: Path, how: Check) -> None:
    """SQLite's own check, the schema version and the tables; raises, never writes."""
    if how == "none":  # salvage: read what can be read
        return
    try:
        pragma = "quick_check" if how == "quick" else "integrity_check"
        rows = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}(5)").fetchall()]
        if rows != ["ok"]:
            found = [
                line.strip()
                for row in rows
                for line in row.splitlines()
                if line.strip() and not line.startswith("***")
            ]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            raise LogDamaged(path, f"SQLite's {pragma} found: {found[0]}{more}")
        known = _known_migrations()
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
        applied: set[str] = set()
        if migrations.migrations_table in tables:
            applied = {
                str(r[0])
                for r in conn.execute(
                    f"select name from {migrations.migrations_table} where migration_set = ?",
                    [migrations.name],
                )
            }
        newer = sorted(applied - known)
        if newer:
            raise LogTooNew(path, f"it has schema changes this version does not know ({newer[0]})")
        if not applied:
            if tables - {migrations.migrations_table}:
                raise LogDamaged(path, "it holds tables but no record of its schema version")
            return  # a new, empty log
        for table, columns in TABLES.items():
            if _CREATED_BY[table] not in applied:
                continue  # an older log: the pending migration creates it
            if table not in tables:
                raise LogDamaged(path, f"its table {table!r} is missing")
            have = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}
            if columns - have:
                raise LogDamaged(path, f"its table {table!r} lacks {sorted(columns - have)[0]!r}")
    except sqlite3.Error as exc:
        raise LogDamaged(path, str(exc)) from None


def open_database(
    path: Path,
    *,
    read_only: bool | None,
    how: Check,
    vet: Vet | None = None,
) -> tuple[Database, bool]:
    """The checked database and whether it is read-only (`None`: read-only when not
    writable). Every check, and `vet` (the caller's own reading of a current log), runs on a
    connection that cannot write; only a log that passes is opened for writing, its pragmas
    and migrations applied, and vetted then if it was migrated. So a damaged or newer log,
    and its folder, stay byte for byte as they were."""
    path = Path(path)
    if read_only is None:
        read_only = not writable(path)
    vetted = False
    if read_only or path.exists():
        db = Database(connect(path, read_only=True))
        with _closed_on_error(db):
            vetted = _check_read_only(db, path, how, vet, staying_read_only=read_only)
        if read_only:
            return db, True
        db.conn.close()
    db = Database(connect(path, read_only=False))
    with _closed_on_error(db):
        with store_errors(path):
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            migrations.apply(db)
        if vet is not None and not vetted:
            vet(db)
    return db, False


def _check_read_only(
    db: Database, path: Path, how: Check, vet: Vet | None, *, staying_read_only: bool
) -> bool:
    """SQLite's check, the version, the tables, then `vet` when the log needs no migration;
    whether it was vetted. An older log is vetted once migrated, which needs a writable log."""
    check(db.conn, path, how)
    if how == "none":
        return False
    if migrations.pending(db):
        if staying_read_only:
            raise LogUnreadable(
                path, "it was written by an older version and cannot be upgraded read-only"
            )
        return False
    if vet is not None:
        vet(db)
    return vet is not None


@contextlib.contextmanager
def _closed_on_error(db: Database) -> Iterator[None]:
    try:
        yield
    except BaseException:
        db.conn.close()
        raise


@contextlib.contextmanager
def store_errors(path: Path) -> Iterator[None]:
    """SQLite's errors as the store's: full disk, read-only, damage; the transaction inside
    has been rolled back when they arrive."""
    try:
        yield
    except sqlite3.Error as exc:
        raise translate(exc, path) from None


def translate(exc: sqlite3.Error, path: Path) -> StoreError:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary == sqlite3.SQLITE_FULL:
        return LogFull(MESSAGES["full"])
    if primary == sqlite3.SQLITE_READONLY:
        return LogReadOnly(MESSAGES["read_only"])
    if primary == sqlite3.SQLITE_NOTADB:
        return LogNotADatabase(path, str(exc))
    if primary == sqlite3.SQLITE_CORRUPT:
        return LogDamaged(path, str(exc))
    if primary == sqlite3.SQLITE_ERROR and "no such" in str(exc):  # a table or column gone
        return LogDamaged(path, str(exc))
    if primary == sqlite3.SQLITE_CANTOPEN:
        return LogUnreadable(path, str(exc))
    return StoreError(f"game log {path}: {exc}")


def keep_aside(path: Path, label: str = "damaged") -> Path:
    """Rename a damaged log (and SQLite's files next to it) out of the way, never deleting
    anything; returns the new name (`<name>.<label>-<time>`). The next open starts a fresh log
    at `path`."""
    path = Path(path)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    aside = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    try:
        path.rename(aside)
        for suffix in ("-wal", "-shm", "-journal"):
            extra = path.with_name(path.name + suffix)
            if extra.exists():
                extra.rename(aside.with_name(aside.name + suffix))
    except OSError as exc:
        raise LogUnreadable(path, f"cannot be renamed: {exc.strerror or exc}") from None
    return aside
