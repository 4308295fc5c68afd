"""One error root for the whole companion; each subclass also inherits the builtin it resembles."""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class BoardFormatError(CompanionError, ValueError):
    """An `armata-board/1` document is invalid. `path` names the offending JSON path."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}" if path else message)


class InvalidSituation(CompanionError, ValueError):
    """A game situation (figures, rotations, markers) does not fit the board it is placed on."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}" if path else message)


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


class ScenarioError(CompanionError, ValueError):
    """A scenario file is not a valid `armata-scenario/1` document."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}" if path else message)


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
