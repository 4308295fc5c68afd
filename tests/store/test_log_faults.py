"""Issue 28, items 1 and 2: the game log as SQLite promises it. A damaged, newer or unreadable
log is refused at open with an error naming the file and what is wrong, and never written to;
it can be kept aside (renamed, never deleted) for a fresh one; `export` still reads what it can;
a read-only folder shows the games without playing; a full disk refuses the command and the
table goes on. Real SQLite files throughout; the full disk is SQLite's own "database or disk is
full" (a page limit on the connection), the read-only folder real permissions."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app.devices.voice import Silent
from companion.app.service import TableService, open_log, start_fresh_log
from companion.app.session.game import GameSession
from companion.errors import (
    CompanionError,
    LogDamaged,
    LogFull,
    LogReadOnly,
    LogTooNew,
    LogUnreadable,
    LogUnusable,
    NotExportable,
    StoreError,
)
from companion.store.gamelog import GameLog
from companion.store.integrity import keep_aside
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit

SEATS = [("roel", "L1"), ("matthew", "L2")]


def play(session: GameSession, steps: int) -> None:
    for _ in range(steps):
        options = session.legal_commands()
        if not options:
            return
        session.execute(options[0])


@pytest.fixture(scope="module")
def good_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with one game of 60 commands (several snapshots), closed cleanly."""
    path = tmp_path_factory.mktemp("good") / "companion.db"
    with GameLog(path) as log:
        play(GameSession.start(log, 5, SEATS), 60)
    return path


def _truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _garbage_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[:100] = random.Random(1).randbytes(100)
    path.write_bytes(bytes(data))


def _text_file(path: Path) -> None:
    path.write_text("the game of Tuesday night: Roel won\n" * 50, encoding="utf-8")


