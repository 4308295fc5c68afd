"""One error root for the whole companion; each subclass also inherits the builtin it resembles."""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class FileFieldError(CompanionError):
    """A field of a file is wrong: `path` names the field (its JSON path), `file` the file once
    it is known (`in_file`), `reason` what is wrong."""

    def __init__(self, path: str, message: str, file: object = None) -> None:
        self.path = path
        self.reason = message
        self.file = None if file is None else str(file)
        where = ": ".join(str(x) for x in (file, path) if x)
        super().__init__(f"{where}: {message}" if where else message)

    def in_file(self, file: object) -> CompanionError:
        """The same error naming the file it was found in (once)."""
        if self.file is not None or str(file) in self.reason:
            return self
        return type(self)(self.path, self.reason, file)


class BoardFormatError(FileFieldError, ValueError):
    """An `armata-board/1` document is invalid. `path` names the offending JSON path."""


class InvalidSituation(FileFieldError, ValueError):
    """A game situation (figures, rotations, markers) does not fit the board it is placed on."""


class UnknownName(CompanionError, KeyError):
    """A name the game does not know (a hero not playing, a Strigoi, a room)."""

    def __str__(self) -> str:  # KeyError would quote the whole message again
        return str(self.args[0]) if self.args else ""


class UnknownEvent(CompanionError, TypeError):
    """An event of a type the game cannot fold (a log written by a newer version?)."""


class IllegalCommand(CompanionError, ValueError):
    """A request the rules refuse (unknown Strigoi, bad letter, ...)."""


class InvalidOptions(CompanionError, ValueError):
    """Game options that cannot be played (a stack that cannot be drawn physically...)."""


class StoreError(CompanionError, RuntimeError):
    """The store refuses an operation (unknown game, stale head, ...)."""


class StoreCorrupt(StoreError):
    """A game log that cannot be read back (a missing event, a damaged row); the message names
    the game, table and row."""


class ScenarioError(FileFieldError, ValueError):
    """A scenario file is not a valid `armata-scenario/1` document."""


class TagError(CompanionError, ValueError):
    """An NFC tag cannot be bound as asked (already bound to another component, unknown kind)."""


class SetupError(CompanionError, ValueError):
    """A new game's setup cannot be changed as asked (too many players, a refused ladder...)."""


class UnknownLanguage(CompanionError, ValueError):
    """A language the app has no translation for."""


class VoiceUnavailable(CompanionError, RuntimeError):
    """The speech program is not installed."""


class TranscriptError(CompanionError, ValueError):
    """An `armata-transcript/1` document (or one of its names) cannot be read."""


class NotExportable(CompanionError, ValueError):
    """A stored game cannot be written as a transcript: this version's rules do not replay it
    (an older version recorded it)."""


class LogUnusable(StoreError):
    """The game log at `path` cannot be played on; nothing is written to it. `reason` says why
    in a few words; `exit_code` is what `python -m companion serve` exits with
    (docs/game-log.md)."""

    exit_code = 3
    what = "cannot be used"

    def __init__(self, path: object, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"game log {self.path} {self.what}: {reason}")


class LogDamaged(LogUnusable):
    """Not an SQLite database, or one SQLite's own checks find damaged, or tables missing."""

    exit_code = 3
    what = "is damaged"


class LogNotADatabase(LogDamaged):
    """Not an SQLite file at all (a text file, a garbage header): nothing in it can be read."""


class LogTooNew(LogUnusable):
    """Written by a newer version (a schema migration this version does not know)."""

    exit_code = 4
    what = "was written by a newer version"


class LogUnreadable(LogUnusable):
    """The file (or its folder) cannot be opened: a folder, no permission, a read-only folder
    with no log to show."""

    exit_code = 5
    what = "cannot be opened"


class LogReadOnly(StoreError):
    """A write to a game log opened read-only (its folder or file is not writable)."""


class LogFull(StoreError):
    """The disk is full: the write was rolled back, nothing is lost, it can be tried again."""


class NodeError(CompanionError, RuntimeError):
    """A board node cannot be reached, flashed or tested as asked (`python -m companion nodes`)."""


class NodeNotFound(NodeError, LookupError):
    """A node named on the command line said no hello on any port."""


class FlashError(NodeError):
    """Writing firmware to a node failed at `step`; the node keeps the firmware it had."""

    def __init__(self, step: str, detail: str) -> None:
        self.step = step
        self.detail = detail
        super().__init__(f"{step}: {detail}" if detail else step)


class VersionError(CompanionError, ValueError):
    """A release's version is missing or not a version (PEP 440)."""


class ProductError(CompanionError, RuntimeError):
    """The installed product (releases, the unit, backups) cannot do what was asked."""


class BackupError(ProductError):
    """A backup cannot be made, read or restored; the message names the file."""


class UpdateError(ProductError):
    """An update cannot be installed or checked; the running version stays (or is back)."""


class ReportError(ProductError):
    """The report archive cannot be written."""


class InstallError(ProductError):
    """The Pi install stopped: a command failed or the system is not one it installs on; the
    message says which step and what to do."""
