"""Versions side by side and updates that roll back (issue 42, item 2), on a staged install
(tests/support/standins/pi_standins.py) with real releases made here
(tests/support/standins/pi_releases.py): each its own environment, compiled engine and
code; the game log a real SQLite file with several games.

The stand-in `systemctl restart` starts the unit as far as a test can: the current release's
`companion serve` on the real data folder (opening, and migrating, the log as the kiosk does)
and its screen's module (`import ui.app`)."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.app.session.update_news import UpdateNews, take_update_news
from tests.support.processes import limit
from tests.support.standins.pi_releases import (
    PACKAGES,
    compiled_engine,
    exports,
    install,
    make_archive,
    make_tree,
    play_games,
    release_python,
)
from tests.support.standins.pi_standins import StandIns, pi_root

pytestmark = pytest.mark.slow
OPT = Path("opt/armata-companion")


@dataclass
class Table:
    root: Path
    standins: StandIns
    engine: Path
    games: dict[str, str]  # the transcripts of the log's games before any update
    scratch: Path

    @property
    def log(self) -> Path:
        return self.root / "var/lib/armata-companion/companion.db"

    def archive(self, version: str, **faults: object) -> Path:
        tree = make_tree(self.scratch / f"tree-{version}", version, engine_from=self.engine,
                         **faults)  # type: ignore[arg-type]  # fmt: skip
        return make_archive(tree, self.scratch / "dist")

    def python(self, version: str) -> Path:
        return self.root / OPT / "releases" / version / ".venv/bin/python"

    def companion(self, version: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.python(version), "-m", "companion", *args],
            cwd=self.root / OPT / "releases" / version, env=self.standins.env(),
            capture_output=True, text=True, timeout=limit(600),
        )  # fmt: skip

    def update(self, archive: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [release_python(self.root), "-m", "companion", "update", str(archive),
             "--root", str(self.root), "--watch", "2", "--packages-from", str(PACKAGES)],
            cwd=self.root / OPT / "current", env=self.standins.env(),
            capture_output=True, text=True, timeout=limit(900),
        )  # fmt: skip

    def current(self) -> str:
        return (self.root / OPT / "current").readlink().name

    def migrations(self, path: Path) -> set[str]:
        with sqlite3.connect(path) as db:
            found = {r[0] for r in db.execute("select name from _sqlite_migrations")}
        db.close()
        return found


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """Release 1.0.0 installed, its game log with three games, the unit's start stood in."""
    engine = compiled_engine(tmp_path)
    tree = make_tree(tmp_path / "tree-1.0.0", "1.0.0", engine_from=engine)
    standins = StandIns(tmp_path / "bin")
    root = pi_root(tmp_path / "root")
    done = install(tree, root, standins)
    assert done.returncode == 0, done.stderr
    data = root / "var/lib/armata-companion"
    games = play_games(data / "companion.db")
    python = shlex.quote(str(release_python(root)))
    current = shlex.quote(str(root / OPT / "current"))
    start = (  # as the unit: in WorkingDirectory=/opt/armata-companion/current
        f"cd {current} && {python} -m companion serve --data {shlex.quote(str(data))} "
        f"--seconds 1 --silent --web off && {python} -c 'import ui.app'"
    )
    standins.update(start=["sh", "-c", start])
    return Table(root, standins, engine, games, tmp_path)


def test_an_update_installs_beside_checks_switches_and_keeps_the_old(table: Table) -> None:
    done = table.update(table.archive("1.1.0"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert table.current() == "1.1.0"
    assert (table.root / OPT / "previous").readlink() == Path("releases/1.0.0")
    said = table.companion("1.1.0", "--version")
    assert said.stdout.strip() == "armata-companion 1.1.0"
    status = table.companion("1.1.0", "native", "status")
    assert status.stdout.strip().endswith("compiled")  # carried over: the same engine
    [backup] = (table.log.parent / "backups").glob("companion-update-*-from-1.0.0.db")
    assert exports(backup) == table.games == exports(table.log)
    calls = table.standins.calls()
    stop = calls.index(["systemctl", "stop", "armata-companion.service"])
    assert ["systemctl", "restart", "armata-companion.service"] in calls[stop:]
    assert "version 1.1.0 is running" in done.stdout
    # what the new version's touchscreen says once as it starts (the record it found)
    assert take_update_news(table.log.parent) == UpdateNews("updated", "1.1.0", "1.0.0")
    assert take_update_news(table.log.parent) is None


def test_a_release_that_fails_its_check_is_never_switched_to(table: Table) -> None:
    done = table.update(table.archive("1.2.0", migration=True, broken="check"))
    assert done.returncode == 1
    assert "failed its check (sim)" in done.stdout and "this release cannot play" in done.stdout
    assert table.current() == "1.0.0"
    assert not (table.root / OPT / "releases/1.2.0").exists()
    # checked on a copy: the log never migrated, nothing kept aside, every game as it was
    assert "m900_table_notes" not in table.migrations(table.log)
    assert list(table.log.parent.glob("companion.db.*")) == []
    assert exports(table.log) == table.games
    assert table.standins.state["units"]["armata-companion.service"]["active"]
    assert take_update_news(table.log.parent) == UpdateNews("refused", "1.2.0", "1.0.0")


def test_a_release_that_does_not_come_up_is_rolled_back_with_the_log_intact(
    table: Table,
) -> None:
    done = table.update(table.archive("2.0.0", migration=True, broken="start"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "going back to 1.0.0" in done.stdout
    assert table.current() == "1.0.0"
    # the new version migrated the log as it started; the old one got the backup back
    [aside] = table.log.parent.glob("companion.db.replaced-*")
    assert "m900_table_notes" in table.migrations(aside)
    assert "m900_table_notes" not in table.migrations(table.log)
    assert exports(table.log) == table.games
    assert table.companion("1.0.0", "check", "--db", str(table.log)).returncode == 0
    assert table.standins.state["units"]["armata-companion.service"]["active"]
    news = take_update_news(table.log.parent)  # what 1.0.0's touchscreen says as it starts
    assert news == UpdateNews("rolled_back", "2.0.0", "1.0.0")
    assert "the table went back to 1.0.0 by itself" in news.lines()[0]


def test_an_older_version_offers_the_backup_made_before_the_migration(table: Table) -> None:
    done = table.update(table.archive("1.1.0", migration=True))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "m900_table_notes" in table.migrations(table.log)  # the new version's start
    # the owner goes back to 1.0.0 by hand: it finds the log too new and names the backup
    refused = table.companion("1.0.0", "check", "--db", str(table.log))
    assert refused.returncode == 4
    [backup] = (table.log.parent / "backups").glob("companion-update-*-from-1.0.0.db")
    assert f"python -m companion restore {backup}" in refused.stderr
    restored = table.companion("1.0.0", "restore", "--db", str(table.log))
    assert restored.returncode == 0, restored.stderr
    assert str(backup) in restored.stdout
    assert table.companion("1.0.0", "check", "--db", str(table.log)).returncode == 0
    assert exports(table.log) == table.games
    [aside] = table.log.parent.glob("companion.db.replaced-*")
    assert "m900_table_notes" in table.migrations(aside)
