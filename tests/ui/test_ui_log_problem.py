"""Issue 28: the touchscreen app on a game log it must not play on (real Kivy under Xvfb, a
real damaged SQLite file): instead of dying with its traceback in Kivy's log, it shows what is
wrong with the choices; keeping the log aside starts the table on a fresh log; quitting leaves
every byte as it was and exits with the log's exit code. Screenshots in tests/artifacts/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from companion.app.session.game import GameSession
from companion.store.gamelog import GameLog
from companion.store.settings import Settings
from tests.conftest import PYTHON, ROOT
from tests.support.processes import run_group

pytestmark = pytest.mark.slow  # the app under Xvfb in subprocesses

ARTIFACTS = ROOT / "tests" / "artifacts"
SEATS = [("roel", "L1"), ("matthew", "L2")]


def app(
    action: str, data: Path, out: Path, *, permissions_bind: bool = False
) -> tuple[int, list[dict[str, Any]], str]:
    """The app on `data` with the log-problem script: its exit code and JSON reports.
    `permissions_bind`: root keeps its uid but loses the capability to override them."""
    assert shutil.which("xvfb-run"), "xvfb-run missing: run ./setup.sh test"
    command = [PYTHON, "-m", "tests.ui_driver", "--size", "800x480",
               "--script", "log-problem", action, "--out", str(out)]  # fmt: skip
    if permissions_bind and os.geteuid() == 0:
        drop = "-dac_override,-dac_read_search,-fowner"
        command = ["setpriv", "--bounding-set", drop, *command]
    done: subprocess.CompletedProcess[str] = run_group(
        ["xvfb-run", "-a", "-s", "-screen 0 800x480x24", *command],
        180,
        cwd=ROOT,
        env={**os.environ, "ARMATA_DATA_DIR": str(data)},
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return done.returncode, reports, done.stdout


def damaged_log(folder: Path) -> bytes:
    """A log with a game, then 4 KiB of garbage over a page in its middle."""
    folder.mkdir(parents=True)
    path = folder / "companion.db"
    with GameLog(path) as log:
        session = GameSession.start(log, 4, SEATS)
        for _ in range(40):
            session.execute(session.legal_commands()[0])
    data = bytearray(path.read_bytes())
    at = len(data) // 2 // 4096 * 4096
    data[at : at + 4096] = bytes(range(256)) * 16
    path.write_bytes(bytes(data))
    return bytes(data)


def check_layout(screen: dict[str, Any]) -> None:
    for check in ("overflow", "small_targets", "small_texts", "broken_words"):
        assert screen[check] == [], (check, screen[check])


def test_a_damaged_log_shows_the_problem_and_quit_leaves_it_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    content = damaged_log(data)
    code, reports, _out = app("quit", data, ARTIFACTS / "log-problem")
    assert code == 3  # the damaged log's exit code (docs/game-log.md, Exit codes)
    screen = reports[0]["screens"]["log-problem"]
    assert "The game log is damaged" in screen["texts"]
    details = [t for t in screen["texts"] if t.startswith("Details: ")]
    assert details and ("malformed" in details[0] or "quick_check found" in details[0])
    for choice in ("Keep it aside and start a fresh log", "Export what can be read", "Quit"):
        assert choice in screen["texts"]
    check_layout(screen)
    assert Path(screen["png"]).stat().st_size > 10_000
    assert sorted(p.name for p in data.iterdir()) == ["companion.db"]
    assert (data / "companion.db").read_bytes() == content


def test_keeping_a_damaged_log_aside_starts_the_table_on_a_fresh_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    content = damaged_log(data)
    code, reports, out = app("fresh", data, tmp_path / "shots")
    assert code == 0, out[-2000:]
    assert reports[0]["pressed"] == "fresh" and reports[0]["exit_code"] is None
    assert "game" in reports[1] and reports[1]["game"] is None  # the table's own report
    kept = [p for p in data.iterdir() if p.name.startswith("companion.db.damaged-")]
    assert [p.read_bytes() for p in kept] == [content]
    GameLog(data / "companion.db").close()  # the fresh log is sound


def test_export_saves_the_readable_games_of_a_newer_log(tmp_path: Path) -> None:
    """A log from a newer version: its games are exported as transcripts before quitting."""
    import sqlite3

    data = tmp_path / "data"
    data.mkdir()
    with GameLog(data / "companion.db") as log:
        session = GameSession.start(log, 4, SEATS)
        for _ in range(10):
            session.execute(session.legal_commands()[0])
    with sqlite3.connect(data / "companion.db") as conn:
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at) "
            "values ('armata-companion', 'm099_from_the_future', '2030-01-01')"
        )
    conn.close()
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    code, reports, _out = app("export", data, ARTIFACTS / "log-problem-newer")
    assert code == 4
    # the log read, not written: beside it only the transcripts' folder
    assert {p.name: p.read_bytes() for p in data.iterdir() if p.name != "exports"} == before
    screens = reports[0]["screens"]
    assert "The game log is from a newer version" in screens["log-problem"]["texts"]
    exported_texts = screens["log-problem-exported"]["texts"]
    assert f"The game was exported to {data / 'exports'}" in exported_texts
    check_layout(screens["log-problem-exported"])
    (exported,) = reports[0]["exported"]
    assert '"format": "armata-transcript/1"' in Path(exported).read_text()


def test_a_read_only_folder_is_said_and_the_games_are_shown_not_played(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with GameLog(data / "companion.db") as log:
        session = GameSession.start(log, 4, SEATS)
        for _ in range(6):
            session.execute(session.legal_commands()[0])
        Settings(log.db).set("language", "de")  # the screen speaks the table's language
    content = (data / "companion.db").read_bytes()
    data.chmod(0o555)
    try:
        code, reports, out = app(
            "continue", data, ARTIFACTS / "log-problem-read-only", permissions_bind=True
        )
    finally:
        data.chmod(0o755)
    assert code == 0, out[-2000:]
    screen = reports[0]["screens"]["log-problem"]
    assert "Das Spielprotokoll ist schreibgeschützt" in screen["texts"]
    assert "Spiele ansehen, ohne zu spielen" in screen["texts"]
    assert "Beiseitelegen und ein neues Protokoll beginnen" not in screen["texts"]
    check_layout(screen)
    table = reports[1]  # the table ran on the read-only log and reported (no traceback)
    assert "game" in table
    assert (data / "companion.db").read_bytes() == content


def test_a_newer_log_offers_the_backup_this_version_can_read(tmp_path: Path) -> None:
    """Issue 42: an update went back (or an older release was installed) after the newer one
    migrated the log: the screen offers the backup made before the migration; choosing it
    keeps the newer log aside and the table starts on the backup's games."""
    import sqlite3

    from companion.store.backup import make_backup
    from companion.transcript import dumps, export_game

    data = tmp_path / "data"
    data.mkdir()
    with GameLog(data / "companion.db") as log:
        session = GameSession.start(log, 4, SEATS)
        for _ in range(10):
            session.execute(session.legal_commands()[0])
        games = {g.id: dumps(export_game(log, g.id)) for g in log.games()}
    backup = make_backup(data / "companion.db", "update", from_version="1.0.0")
    with sqlite3.connect(data / "companion.db") as conn:
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at) "
            "values ('armata-companion', 'm099_from_the_future', '2030-01-01')"
        )
    conn.close()
    code, reports, out = app("restore", data, ARTIFACTS / "log-problem-backup")
    assert code == 0, out[-2000:]
    screen = reports[0]["screens"]["log-problem"]
    check_layout(screen)
    assert any(t.startswith("Backup of ") and backup.name in t for t in screen["texts"])
    assert reports[0]["pressed"] == "restore"
    [aside] = data.glob("companion.db.replaced-*")
    with sqlite3.connect(aside) as conn:
        found = conn.execute("select count(*) from _sqlite_migrations where name like 'm099%'")
        assert found.fetchone()[0] == 1
    conn.close()
    with GameLog(data / "companion.db", read_only=True) as log:
        assert {g.id: dumps(export_game(log, g.id)) for g in log.games()} == games
