"""The `armata-transcript/1` document (docs/transcripts.md), decoded and checked by msgspec:
a wrong type or an unknown field is reported with its path."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.board_build import build_fortress
from companion.engine.board_schema import parse_board_spec
from companion.engine.fortress import Fortress
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.setup import new_game
from companion.engine.options import Options
from companion.errors import CompanionError, TranscriptError
from companion.transcript.names import DIRECTION_NAMES, Names

FORMAT = "armata-transcript/1"
StackName = Literal["red", "grey", "strigoi", "wound", "reward_token", "reward_card"]


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    hero: str
    ladder: str  # "<room>, <direction> side", as the setup wizard names ladder sites


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    seats: list[Seat]
    board: str | dict[str, Any] = "default"  # "default", a path (from the file), or inline
    seed: int = 1
    physical: list[StackName] = []
    options: dict[str, bool] = {}
    platforms: dict[str, str] = {}  # room name -> "book <letter> faces <direction>"


class Transcript(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    name: str
    setup: Setup
    steps: list[dict[str, Any]]
    rules: list[str] = []
    note: str = ""


def decode(raw: bytes) -> Transcript:
    try:  # checked first: msgspec's own answer to bad UTF-8 differs between its versions
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptError(f"not UTF-8 text: {exc}") from None
    try:
        transcript = msgspec.json.decode(raw, type=Transcript)
    except msgspec.ValidationError as exc:
        raise TranscriptError(f"not an {FORMAT} document: {exc}") from None
    except msgspec.DecodeError as exc:
        raise TranscriptError(f"not JSON: {exc}") from None
    if transcript.format != FORMAT:
        raise TranscriptError(f"field 'format': expected {FORMAT!r}, got {transcript.format!r}")
    return transcript


class Opened:
    """A transcript's game before its first step: rules, names, and the first event."""

    def __init__(self, transcript: Transcript, folder: Path | None) -> None:
        setup = transcript.setup
        fortress = _fortress(setup.board, folder)
        unknown = sorted(set(setup.options) - set(Options.names()))
        if unknown:
            raise TranscriptError(f"field 'setup.options': unknown option {unknown[0]!r}")
        self.rules = GameRules(
            fortress,
            load_catalog(),
            GameOptions(rules=Options(**setup.options), physical=frozenset(setup.physical)),
        )
        names = Names(fortress, self.rules.catalog, [])
        seats: list[tuple[str, str]] = []
        for i, seat in enumerate(setup.seats):
            try:
                seats.append((names.hero_id(seat.hero), _site(fortress, names, seat.ladder)))
            except TranscriptError as exc:
                raise TranscriptError(f"field 'setup.seats[{i}]': {exc}") from None
        self.seats = seats
        self.names = Names(fortress, self.rules.catalog, seats)
        try:
            self.started: e.GameStarted = new_game(self.rules, setup.seed, seats)
        except CompanionError as exc:
            raise TranscriptError(f"field 'setup': {exc}") from None
        self.turns: list[tuple[str, int]] = []
        for room_name, turn in setup.platforms.items():
            try:
                room = self.names.room_id(room_name)
                self.turns.append((room, self.names.rotation_id(room, turn)))
            except TranscriptError as exc:
                raise TranscriptError(f"field 'setup.platforms': {exc}") from None


def _fortress(board: str | dict[str, Any], folder: Path | None) -> Fortress:
    try:
        if isinstance(board, dict):
            return build_fortress(parse_board_spec(board))
        if board == "default":
            return load_board_file()
        path = Path(board) if folder is None else folder / board
        return load_board_file(path)
    except CompanionError as exc:
        raise TranscriptError(f"field 'setup.board': {exc}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # unreadable, not text, NUL
        raise TranscriptError(f"field 'setup.board': cannot read {board!r}: {exc}") from None


def _site(fortress: Fortress, names: Names, text: str) -> str:
    """A ladder by its site: "<room>, <direction> side"."""
    room_name, _, side = text.partition(",")
    room = names.room_id(room_name)
    direction = names.direction_id(side.strip().removesuffix(" side").strip())
    ladder = fortress.ladder_by_side.get((room, direction))
    if ladder is None:
        sites = sorted(
            f"{names.room(r)}, {names_direction(d)} side" for r, d in fortress.ladder_by_side
        )
        raise TranscriptError(f"no ladder site {text!r} (sites: {'; '.join(sites)})")
    return ladder


def names_direction(direction: int) -> str:
    return DIRECTION_NAMES[direction]


def site_of(fortress: Fortress, names: Names, ladder: str) -> str:
    spec = fortress.ladders[ladder]
    return f"{names.room(spec.room)}, {names_direction(spec.side)} side"


__all__ = ["FORMAT", "Opened", "Seat", "Setup", "Transcript", "decode", "site_of"]