def _dropped_table(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("drop table snapshots")
    conn.close()


def _garbage_in_the_middle(path: Path) -> None:
    """4 KiB of garbage over a page in the middle: SQLite's quick_check finds it."""
    data = bytearray(path.read_bytes())
    at = len(data) // 2 // 4096 * 4096
    data[at : at + 4096] = random.Random(2).randbytes(4096)
    path.write_bytes(bytes(data))


def _record_cut(path: Path) -> None:
    """A game's record cut in its middle (its bytes damaged inside a row): SQLite's checks pass,
    but the unfinished game cannot be read back (found by a player: Resume failed)."""
    with sqlite3.connect(path) as conn:
        conn.execute("update games set board = substr(board, 1, 100)")
    conn.close()


def _newer(path: Path) -> None:
    """A migration this version does not know, as a newer version would have recorded it."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at) "
            "values ('armata-companion', 'm099_from_the_future', '2030-01-01')"
        )
    conn.close()


DAMAGES: dict[str, tuple[Callable[[Path], None], type[LogUnusable], str]] = {
    "truncated": (_truncate, LogDamaged, "malformed"),
    "garbage header": (_garbage_header, LogDamaged, "not an SQLite database"),
    "text file": (_text_file, LogDamaged, "not an SQLite database"),
    "dropped table": (_dropped_table, LogDamaged, "'snapshots' is missing"),
    "garbage in the middle": (_garbage_in_the_middle, LogDamaged, "quick_check found"),
    "record cut": (_record_cut, LogDamaged, "cannot be read back"),
    "newer schema": (_newer, LogTooNew, "m099_from_the_future"),
}


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture(params=sorted(DAMAGES))
def damaged(request: pytest.FixtureRequest, good_log: Path, tmp_path: Path) -> Iterator[tuple]:
    damage, error, words = DAMAGES[request.param]
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "companion.db"
    shutil.copy(good_log, path)
    damage(path)
    yield path, error, words


def test_a_damaged_or_newer_log_is_refused_at_open_and_never_written(damaged: tuple) -> None:
    path, error, words = damaged
    before = digest(path.parent)
    with pytest.raises(error) as raised:
        GameLog(path)
    assert str(path) in str(raised.value) and words in str(raised.value)
    with pytest.raises(error):
        TableService(path.parent, lambda call: call(), speaker=Silent())
    assert digest(path.parent) == before  # not a byte written, no WAL file beside it


def test_the_full_integrity_check_is_there_on_demand(good_log: Path, tmp_path: Path) -> None:
    path = tmp_path / "companion.db"
    shutil.copy(good_log, path)
    GameLog(path, check="full").close()
    _garbage_in_the_middle(path)
    with pytest.raises(LogDamaged, match=r"integrity_check found"):
        GameLog(path, check="full")


def test_a_damaged_log_is_kept_aside_and_a_fresh_one_started(damaged: tuple) -> None:
    path, error, _words = damaged
    content = path.read_bytes()
    with pytest.raises(error):
        open_log(path.parent)
    aside = start_fresh_log(path.parent)
    assert aside.parent == path.parent and aside.name.startswith("companion.db.damaged-")
    assert aside.read_bytes() == content  # renamed, not a byte lost
    with TableService(path.parent, lambda call: call(), speaker=Silent()) as service:
        service.new_game(3)
        assert service.execute(service.session.legal_commands()[0]).refused is None
    assert aside.read_bytes() == content
    # a second damaged log kept aside in the same second gets its own name
    shutil.copy(aside, path)
    assert keep_aside(path) != aside and aside.exists()


def test_a_folder_or_a_missing_folder_is_no_log(tmp_path: Path) -> None:
    with pytest.raises(LogUnreadable, match="folder"):
        GameLog(tmp_path)
    with pytest.raises(LogUnreadable, match="no folder"):
        GameLog(tmp_path / "nowhere" / "companion.db")
    (tmp_path / "file").write_text("x")
    with pytest.raises(LogUnreadable, match="no data folder"):
        open_log(tmp_path / "file")


def test_a_log_opened_read_only_reads_and_refuses_every_write(
    good_log: Path, tmp_path: Path
) -> None:
    path = tmp_path / "companion.db"
    shutil.copy(good_log, path)
    before = digest(tmp_path)
    with GameLog(path, read_only=True) as log:
        assert log.read_only
        game = log.games()[0]
        state = log.state(game.id)
        session = GameSession(log, game.id)
        with pytest.raises(LogReadOnly, match="read-only"):
            session.execute(session.legal_commands()[0])
        with pytest.raises(LogReadOnly):
            session.undo()
        with pytest.raises(LogReadOnly):
            GameSession.start(log, 1, SEATS)
        assert log.state(game.id) == state
    assert digest(tmp_path) == before  # not even SQLite's -wal/-shm files beside it


def test_a_full_disk_refuses_the_command_and_the_table_goes_on(tmp_path: Path) -> None:
    """SQLite's own SQLITE_FULL ("database or disk is full"): the connection may not grow the
    file past its pages. Nothing is half-written; once there is room the same command goes."""
    with TableService(tmp_path, lambda call: call(), speaker=Silent()) as service:
        session = service.new_game(11)
        play(session, 5)
        db = service.log.db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        head, state = session.head, session.state
        refused = None
        for _ in range(200):  # until a command needs a new page
            command = session.legal_commands()[0]
            outcome = service.execute(command)
            if outcome.refused is not None:
                refused = outcome.refused
                break
            head, state = session.head, session.state
        assert refused is not None and refused.startswith(
            "No space left: the last move was not saved."
        )
        assert (session.head, session.state) == (head, state)
        assert service.log.state(session.game_id) == state  # the log is as it was
        assert service.undo() is False or session.head == head - 1  # undo may fit; never breaks
        if session.head != head:
            db.execute("PRAGMA max_page_count = 1000000")
            assert service.redo()
        db.execute("PRAGMA max_page_count = 1000000")  # space is back
        assert service.execute(command).refused is None
        assert session.head == head + 1
        assert service.log.state(session.game_id) == session.state


def test_a_full_disk_error_is_a_store_error_with_the_words() -> None:
    error = LogFull("no space left: the last move was not saved")
    assert isinstance(error, StoreError) and isinstance(error, CompanionError)


# ----- the command line ------------------------------------------------------------------------
def companion(
    *args: str, user_drops_write: bool = False, data: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m companion ARGS`; `user_drops_write`: as a user the folder's permissions bind
    (root keeps its uid but loses the capability to override them); `data`: the data folder
    ($ARMATA_DATA_DIR)."""
    command = [PYTHON, "-m", "companion", *args]
    if user_drops_write and os.geteuid() == 0:
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", *command]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            **({"ARMATA_DATA_DIR": str(data)} if data is not None else {}),
        },
    )


