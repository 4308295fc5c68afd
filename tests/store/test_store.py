"""The event log on a real SQLite file: durability settings, transactions, resume, undo/redo,
history, export/import, corrupt rows."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import msgspec
import pytest

from companion.app.session.game import GameSession
from companion.engine.game import commands as c
from companion.errors import IllegalCommand
from companion.store.gamelog import SNAPSHOT_EVERY, GameLog, StoreCorrupt, StoreError

SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


def play(session: GameSession, commands: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(commands):
        if session.state.phase == "over":
            return
        session.execute(rng.choice(session.legal_commands()))


@pytest.fixture
def log(tmp_path: Path) -> GameLog:
    with GameLog(tmp_path / "table.sqlite") as opened:
        yield opened


def test_durability_settings_and_schema(log: GameLog) -> None:
    assert log.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert {"games", "commands", "events", "snapshots", "nfc_bindings", "settings"} <= set(
        log.db.table_names()
    )
    applied = [r["name"] for r in log.db.query("select name from _sqlite_migrations")]
    assert applied == ["m001_game_log", "m002_bindings_and_settings", "m003_typed_tasks"]
    GameLog(log.path).close()  # reopening applies nothing twice
    assert len(list(log.db.query("select name from _sqlite_migrations"))) == 3


def test_each_command_is_one_transaction_and_resume_matches_replay(log: GameLog) -> None:
    session = GameSession.start(log, 5, SEATS)
    rng = random.Random(1)
    while session.state.event_count <= 2 * SNAPSHOT_EVERY:
        session.execute(rng.choice(session.legal_commands()))
    assert session.state.phase != "over"
    rows = log.db.execute("select count(*) from commands").fetchone()[0]
    assert rows == session.head
    assert log.db.execute("select count(*) from snapshots").fetchone()[0] >= 1
    assert session.state.event_count > SNAPSHOT_EVERY
    resumed = GameSession.resume(log)
    assert resumed is not None and resumed.game_id == session.game_id
    assert resumed.state == session.state == log.replay_from_scratch(session.game_id)


def test_refused_commands_leave_the_log_untouched(log: GameLog) -> None:
    session = GameSession.start(log, 5, SEATS)
    before = log.db.execute("select count(*) from events").fetchone()[0]
    with pytest.raises(IllegalCommand):
        session.execute(c.Stay(hero="roel"))
    assert log.db.execute("select count(*) from events").fetchone()[0] == before
    assert session.head == 0


def test_a_stale_writer_is_refused(log: GameLog) -> None:
    session = GameSession.start(log, 5, SEATS)
    other = GameSession(log, session.game_id)
    play(session, 3)
    with pytest.raises(StoreError, match="reload it"):
        other.execute(other.legal_commands()[0])


def test_undo_redo_any_number_of_steps(log: GameLog) -> None:
    session = GameSession.start(log, 7, SEATS)
    play(session, 40)
    states = {}
    for head in range(session.head, -1, -1):
        states[head] = log.state(session.game_id, head)
    session.undo(25)
    assert session.state == states[session.head]
    assert log.redo_available(session.game_id) == 25
    session.redo(10)
    assert session.state == states[session.head]
    session.undo(25)
    assert session.head == 0 and session.state == states[0]
    session.redo(40)
    assert session.state == states[40]
    session.undo(5)
    session.execute(session.legal_commands()[0])  # a new command replaces the undone ones
    assert log.redo_available(session.game_id) == 0
    assert session.state == log.replay_from_scratch(session.game_id)
    with pytest.raises(StoreError, match="no command"):
        session.redo(1)


def test_history_lists_the_commands(log: GameLog) -> None:
    session = GameSession.start(log, 7, SEATS)
    play(session, 10)
    history = log.commands(session.game_id)
    assert [h.seq for h in history] == list(range(1, 11))
    assert all(h.first_event <= h.last_event + 1 for h in history)
    assert isinstance(history[0].command, c.ChooseCard)


def test_the_history_read_again_follows_every_change(log: GameLog) -> None:
    """`commands` keeps its last read (the phones' views ask after every command): a command
    played, an undo and a command replacing the undone one, and a change by another connection
    are all seen, exactly as a read of the rows."""
    session = GameSession.start(log, 7, SEATS)
    play(session, 6)

    def fresh() -> list[tuple[int, object]]:
        with sqlite3.connect(log.path) as other:
            rows = other.execute(
                "select seq, payload from commands where game_id = ? and seq <= ? order by seq",
                [session.game_id, log.top(session.game_id)],
            ).fetchall()
        return [(seq, msgspec.json.decode(payload)) for seq, payload in rows]

    def read() -> list[tuple[int, object]]:
        found = session.history()
        return [(r.seq, msgspec.json.decode(msgspec.json.encode(r.command))) for r in found]

    before = read()
    assert before == fresh() and session.history() is not session.history()  # a copy each
    session.undo(1)
    play(session, 1, seed=9)  # another command in the undone one's place: the same top
    assert read() == fresh() != before and len(read()) == 6
    with sqlite3.connect(log.path) as other:  # another connection rewrites the last command
        other.execute(
            "update commands set payload = (select payload from commands where game_id = ?1 "
            "and seq = 1) where game_id = ?1 and seq = 6",
            [session.game_id],
        )
    assert read() == fresh() and read()[5][1] == read()[0][1]


def test_export_then_import_gives_the_same_game(log: GameLog, tmp_path: Path) -> None:
    session = GameSession.start(log, 9, SEATS)
    play(session, 60)
    lines = list(log.export_jsonl(session.game_id))
    assert lines[0].startswith('{"format": "armata-game/1"')
    with GameLog(tmp_path / "other.sqlite") as other:
        copy = other.import_jsonl(lines)
        assert other.state(copy) == session.state
        assert len(other.commands(copy)) == session.head
    with pytest.raises(StoreError, match="line 1"):
        log.import_jsonl(['{"format": "something else"}'])


def test_corrupt_rows_are_reported_not_swallowed(log: GameLog) -> None:
    session = GameSession.start(log, 3, SEATS)
    play(session, 20)
    log.db.execute("delete from snapshots")
    log.db.execute(
        'update events set payload = \'{"event": "nonsense"}\' where game_id = ? and seq = 7',
        [session.game_id],
    )
    log.db.conn.commit()
    with pytest.raises(StoreCorrupt, match=r"events row 7"):
        log.state(session.game_id)
    log.db.execute("delete from events where game_id = ? and seq = 9", [session.game_id])
    log.db.conn.commit()
    with pytest.raises(StoreCorrupt, match="missing"):
        log.events(session.game_id, after=7)


def test_unknown_game(log: GameLog) -> None:
    with pytest.raises(StoreError, match="no game 'nope'"):
        log.game("nope")


def test_the_database_file_is_real_sqlite(log: GameLog) -> None:
    GameSession.start(log, 1, SEATS)
    with sqlite3.connect(log.path) as raw:
        assert raw.execute("select count(*) from games").fetchone()[0] == 1


def test_observers_get_public_events(log: GameLog) -> None:
    session = GameSession.start(log, 1, SEATS)
    seen: list[object] = []
    stop = session.subscribe(seen.extend)
    session.execute(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))
    assert seen and all(
        getattr(x, "card", "") == "" for x in seen if type(x).__name__ == "CardChosen"
    )
    stop()
    session.execute(c.ChooseCard(hero="matthew", card="matthew/son-of-the-wolf"))
    assert len(seen) == 1
