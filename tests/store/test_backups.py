"""Backups of the game log (issue 42, item 3): SQLite's online backup API beside the log,
rotating and bounded; `python -m companion backup` and `restore` (real subprocesses on a real
log with several games: the games' exports byte for byte the same after the round trip), the
backup after a finished game, and `import` from a backup, a game export and a transcript."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.app.devices.voice import Silent
from companion.store.backup import MAX_BYTES, backups, due, make_backup, prune
from companion.store.gamelog import GameLog
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit
from tests.support.standins.pi_releases import exports, play_games


def played(transcripts: dict[str, str]) -> list[str]:
    """The games' setups and steps, without their names (an imported game's id and time)."""
    return sorted(
        json.dumps({k: v for k, v in json.loads(t).items() if k != "name"})
        for t in transcripts.values()
    )


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "companion", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=limit(120),
    )  # fmt: skip


@pytest.mark.slow
def test_backup_and_restore_give_back_every_game_byte_for_byte(tmp_path: Path) -> None:
    log = tmp_path / "companion.db"
    games = play_games(log, 4)
    assert len(games) == 4
    made = companion("backup", "--db", str(log))
    assert made.returncode == 0, made.stderr
    backup = Path(made.stdout.strip())
    assert backup.parent == tmp_path / "backups" and backup.name.startswith("companion-manual-")
    # the table plays on, then the log is lost to a bad SD card
    with GameLog(log) as open_log:
        open_log.db.execute("delete from events where seq > 5")
        open_log.db.conn.commit()
    log.write_bytes(b"\0" * 4096)
    restored = companion("restore", "--db", str(log))  # the newest backup it can read
    assert restored.returncode == 0, restored.stderr
    assert str(backup) in restored.stdout
    assert exports(log) == games
    [aside] = tmp_path.glob("companion.db.replaced-*")
    assert aside.read_bytes() == b"\0" * 4096  # kept, never deleted
    listed = companion("backup", "--list", "--db", str(log))
    assert str(backup) in listed.stdout and "manual" in listed.stdout


def test_backups_rotate_per_kind_and_stay_under_their_size(tmp_path: Path) -> None:
    log = tmp_path / "companion.db"
    GameLog(log).close()
    for _ in range(12):
        make_backup(log, "game")
    make_backup(log, "update", from_version="0.1.0")
    found = backups(tmp_path / "backups")
    assert [b.kind for b in found].count("game") == 10  # KEEP["game"]
    assert found[0].kind == "update" and found[0].from_version == "0.1.0"
    size = found[0].size
    removed = prune(tmp_path / "backups", max_bytes=size * 3)
    left = backups(tmp_path / "backups")
    assert len(left) == 3 and len(removed) == 8
    assert left[0].kind == "update"  # the newest stays, the oldest went first
    assert sum(b.size for b in left) <= max(size * 3, MAX_BYTES)


def test_the_daily_backup_is_made_once_a_day(tmp_path: Path) -> None:
    log = tmp_path / "companion.db"
    GameLog(log).close()
    folder = tmp_path / "backups"
    assert due(folder, "daily", timedelta(hours=20))
    make_backup(log, "daily")
    assert not due(folder, "daily", timedelta(hours=20))
    assert due(folder, "daily", timedelta(0))
    [daily] = backups(folder)
    assert datetime.now(UTC) - daily.made < timedelta(minutes=5)


@pytest.mark.slow
def test_the_daily_command_skips_a_recent_backup(tmp_path: Path) -> None:
    log = tmp_path / "companion.db"
    GameLog(log).close()
    first = companion("backup", "--daily", "--db", str(log))
    second = companion("backup", "--daily", "--db", str(log))
    assert first.returncode == second.returncode == 0
    assert "companion-daily-" in first.stdout and "recent" in second.stdout
    assert len(backups(tmp_path / "backups")) == 1


@pytest.mark.slow
def test_a_finished_game_is_backed_up(tmp_path: Path) -> None:
    from companion.app.service import TableService

    posted: list[Callable[[], None]] = []
    service = TableService(tmp_path, posted.append, speaker=Silent())
    try:
        service.start()
        session = service.new_game(3)
        rng = random.Random(3)
        for _ in range(3000):
            if session.state.phase == "over":
                break
            assert not backups(tmp_path / "backups")  # none while the game goes on
            service.execute(rng.choice(session.legal_commands()))
            while posted:
                posted.pop(0)()
        assert session.state.phase == "over"
    finally:
        service.close()
    [backup] = backups(tmp_path / "backups")
    assert backup.kind == "game"
    assert exports(backup.path) == exports(tmp_path / "companion.db")


@pytest.mark.slow
def test_import_adds_games_from_a_backup_an_export_and_a_transcript(tmp_path: Path) -> None:
    old = tmp_path / "old" / "companion.db"
    games = play_games(old, 2)
    backup = make_backup(old, "manual")
    log = tmp_path / "new" / "companion.db"
    done = companion("import", str(backup), "--db", str(log))
    assert done.returncode == 0, done.stderr
    assert played(exports(log)) == played(games)
    # one game as armata-game/1 lines, as GameLog.export_jsonl writes it
    first = sorted(games)[0]
    with GameLog(old, read_only=True) as source:
        (tmp_path / "game.jsonl").write_text("\n".join(source.export_jsonl(first)) + "\n")
    done = companion("import", str(tmp_path / "game.jsonl"), "--db", str(log))
    assert done.returncode == 0, done.stderr
    assert played(exports(log)).count(played({first: games[first]})[0]) == 2
    # a transcript in the players' words, replayed and stored: its export replays alike
    transcript = ROOT / "tests" / "transcripts" / "curse.json"
    done = companion("import", str(transcript), "--db", str(log))
    assert done.returncode == 0, done.stderr
    new_id = done.stdout.split()[-1]
    exported = tmp_path / "again.json"
    again = companion("export", new_id, "--db", str(log), "-o", str(exported))
    assert again.returncode == 0, again.stderr
    replayed = companion("replay", str(exported))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


@pytest.mark.slow
def test_a_transcript_that_does_not_replay_is_not_imported(tmp_path: Path) -> None:
    transcript = json.loads((ROOT / "tests" / "transcripts" / "curse.json").read_text())
    transcript["steps"].append({"play": "no such card"})
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(transcript))
    log = tmp_path / "companion.db"
    done = companion("import", str(broken), "--db", str(log))
    assert done.returncode == 2 and "not imported" in done.stderr
    with GameLog(log, read_only=True) as stored:
        assert stored.games() == []  # all or nothing
