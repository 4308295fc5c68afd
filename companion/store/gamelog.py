"""The game log in SQLite (sqlite-utils): one transaction per command, WAL, synchronous=FULL.

A game is its first event (GameStarted, with the shuffled stacks) plus one row per accepted
command and the events it produced. `head` counts the commands in effect: undo moves it back,
redo forward; a new command after an undo replaces the undone ones (in the same transaction).
Every `SNAPSHOT_EVERY` events a snapshot of the state is kept, so resuming replays a short tail.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import msgspec
from sqlite_utils import Database

from companion.engine.game import events as e
from companion.engine.game.commands import AnyCommand, Command
from companion.engine.game.emitter import started_state
from companion.engine.game.fold import apply
from companion.engine.game.state import GameState
from companion.errors import CompanionError, LogDamaged, LogReadOnly, StoreCorrupt, StoreError
from companion.store.integrity import MESSAGES, Check, open_database, translate
from companion.store.legacy import upgrade_event

_F = TypeVar("_F", bound=Callable[..., Any])
SNAPSHOT_EVERY = 50
_EVENT = msgspec.json.Decoder(e.AnyEvent)
_COMMAND = msgspec.json.Decoder(AnyCommand)
_STATE = msgspec.msgpack.Decoder(GameState)
_PACK = msgspec.msgpack.Encoder()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameRecord:
    id: str
    created_at: str
    seed: int
    seats: list[list[str]]
    options: dict[str, Any]
    board: dict[str, Any]
    catalog: dict[str, Any]
    head: int
    status: str
    winner: str | None


@dataclass(frozen=True)
class CommandRecord:
    seq: int
    command: Command
    first_event: int
    last_event: int
    at: str


def _store_errors(method: _F) -> _F:
    """SQLite's errors inside `method` raised as the store's (companion/store/integrity.py)."""

    @functools.wraps(method)
    def checked(self: GameLog, *args: Any, **kwargs: Any) -> Any:
        if method.__name__ in _WRITES and self.read_only:
            raise LogReadOnly(MESSAGES["read_only"])
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from None

    return cast(_F, checked)


_WRITES = {"create_game", "append", "set_head", "import_jsonl"}


class GameLog:
    """Open the database at `path`, checked (companion/store/integrity.py) and migrated;
    close() is idempotent.

    `read_only=None`: read-only when the file or its folder is not writable (`read_only` says
    which); `check`: SQLite's `quick_check` at open, `full` for its `integrity_check`, `none`
    to read what can still be read (export). Raises `LogDamaged`, `LogTooNew` or
    `LogUnreadable` (nothing written); writes raise `LogFull` on a full disk and `LogReadOnly`.
    """

    def __init__(
        self, path: Path | str, *, read_only: bool | None = None, check: Check = "quick"
    ) -> None:
        self.path = Path(path)
        self._closed = False
        vet = None if check == "none" else self._check_resumable
        self.db, self.read_only = open_database(self.path, read_only=read_only, how=check, vet=vet)
        #: the commands read last (`commands`) and what they were read at: the table's views
        #: ask for the whole history after every command
        self._read: tuple[tuple[object, ...], tuple[CommandRecord, ...]] | None = None

    def _check_resumable(self, db: Database) -> None:
        """The game a table resumes must read back: a row SQLite's checks pass but whose
        contents are damaged (a record cut in the middle) makes the whole log damaged, so the
        table shows what is wrong instead of failing at Resume. Run on `db` before the log is
        opened for writing (companion/store/integrity.py), so it is read through it."""
        self.db = db
        game_id = self.last_unfinished()
        if game_id is None:
            return
        try:
            self.game(game_id)
            self.state(game_id)
        except (StoreError, CompanionError) as exc:  # a damaged row, an event it cannot fold
            raise LogDamaged(
                self.path, f"the unfinished game {game_id} cannot be read back: {exc}"
            ) from None

    def release_memory(self) -> None:
        """Give SQLite's page cache of this connection back (PRAGMA shrink_memory): it grows
        with the log, game after game, up to its cap (2 MB); the pages a game reads come back
        from the file when needed."""
        if not self._closed:
            self.db.conn.execute("PRAGMA shrink_memory")

    def close(self) -> None:
        if not self._closed:
            self.db.conn.close()
            self._closed = True

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ----- games ---------------------------------------------------------------------------
    @_store_errors
    def create_game(
        self,
        started: e.GameStarted,
        seats: list[tuple[str, str]],
        board: dict[str, Any],
        catalog: dict[str, Any],
        options: dict[str, Any],
    ) -> str:
        game_id = uuid.uuid4().hex[:12]
        with self.db.atomic():
            self.db["games"].insert(  # type: ignore[union-attr]
                {
                    "id": game_id,
                    "created_at": _now(),
                    "seed": started.state.seed,
                    "seats": json.dumps(seats),
                    "options": json.dumps(options),
                    "board": json.dumps(board),
                    "catalog": json.dumps(catalog),
                    "head": 0,
                    "status": "playing",
                    "winner": None,
                }
            )
            self.db["events"].insert(  # type: ignore[union-attr]
                {
                    "game_id": game_id,
                    "seq": 1,
                    "kind": "game_started",
                    "payload": msgspec.json.encode(started).decode(),
                }
            )
        return game_id

    @_store_errors
    def game(self, game_id: str) -> GameRecord:
        row = next(self.db.query("select * from games where id = ?", [game_id]), None)
        if row is None:
            raise StoreError(f"no game {game_id!r} in {self.path}")
        try:
            return GameRecord(
                id=row["id"],
                created_at=row["created_at"],
                seed=row["seed"],
                seats=json.loads(row["seats"]),
                options=json.loads(row["options"]),
                board=json.loads(row["board"]),
                catalog=json.loads(row["catalog"]),
                head=row["head"],
                status=row["status"],
                winner=row["winner"],
            )
        except (TypeError, json.JSONDecodeError) as exc:
            raise StoreCorrupt(f"game {game_id}: games row unreadable: {exc}") from None

    @_store_errors
    def _head(self, game_id: str) -> int:
        row = self.db.execute("select head from games where id = ?", [game_id]).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id!r} in {self.path}")
        return int(row[0])

    @_store_errors
    def games(self) -> list[GameRecord]:
        ids = [r["id"] for r in self.db.query("select id from games order by created_at, id")]
        return [self.game(i) for i in ids]

    @_store_errors
    def last_unfinished(self) -> str | None:
        row = next(
            self.db.query(
                "select id from games where status = 'playing' "
                "order by created_at desc, rowid desc limit 1"
            ),
            None,
        )
        return None if row is None else str(row["id"])

    # ----- commands and events -------------------------------------------------------------
    @_store_errors
    def append(
        self,
        game_id: str,
        head: int,
        command: Command,
        events: list[e.Event],
        state_after: GameState,
    ) -> int:
        """Store one accepted command and its events atomically; returns the new head.

        `head` is the caller's view of the log: a stale view (another writer) is refused.
        """
        stored = self._head(game_id)
        if stored != head:
            raise StoreError(f"game {game_id}: head is {stored}, not {head}: reload it")
        last = self._last_event(game_id, head)
        with self.db.atomic():
            self.db.execute("delete from commands where game_id = ? and seq > ?", [game_id, head])
            self.db.execute("delete from events where game_id = ? and seq > ?", [game_id, last])
            self.db.execute(
                "delete from snapshots where game_id = ? and event_seq > ?", [game_id, last]
            )
            # The hot path uses fixed statements on the same connection: sqlite-utils' insert
            # inspects the table on every call, which costs more than the commit itself.
            conn = self.db.conn
            conn.executemany(
                "insert into events (game_id, seq, kind, payload) values (?, ?, ?, ?)",
                [
                    (
                        game_id,
                        last + i,
                        type(ev).__struct_config__.tag,
                        msgspec.json.encode(ev).decode(),
                    )
                    for i, ev in enumerate(events, 1)
                ],
            )
            new_last = last + len(events)
            conn.execute(
                "insert into commands (game_id, seq, payload, first_event, last_event, at) "
                "values (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    head + 1,
                    msgspec.json.encode(command).decode(),
                    last + 1,
                    new_last,
                    _now(),
                ),
            )
            if new_last // SNAPSHOT_EVERY > last // SNAPSHOT_EVERY:
                conn.execute(
                    "insert into snapshots (game_id, event_seq, state) values (?, ?, ?)",
                    (game_id, new_last, _PACK.encode(state_after)),
                )
            status = "over" if state_after.phase == "over" else "playing"
            self.db.execute(
                "update games set head = ?, status = ?, winner = ? where id = ?",
                [head + 1, status, state_after.winner, game_id],
            )
        return head + 1

    @_store_errors
    def _last_event(self, game_id: str, head: int) -> int:
        if head == 0:
            return 1
        row = next(
            self.db.query(
                "select last_event from commands where game_id = ? and seq = ?", [game_id, head]
            ),
            None,
        )
        if row is None:
            raise StoreCorrupt(f"game {game_id}: commands row {head} is missing")
        return int(row["last_event"])

    @_store_errors
    def commands(self, game_id: str, upto: int | None = None) -> list[CommandRecord]:
        """The game's commands up to `upto` (its head), read again only when the log changed
        since the last read: by this connection (its total changes) or another (SQLite's
        `data_version`)."""
        head = self._head(game_id) if upto is None else upto
        version = self.db.execute("pragma data_version").fetchone()[0]
        key = (game_id, head, self.db.conn.total_changes, version)
        if self._read is not None and self._read[0] == key:
            return list(self._read[1])
        found = []
        for row in self.db.query(
            "select * from commands where game_id = ? and seq <= ? order by seq", [game_id, head]
        ):
            try:
                command = _COMMAND.decode(row["payload"])
            except (msgspec.DecodeError, TypeError) as exc:
                raise StoreCorrupt(f"game {game_id}: commands row {row['seq']}: {exc}") from None
            found.append(
                CommandRecord(row["seq"], command, row["first_event"], row["last_event"], row["at"])
            )
        self._read = (key, tuple(found))
        return found

    @_store_errors
    def command(self, game_id: str, seq: int) -> CommandRecord | None:
        """The `seq`-th command stored (undone ones too), or None."""
        row = self.db.execute(
            "select payload, first_event, last_event, at from commands "
            "where game_id = ? and seq = ?",
            [game_id, seq],
        ).fetchone()
        if row is None:
            return None
        payload, first_event, last_event, at = row
        try:
            command = _COMMAND.decode(payload)
        except (msgspec.DecodeError, TypeError) as exc:
            raise StoreCorrupt(f"game {game_id}: commands row {seq}: {exc}") from None
        return CommandRecord(seq, command, first_event, last_event, at)

    def top(self, game_id: str) -> int:
        """The number of stored commands, undone ones included."""
        return self._top(game_id)

    @_store_errors
    def events(self, game_id: str, upto: int | None = None, after: int = 0) -> list[e.Event]:
        """Events in effect (up to the head, or up to event seq `upto`), after seq `after`."""
        last = self._last_event(game_id, self._head(game_id)) if upto is None else upto
        return list(self._decode_events(game_id, after, last))

    def _decode_events(self, game_id: str, after: int, last: int) -> Iterator[e.Event]:
        expected = after + 1
        for row in self.db.query(
            "select seq, payload from events where game_id = ? and seq > ? and seq <= ? "
            "order by seq",
            [game_id, after, last],
        ):
            if row["seq"] != expected:
                raise StoreCorrupt(f"game {game_id}: event {expected} is missing")
            try:
                yield _EVENT.decode(row["payload"])
            except (msgspec.DecodeError, TypeError) as exc:
                raise StoreCorrupt(f"game {game_id}: events row {row['seq']}: {exc}") from None
            expected += 1
        if expected != last + 1:
            raise StoreCorrupt(f"game {game_id}: events {expected}..{last} are missing")

    @_store_errors
    def state(self, game_id: str, head: int | None = None) -> GameState:
        """The state after `head` commands: latest snapshot at or before it, plus the tail."""
        head = self._head(game_id) if head is None else head
        last = self._last_event(game_id, head)
        try:
            row = next(
                self.db.query(
                    "select event_seq, state from snapshots where game_id = ? and event_seq <= ? "
                    "order by event_seq desc limit 1",
                    [game_id, last],
                ),
                None,
            )
        except sqlite3.OperationalError:  # snapshots are a shortcut: a salvaged log may lack them
            row = None
        if row is None:
            started = next(self._decode_events(game_id, 0, 1))
            assert isinstance(started, e.GameStarted)
            state, after = started_state(started), 1
        else:
            try:
                state, after = _STATE.decode(row["state"]), int(row["event_seq"])
            except (msgspec.DecodeError, TypeError) as exc:
                raise StoreCorrupt(
                    f"game {game_id}: snapshots row {row['event_seq']}: {exc}"
                ) from None
        for event in self._decode_events(game_id, after, last):
            apply(state, event)
        return state

    @_store_errors
    def replay_from_scratch(self, game_id: str) -> GameState:
        """The state by folding every event in effect from the first (no snapshot)."""
        events = self.events(game_id)
        first = events[0]
        assert isinstance(first, e.GameStarted)
        state = started_state(first)
        for event in events[1:]:
            apply(state, event)
        return state

    # ----- undo / redo -----------------------------------------------------------------------
    @_store_errors
    def _top(self, game_id: str) -> int:
        """The number of stored commands, undone ones included."""
        row = self.db.execute(
            "select max(seq) from commands where game_id = ?", [game_id]
        ).fetchone()
        return int(row[0] or 0)

    @_store_errors
    def set_head(self, game_id: str, head: int) -> None:
        top = self._top(game_id)
        if not 0 <= head <= top:
            raise StoreError(f"game {game_id}: no command {head} (0-{top})")
        state = self.state(game_id, head)
        with self.db.atomic():
            self.db.execute(
                "update games set head = ?, status = ?, winner = ? where id = ?",
                [head, "over" if state.phase == "over" else "playing", state.winner, game_id],
            )

    @_store_errors
    def redo_available(self, game_id: str) -> int:
        head = self._head(game_id)
        top = self._top(game_id)
        return top - head

    # ----- export / import -------------------------------------------------------------------
    def export_jsonl(self, game_id: str) -> Iterator[str]:
        game = self.game(game_id)
        header = {
            "format": "armata-game/1",
            "seed": game.seed,
            "seats": game.seats,
            "options": game.options,
            "board": game.board,
            "catalog": game.catalog,
        }
        yield json.dumps(header)
        events = self.events(game_id, upto=1)
        yield msgspec.json.encode({"event": events[0]}).decode()
        for record in self.commands(game_id):
            evs = self.events(game_id, upto=record.last_event, after=record.first_event - 1)
            yield msgspec.json.encode({"command": record.command, "events": evs}).decode()

    @_store_errors
    def import_jsonl(self, lines: Iterator[str] | list[str], source: str = "game export") -> str:
        """Store an `armata-game/1` export as a new game: all of it, or nothing (every line is
        read and folded before the one transaction that writes it). Errors name `source` and
        the line."""
        rows = iter(lines)
        try:
            raw = json.loads(next(rows))
            if not isinstance(raw, dict) or raw.get("format") != "armata-game/1":
                raise StoreError(f"{source}: line 1: not an armata-game/1 export")
            header = msgspec.convert(raw, _Header)
            first = json.loads(next(rows))
            if not isinstance(first, dict) or not isinstance(first.get("event"), dict):
                raise StoreError(f"{source}: line 2: no first event")
            started = msgspec.convert(upgrade_event(first["event"]), e.GameStarted)
            state: GameState = started_state(started)
        except StopIteration:
            raise StoreError(f"{source}: ends before its first event") from None
        except (
            ValueError,
            msgspec.ValidationError,
            RecursionError,
            LookupError,
            TypeError,
            AttributeError,
            ArithmeticError,
        ) as exc:
            raise StoreError(f"{source}: unreadable header: {exc}") from None
        records: list[tuple[_ExportedCommand, GameState]] = []
        last = 1
        for n, line in enumerate(rows, 3):
            try:
                data = json.loads(line)
                if not isinstance(data, dict) or not isinstance(data.get("events"), list):
                    raise StoreError("no 'events' list")
                data["events"] = [
                    upgrade_event(x) if isinstance(x, dict) else x for x in data["events"]
                ]
                record = msgspec.convert(data, _ExportedCommand)
                for event in record.events:
                    apply(state, event)
            except (
                StoreError,
                json.JSONDecodeError,
                msgspec.ValidationError,
                RecursionError,
            ) as exc:
                raise StoreError(f"{source}: line {n}: {exc}") from None
            except (
                CompanionError,
                LookupError,
                ValueError,
                TypeError,
                AttributeError,
                ArithmeticError,
            ) as exc:  # events the game cannot fold in this order
                raise StoreError(
                    f"{source}: line {n}: its events do not fit the game: "
                    f"{type(exc).__name__}: {exc}"
                ) from None
            crossed = (last + len(record.events)) // SNAPSHOT_EVERY > last // SNAPSHOT_EVERY
            last += len(record.events)
            # a snapshot keeps the state of its own step; the others only need the last status
            records.append((record, _STATE.decode(_PACK.encode(state)) if crossed else state))
        seats = [(hero, ladder) for hero, ladder in header.seats]
        try:
            with self.db.atomic():
                game_id = self.create_game(
                    started, seats, header.board, header.catalog, header.options
                )
                head = 0
                for record, after in records:
                    head = self.append(game_id, head, record.command, list(record.events), after)
        except OverflowError as exc:
            raise StoreError(f"{source}: a number too large to store: {exc}") from None
        return game_id


class _Header(msgspec.Struct):
    format: str
    seed: int
    seats: list[tuple[str, str]]
    options: dict[str, Any]
    board: dict[str, Any]
    catalog: dict[str, Any]


class _ExportedCommand(msgspec.Struct):
    command: AnyCommand
    events: list[e.AnyEvent]