@pytest.mark.slow
def test_serve_says_what_is_wrong_on_one_line_with_its_exit_code(damaged: tuple) -> None:
    path, error, words = damaged
    before = digest(path.parent)
    done = companion("serve", "--data", str(path.parent), "--seconds", "1", "--silent")
    assert done.returncode == error.exit_code, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], done.stderr
    assert "--fresh-log" in lines[0]
    assert digest(path.parent) == before


@pytest.mark.slow
def test_serve_fresh_log_keeps_the_damaged_one_aside(damaged: tuple) -> None:
    path, _error, _words = damaged
    content = path.read_bytes()
    done = companion(
        "serve", "--data", str(path.parent), "--seconds", "1", "--silent", "--fresh-log"
    )
    assert done.returncode == 0, done.stderr
    assert "kept aside" in done.stdout
    kept = [p for p in path.parent.iterdir() if ".damaged-" in p.name and p.suffix != ".db-wal"]
    assert [p.read_bytes() for p in kept if not p.name.endswith(("-wal", "-shm"))] == [content]
    GameLog(path).close()  # the fresh log is sound


@pytest.mark.slow
def test_export_reads_what_it_can_of_a_damaged_log(damaged: tuple, tmp_path: Path) -> None:
    path, error, _words = damaged
    before = digest(path.parent)
    out = tmp_path / "game.json"
    done = companion("export", "last", "--db", str(path), "-o", str(out))
    assert "Traceback" not in done.stderr
    assert digest(path.parent) == before  # read, never written, nothing beside it
    if done.returncode == 0:  # the damage spared the game: exported, with a warning
        assert "warning:" in done.stderr and str(path) in done.stderr
        assert '"format": "armata-transcript/1"' in out.read_text()
    else:
        assert done.returncode == error.exit_code, done.stderr
        assert len(done.stderr.strip().splitlines()) <= 2 and str(path) in done.stderr
        assert not out.exists()


@pytest.mark.slow
def test_export_of_the_newer_and_dropped_table_logs_still_works(good_log: Path, tmp_path: Path):
    for damage in (_newer, _dropped_table):
        path = tmp_path / f"{damage.__name__}.db"
        shutil.copy(good_log, path)
        damage(path)
        done = companion("export", "last", "--db", str(path))
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("{") and "warning:" in done.stderr


