"""Reading a game log without touching its folder: no file created, changed or removed.

SQLite's `mode=ro` is not enough: on a log in WAL mode it still creates (or rewrites) the
`-wal` and `-shm` files beside it, and a writable connection checkpoints a `-wal` it finds into
the log when it closes. A log that may be damaged or foreign is therefore read in one of two
ways. With no journal content beside it, the file is opened `immutable=1`: SQLite reads it as
it is and never looks for, creates or locks anything else. With a `-wal` (or `-journal`) that
holds something, `immutable=1` would ignore the moves it holds, so the log and those files are
copied into a private temporary folder and SQLite reads the copy there (replaying the copied
`-wal`); the copy goes when the connection closes.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from companion.errors import LogUnreadable

#: SQLite's files beside a log whose content belongs to it (the `-shm` index is rebuilt)
JOURNALS = ("-wal", "-journal")
_ATTEMPTS = 5  # copies tried while another process keeps writing the log


def read_untouched(path: Path) -> sqlite3.Connection:
    """A connection that reads the log at `path` (and its journal) and can write nothing."""
    journals = [suffix for suffix in JOURNALS if _holds_something(_beside(path, suffix))]
    if not journals:
        uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
        return sqlite3.connect(uri, uri=True)
    return _read_a_copy(path, journals)


def _beside(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _holds_something(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


class _CopyConnection(sqlite3.Connection):
    """A connection to a private copy of a log: closing it removes the copy's folder."""

    remove_copy: Callable[[], object]

    def close(self) -> None:
        super().close()
        self.remove_copy()


def _read_a_copy(path: Path, journals: list[str]) -> sqlite3.Connection:
    """The log and its journals copied outside its folder; SQLite recovers the copy there.
    Writable at the file level (only a writer rolls a hot journal back) but `query_only`, so
    a write fails as it does on a read-only log."""
    folder = Path(tempfile.mkdtemp(prefix="armata-log-"))
    try:
        copy = folder / path.name
        _copy_steady(path, copy, journals)
        conn = sqlite3.connect(str(copy), factory=_CopyConnection)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    # also when the connection is dropped unclosed, or at exit
    conn.remove_copy = weakref.finalize(conn, shutil.rmtree, folder, ignore_errors=True)
    conn.execute("PRAGMA query_only=ON")
    return conn


def _copy_steady(path: Path, copy: Path, journals: list[str]) -> None:
    """Copy the log and its journals; again when another process changed them meanwhile, so
    the copy is never half one moment and half the next."""
    files = [(path, copy)] + [(_beside(path, s), _beside(copy, s)) for s in journals]
    for _ in range(_ATTEMPTS):
        before = _stamps(path, journals)
        try:
            for source, target in files:
                shutil.copyfile(source, target)
        except OSError as exc:
            raise LogUnreadable(path, f"cannot be read: {exc.strerror or exc}") from None
        if _stamps(path, journals) == before:
            return
    raise LogUnreadable(path, "it kept changing while it was read")


def _stamps(path: Path, journals: list[str]) -> list[tuple[int, int] | None]:
    """Size and modification time of the log and each journal (None: gone)."""
    stamps: list[tuple[int, int] | None] = []
    for file in [path] + [_beside(path, s) for s in journals]:
        try:
            status = file.stat()
        except OSError:
            stamps.append(None)
            continue
        stamps.append((status.st_size, status.st_mtime_ns))
    return stamps
