"""Issue 28, item 7: every bad invocation of `python -m companion` ends with one line naming
what is wrong (the file, and the field when there is one), a non-zero exit code, no traceback
and no hang. One table of bad invocations, each run as a real process with a time limit."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.app.session.game import GameSession
from companion.store.gamelog import GameLog
from tests.conftest import PYTHON, ROOT, SCENARIOS
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # one process per invocation


@dataclass(frozen=True)
class Bad:
    args: tuple[str, ...]  # {d} is the test's folder
    code: int
    words: tuple[str, ...]  # each in the error line ({d} replaced)
    stream: str = "stderr"  # scenario files that fail are reported on stdout, line by line


BAD = {
    "board show: not UTF-8": Bad(("board", "show", "{d}/latin1.json"), 2,
                                 ("{d}/latin1.json", "not UTF-8")),
    "board show: no such file": Bad(("board", "show", "{d}/missing.json"), 2,
                                    ("{d}/missing.json", "cannot read")),
    "board show: a folder": Bad(("board", "show", "{d}"), 2, ("cannot read {d}",)),
    "board show: not JSON": Bad(("board", "show", "{d}/text.json"), 2,
                                ("{d}/text.json is not JSON",)),
    "board show: nested too deeply": Bad(("board", "show", "{d}/deep.json"), 2,
                                         ("{d}/deep.json", "nested too deeply")),
    "board show: a bad field": Bad(("board", "show", "{d}/badboard.json"), 2,
                                   ("{d}/badboard.json", "layout.ladders[0].side")),
    "board show --state: a bad field": Bad(
        ("board", "show", "--state", "{d}/badstate.json"), 2,
        ("{d}/badstate.json", "state.heroes")),
    "board show --state: not UTF-8": Bad(("board", "show", "--state", "{d}/latin1.json"), 2,
                                         ("{d}/latin1.json", "not UTF-8")),
    "export --db: not a database": Bad(("export", "last", "--db", "{d}/text.json"), 3,
                                       ("{d}/text.json", "not an SQLite database")),
    "export --db: another program's database": Bad(
        ("export", "last", "--db", "{d}/other.sqlite"), 3,
        ("{d}/other.sqlite", "no record of its schema version")),
    "export --db: a folder": Bad(("export", "last", "--db", "{d}"), 5, ("{d}", "folder")),
    "export --db: no such file": Bad(("export", "last", "--db", "{d}/none.db"), 2,
                                     ("no game log at {d}/none.db",)),
    "export: no such game": Bad(("export", "abc", "--db", "{d}/good.db"), 2, ("no game 'abc'",)),
    "export -o: into a missing folder": Bad(
        ("export", "last", "--db", "{d}/good.db", "-o", "{d}/nowhere/x.json"), 2,
        ("cannot write {d}/nowhere/x.json", "no folder")),
    "export -o: onto a folder": Bad(("export", "last", "--db", "{d}/good.db", "-o", "{d}"), 2,
                                    ("cannot write {d}", "is a folder")),
    "serve --data: a file": Bad(("serve", "--data", "{d}/text.json", "--seconds", "1"), 5,
                                ("{d}/text.json", "no data folder")),
    "serve --data: a folder as the log": Bad(("serve", "--data", "{d}/logdir", "--seconds", "1"),
                                             5, ("{d}/logdir/companion.db", "folder")),
    "serve --seconds nan": Bad(("serve", "--seconds", "nan"), 2, ("--seconds", "finite")),
    "serve --seconds inf": Bad(("serve", "--seconds", "inf"), 2, ("--seconds", "finite")),
    "serve --seconds -1": Bad(("serve", "--seconds", "-1"), 2, ("--seconds", "0 or more")),
    "serve --seconds words": Bad(("serve", "--seconds", "soon"), 2, ("--seconds", "'soon'")),
    "sim --games -3": Bad(("sim", "--games", "-3"), 2, ("--games", "0 or more")),
    "sim --players 9": Bad(("sim", "--players", "9"), 2, ("--players",)),
    "scenario run: an empty folder": Bad(("scenario", "run", "{d}/empty"), 2,
                                         ("no scenario found in {d}/empty",)),
    "scenario run: not UTF-8": Bad(("scenario", "run", "{d}/latin1.json"), 1,
                                   ("ERROR {d}/latin1.json", "not JSON"), "stdout"),
    "scenario run: nested too deeply": Bad(("scenario", "run", "{d}/deep.json"), 1,
                                           ("ERROR {d}/deep.json",), "stdout"),
    "check: not a database": Bad(("check", "--db", "{d}/text.json"), 3,
                                 ("{d}/text.json", "not an SQLite database")),
    "check --full: a newer log": Bad(("check", "--full", "--db", "{d}/newer.db"), 4,
                                     ("{d}/newer.db", "m099_from_the_future")),
    "an unknown command": Bad(("fly",), 2, ("invalid choice",)),
    "export without a game": Bad(("export",), 2, ("GAME",)),
}  # fmt: skip


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    (d / "latin1.json").write_bytes(
        '{"format": "armata-board/1", "name": "Château"}'.encode("latin-1")
    )
    (d / "text.json").write_text("this is not JSON\n")
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    board = json.loads((SCENARIOS / "movement" / "basic.json").read_text())["board"]
    board["layout"]["ladders"][0]["side"] = 9
    (d / "badboard.json").write_text(json.dumps(board))
    (d / "badstate.json").write_text(json.dumps({"heroes": [{"hero": 5}]}))
    with sqlite3.connect(d / "other.sqlite") as conn:
        conn.execute("create table recipes (name text)")
    conn.close()
    with GameLog(d / "good.db") as log:
        session = GameSession.start(log, 2, [("roel", "L1"), ("matthew", "L2")])
        session.execute(session.legal_commands()[0])
    shutil.copy(d / "good.db", d / "newer.db")
    with sqlite3.connect(d / "newer.db") as conn:
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at) "
            "values ('armata-companion', 'm099_from_the_future', '2030-01-01')"
        )
    conn.close()
    (d / "empty").mkdir()
    (d / "logdir" / "companion.db").mkdir(parents=True)
    return d


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_invocation_is_one_line_with_an_exit_code(name: str, folder: Path) -> None:
    bad = BAD[name]
    args = [a.replace("{d}", str(folder)) for a in bad.args]
    done = subprocess.run(
        [PYTHON, "-m", "companion", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),  # a hang fails here
        env={**os.environ, "PYTHONPATH": str(ROOT), "ARMATA_DATA_DIR": str(folder / "data")},
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert done.returncode == bad.code, (done.returncode, done.stderr, done.stdout[-500:])
    text = done.stderr if bad.stream == "stderr" else done.stdout
    lines = [line for line in text.strip().splitlines() if line]
    if bad.stream == "stderr":
        assert len(lines) == 1, text
        assert lines[0].startswith("error: ")
    line = lines[0]
    for words in bad.words:
        assert words.replace("{d}", str(folder)) in line, (words, line)


def test_the_table_covers_the_failures_the_issue_names() -> None:
    """Issue 28 item 7 named these; each has a row."""
    for name in ("board show: not UTF-8", "board show --state: a bad field",
                 "export --db: not a database", "export --db: a folder",
                 "export -o: into a missing folder", "export -o: onto a folder",
                 "serve --data: a file", "serve --seconds nan",
                 "scenario run: an empty folder"):  # fmt: skip
        assert name in BAD
    assert shutil.which("setpriv") or os.geteuid() != 0  # the read-only tests' tool


def test_check_says_a_sound_log_is_sound(folder: Path) -> None:
    for how in ([], ["--full"]):
        done = subprocess.run(
            [PYTHON, "-m", "companion", "check", "--db", str(folder / "good.db"), *how],
            capture_output=True, text=True, cwd=ROOT, timeout=limit(60),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        check = "integrity_check" if how else "quick_check"
        assert done.stdout.strip() == f"{folder / 'good.db'}: sound ({check}), 1 game"
