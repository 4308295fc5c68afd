"""What a front end says and offers when the table's game log cannot be played on (issue 28):
damaged, written by a newer version, impossible to open, or read-only. The touchscreen app
shows it before the table starts (ui/screens/log_problem.py); `serve` prints it.

Choices: keep the log aside (renamed, never deleted) and start a fresh one; export what can
still be read as transcripts; quit. A read-only log: go on without playing, or quit. A log from
a newer version (an update went back, or an older release was installed): also go back to the
newest backup this version can read (the one made before the update migrated the log).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from companion.app.session.log_open import open_log, start_fresh_log
from companion.app.words import i18n
from companion.errors import (
    CompanionError,
    LogDamaged,
    LogTooNew,
    LogUnusable,
)
from companion.store.backup import folder_of, newest_readable, restore
from companion.store.gamelog import GameLog
from companion.store.settings import Settings

Kind = Literal["damaged", "newer", "unreadable", "read_only"]


@dataclass(frozen=True)
class LogProblem:
    kind: Kind
    path: Path
    reason: str  # SQLite's or the check's own words (English), for the details line
    exit_code: int  # the app's exit code when the players quit (docs/game-log.md, Exit codes)
    language: str = "en"  # the table's language, when its settings can still be read
    backup: Path | None = None  # a newer log: the newest backup this version can read
    backup_made: str = ""  # when that backup was made ("2026-11-25 20:14 UTC")

    @property
    def headline(self) -> str:
        return {
            "damaged": i18n.tr("The game log is damaged"),
            "newer": i18n.tr("The game log is from a newer version"),
            "unreadable": i18n.tr("The game log cannot be opened"),
            "read_only": i18n.tr("The game log is read-only"),
        }[self.kind]

    @property
    def explanation(self) -> str:
        return {
            "damaged": i18n.tr(
                "Its file cannot be played on safely, so nothing has been written to it."
            ),
            "newer": i18n.tr(
                "A newer version of this app wrote it. Update the app to go on with it; "
                "nothing has been written to it."
            ),
            "unreadable": i18n.tr("Its file or folder cannot be opened."),
            "read_only": i18n.tr(
                "Its folder cannot be written: the games can be viewed and exported, not played."
            ),
        }[self.kind]

    @property
    def can_start_fresh(self) -> bool:
        return self.kind in ("damaged", "newer")

    @property
    def can_export(self) -> bool:
        return self.kind in ("damaged", "newer")


def check_log(data: Path) -> LogProblem | None:
    """Open the table's log as the service will; None when it can be played on."""
    try:
        log = open_log(data)
    except LogUnusable as problem:
        kind: Kind = (
            "damaged"
            if isinstance(problem, LogDamaged)
            else "newer"
            if isinstance(problem, LogTooNew)
            else "unreadable"
        )
        path = Path(problem.path)
        found = newest_readable(folder_of(path)) if kind == "newer" else None
        if found is None:
            return LogProblem(kind, path, problem.reason, problem.exit_code)
        made = found.made.strftime("%Y-%m-%d %H:%M UTC")
        return LogProblem(kind, path, problem.reason, problem.exit_code, backup=found.path,
                          backup_made=made)  # fmt: skip
    try:
        if log.read_only:
            language = str(Settings(log.db).get("language") or "en")
            return LogProblem("read_only", log.path, "read-only", 0, language)
        return None
    finally:
        log.close()


def go_back_to_the_backup(problem: LogProblem) -> Path | None:
    """The newer log kept aside (renamed, never deleted), the backup put back in its place;
    where the newer log was kept."""
    assert problem.backup is not None
    return restore(problem.backup, problem.path)


def keep_aside_and_start_fresh(problem: LogProblem) -> Path:
    """The damaged (or newer) log renamed beside it; the table starts a fresh one."""
    return start_fresh_log(problem.path.parent)


def export_what_can_be_read(problem: LogProblem) -> list[Path]:
    """Every game still readable, as a transcript in the data folder's exports/ (the log is
    read, never written); [] when nothing could be read."""
    from companion.transcript import dumps, export_game

    folder = problem.path.parent / "exports"
    written: list[Path] = []
    try:
        log = GameLog(problem.path, read_only=True, check="none")
    except CompanionError:
        return written
    with log:
        try:
            games = log.games()
        except CompanionError:
            return written
        for game in games:
            try:
                text = dumps(export_game(log, game.id))
                folder.mkdir(parents=True, exist_ok=True)
                target = folder / f"game-{game.id}.json"
                target.write_text(text, encoding="utf-8")
            except (CompanionError, OSError, ValueError, LookupError, TypeError):
                continue  # this game's rows are damaged: the others still go
            written.append(target)
    return written