@pytest.mark.slow
def test_a_read_only_folder_shows_and_exports_but_does_not_play(
    good_log: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(good_log, folder / "companion.db")
    folder.chmod(0o555)
    try:
        before = digest(folder)
        done = companion(
            "serve", "--data", str(folder), "--play", "--seconds", "2", "--silent",
            user_drops_write=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "is read-only: games can be resumed and exported, not played on" in done.stdout
        assert "said: The game goes on." in done.stdout  # the unfinished game, shown
        exported = companion("export", "last", "--db", str(folder / "companion.db"),
                             user_drops_write=True)  # fmt: skip
        assert exported.returncode == 0, exported.stderr
        assert '"format": "armata-transcript/1"' in exported.stdout
        assert digest(folder) == before
        empty = tmp_path / "empty"
        empty.mkdir(mode=0o555)
        done = companion("serve", "--data", str(empty), "--seconds", "1", "--silent",
                         user_drops_write=True)  # fmt: skip
        assert done.returncode == LogUnreadable.exit_code
        assert "its folder is read-only" in done.stderr and "Traceback" not in done.stderr
    finally:
        folder.chmod(0o755)


@pytest.mark.slow  # the headless table's loop on its thread, the simulated board
def test_the_headless_table_says_a_full_disk_and_goes_on(tmp_path: Path) -> None:
    """`serve`'s loop: the refused command is said, the loop keeps serving, and the command
    goes through once there is room."""
    from tests.support.headless_table import headless_table

    with headless_table(tmp_path) as served:
        table, said, on_loop = served.table, served.said, served.on_loop
        on_loop(lambda: table.start_or_resume(5))
        db = table.service.log.db
        on_loop(
            lambda: db.execute(
                f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}"
            )
        )
        for _ in range(100):
            session = table.service.session
            assert session is not None
            command = session.legal_commands()[0]
            on_loop(lambda command=command: table._do(command))
            if any(line.startswith("No space left") for line in said):
                break
        assert any(line.startswith("No space left: the last move was not saved") for line in said)
        head = table.service.session.head  # type: ignore[union-attr]
        on_loop(lambda: db.execute("PRAGMA max_page_count = 1000000"))
        on_loop(lambda: table._do(command))
        assert table.service.session.head == head + 1  # type: ignore[union-attr]
        assert served.loop.is_alive()


def test_a_fresh_log_keeps_the_tables_settings_and_registered_tags(tmp_path: Path) -> None:
    """Found by a new player: keeping a damaged log aside also forgot the table's language and
    every card tag the players had registered; both come along to the fresh log."""
    from companion.store.nfc import NfcRegistry
    from companion.store.settings import Settings

    data = tmp_path / "data"
    data.mkdir()
    with GameLog(data / "companion.db") as log:
        play(GameSession.start(log, 5, SEATS), 10)
        Settings(log.db).set("language", "de")
        Settings(log.db).set("volume", 60)
        NfcRegistry(log.db).bind("04aabbccddeeff", "action_card", "roel_son_of_the_wolf")
    _record_cut(data / "companion.db")
    with pytest.raises(LogDamaged):
        GameLog(data / "companion.db")
    aside = start_fresh_log(data)
    assert aside.exists() and aside.parent == data
    with GameLog(data / "companion.db") as fresh:
        assert fresh.games() == []  # the games stay in the old file
        assert Settings(fresh.db).get("language") == "de"
        assert Settings(fresh.db).get("volume") == 60
        bound = NfcRegistry(fresh.db).lookup("04aabbccddeeff")
        assert bound is not None and bound.target == "roel_son_of_the_wolf"


def test_a_game_this_version_cannot_replay_is_refused_for_export_with_a_clear_error(
    tmp_path: Path,
) -> None:
    """A playtest exported a game an older version had recorded: the replay met a card no
    longer legal and the IllegalCommand ended the app. Export now says why, writes nothing,
    and the table goes on."""
    import json

    with TableService(tmp_path, lambda call: call(), speaker=Silent()) as service:
        session = service.new_game(11)
        play(session, 5)
        db = service.log.db
        row = db.execute(
            "SELECT seq, payload FROM commands WHERE game_id = ? AND payload LIKE '%\"card\"%' "
            "ORDER BY seq LIMIT 1",
            [session.game_id],
        ).fetchone()
        assert row is not None
        payload = json.loads(row[1])
        payload["card"] = "roel/a-card-of-an-older-version"
        with db.conn:
            db.execute(
                "UPDATE commands SET payload = ? WHERE game_id = ? AND seq = ?",
                [json.dumps(payload), session.game_id, row[0]],
            )
        with pytest.raises(NotExportable, match="cannot be replayed by this version's rules"):
            service.export_game(session.game_id)
        assert not (tmp_path / "exports").exists() or not any((tmp_path / "exports").iterdir())
        assert service.execute(session.legal_commands()[0]).refused is None  # it goes on


# ----- issue 38, item 6: a damaged or newer log's folder stays byte for byte as it was --------
def folder_state(folder: Path, leave_out: str = "") -> dict[str, tuple[int, str]]:
    """Every file and folder below `folder` (but `leave_out`): its size and sha256, so two
    states compare byte for byte; a folder is (-1, "folder")."""
    state: dict[str, tuple[int, str]] = {}
    for entry in sorted(folder.rglob("*")):
        name = entry.relative_to(folder)
        if leave_out and name.parts[0] == leave_out:
            continue
        if entry.is_dir():
            state[str(name)] = (-1, "folder")
        else:
            content = entry.read_bytes()
            state[str(name)] = (len(content), hashlib.sha256(content).hexdigest())
    return state


def _killed_mid_game(good_log: Path, folder: Path, *, newer: bool = False) -> str:
    """The files a table killed mid-game leaves in `folder`: its latest game (and, `newer`, a
    newer version's migration) only in the `-wal` beside the log, copied while the table's
    connection is open and before any checkpoint; the game's id."""
    running = folder.parent / "running"
    running.mkdir()
    shutil.copy(good_log, running / "companion.db")
    with GameLog(running / "companion.db") as log:
        log.db.execute("PRAGMA wal_autocheckpoint=0")
        session = GameSession.start(log, 7, SEATS)
        play(session, 5)
        if newer:
            with log.db.conn:
                log.db.execute(
                    "insert into _sqlite_migrations (migration_set, name, applied_at) "
                    "values ('armata-companion', 'm099_from_the_future', '2030-01-01')"
                )
        for name in ("companion.db", "companion.db-wal"):
            shutil.copy(running / name, folder / name)
    assert (folder / "companion.db-wal").stat().st_size > 0
    return session.game_id


#: (damage, whether the latest moves are only in a -wal beside the log, exit code of `check`)
UNTOUCHED = {
    "truncated": (_truncate, False, LogDamaged.exit_code),
    "newer schema": (_newer, False, LogTooNew.exit_code),
    "truncated, moves in its -wal": (_truncate, True, LogDamaged.exit_code),
    "newer schema, only in its -wal": (_newer, True, LogTooNew.exit_code),
}


@pytest.fixture(params=sorted(UNTOUCHED))
def untouched(request: pytest.FixtureRequest, good_log: Path, tmp_path: Path) -> Iterator[tuple]:
    """A data folder with a damaged or newer log; (folder, exit code of check, the id of a
    game only in the -wal or None)."""
    damage, in_wal, code = UNTOUCHED[request.param]
    folder = tmp_path / "data"
    folder.mkdir()
    game_id = None
    if not in_wal:
        shutil.copy(good_log, folder / "companion.db")
        damage(folder / "companion.db")
    elif damage is _newer:
        game_id = _killed_mid_game(good_log, folder, newer=True)
    else:
        game_id = _killed_mid_game(good_log, folder)
        damage(folder / "companion.db")
    yield folder, code, game_id


@pytest.mark.slow
def test_export_and_check_leave_a_damaged_or_newer_logs_folder_byte_for_byte(
    untouched: tuple, tmp_path: Path
) -> None:
    """`python -m companion export last` and `check` as a user runs them (the data folder in
    $ARMATA_DATA_DIR): not a file created, changed or removed beside the log, and a -wal
    beside it is still read (a newer migration only there is found, its game exported)."""
    folder, code, game_id = untouched
    before = folder_state(folder)
    checked = companion("check", data=folder)
    assert checked.returncode == code, checked.stderr
    assert folder_state(folder) == before
    out = tmp_path / "game.json"
    exported = companion("export", "last", "-o", str(out), data=folder)
    assert folder_state(folder) == before
    assert "Traceback" not in exported.stderr
    if code == LogTooNew.exit_code:  # a newer log is exported, with a warning
        assert exported.returncode == 0, exported.stderr
        assert "warning:" in exported.stderr and "newer version" in exported.stderr
        assert game_id is None or f"game {game_id}" in out.read_text()
    else:  # cut in its middle: nothing SQLite can read back
        assert exported.returncode == code, exported.stderr
        assert "is damaged" in exported.stderr and not out.exists()


def test_the_screens_check_and_export_leave_a_damaged_or_newer_logs_folder_as_it_was(
    untouched: tuple,
) -> None:
    """The app's screen for the log's problem (check_log, then Export what can be read):
    the transcripts go to exports/, nothing else in the folder changes."""
    from companion.app.log_problem import check_log, export_what_can_be_read

    folder, code, game_id = untouched
    before = folder_state(folder)
    problem = check_log(folder)
    assert problem is not None and problem.exit_code == code
    assert folder_state(folder) == before
    written = export_what_can_be_read(problem)
    assert folder_state(folder, leave_out="exports") == before
    if code == LogTooNew.exit_code:
        assert written and all(path.parent == folder / "exports" for path in written)
        assert game_id is None or folder / "exports" / f"game-{game_id}.json" in written


def test_a_log_read_through_a_copy_leaves_no_copy_and_refuses_writes(
    good_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A -wal beside a log is read through a private copy: it goes when the log closes."""
    from companion.store.untouched import read_untouched

    copies = tmp_path / "temporary"
    copies.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(copies))
    folder = tmp_path / "data"
    folder.mkdir()
    game_id = _killed_mid_game(good_log, folder)
    before = folder_state(folder)
    conn = read_untouched(folder / "companion.db")
    assert conn.execute("select count(*) from games where id = ?", [game_id]).fetchone() == (1,)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("delete from games")
    assert list(copies.iterdir())  # the copy, while it is read
    conn.close()
    assert not list(copies.iterdir())
    assert folder_state(folder) == before
