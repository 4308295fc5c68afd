"""USB sticks from the touchscreen (issue 42, items 2-4), through the table service as the
screens call it: real SQLite logs with games, real archives, a temporary folder standing in as
the mounted stick (`usb=`), the worker's results posted back to the service's thread (a queue
pumped here, as Kivy's clock does)."""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

import pytest

from companion.app.devices.usb import BACKUP_FOLDER, Drive, folder_drives, mounted_drives
from companion.app.devices.voice import Silent
from companion.app.service import TableService, UsbOutcome
from companion.store.backup import backups
from companion.store.gamelog import GameLog
from tests.conftest import ROOT
from tests.support.processes import limit
from tests.support.standins.pi_releases import exports, play_games


class Table:
    """A service on `data` with the sticks in `sticks/`; `run` pumps its posted calls."""

    def __init__(self, data: Path, sticks: Path, **parts: object) -> None:
        self.posted: queue.Queue[Callable[[], None]] = queue.Queue()
        self.sticks = sticks
        self.service = TableService(
            data,
            self.posted.put,
            speaker=Silent(),
            usb=lambda: folder_drives(sticks),
            **parts,  # type: ignore[arg-type]
        )
        self.service.start()

    def run(self, action: Callable[[Callable[[UsbOutcome], None]], None]) -> UsbOutcome:
        told: list[UsbOutcome] = []
        action(told.append)
        end = time.monotonic() + limit(60)
        while not told:
            assert time.monotonic() < end, "no outcome"
            with contextlib.suppress(queue.Empty):
                self.posted.get(timeout=0.1)()
        assert not self.service.usb_busy
        return told[0]

    def close(self) -> None:
        self.service.close()


@pytest.fixture
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    play_games(data / "companion.db", 3)
    (tmp_path / "sticks" / "STICK").mkdir(parents=True)
    made = Table(data, tmp_path / "sticks")
    yield made
    made.close()


def test_the_mounted_sticks_are_read_from_the_mounts(tmp_path: Path) -> None:
    (tmp_path / "media/pi/MY STICK").mkdir(parents=True)
    (tmp_path / "media/pi/OLD").mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n"
        f"/dev/sda1 {tmp_path}/media/pi/MY\\040STICK vfat rw,nosuid 0 0\n"
        f"/dev/sdb1 {tmp_path}/media/pi/OLD vfat ro,nosuid 0 0\n"
        f"/dev/sdc1 {tmp_path}/media/pi/GONE vfat rw 0 0\n"
    )
    found = mounted_drives(mounts, (tmp_path / "media",))
    assert found == [
        Drive(tmp_path / "media/pi/MY STICK", False),
        Drive(tmp_path / "media/pi/OLD", True),
    ]
    assert found[0].name == "MY STICK"
    assert mounted_drives(tmp_path / "no-such-file") == []


def test_a_backup_to_the_stick_and_a_restore_from_it_give_back_every_game(
    table: Table,
) -> None:
    service, log = table.service, table.service.log.path
    before = exports(log)
    done = table.run(service.usb_backup)
    assert done.ok, done.text
    assert "STICK" in done.text and BACKUP_FOLDER in done.text
    [backup] = backups(table.sticks / "STICK" / BACKUP_FOLDER)
    assert exports(backup.path) == before
    # a game more on the table, then the stick's backup put back
    service.new_game(5)
    for _ in range(5):
        service.execute(service.session.legal_commands()[0])  # type: ignore[union-attr]
    assert len(exports(log)) == 4
    [choice] = service.usb_backups()
    assert choice.name.startswith("Backup of 20")  # a time, never the file's id
    done = table.run(lambda told: service.usb_restore(choice.path, told))
    assert done.ok, done.text
    assert service.session is None
    assert exports(log) == before  # byte-equal game exports
    assert [g.id for g in service.log.games()] == sorted(before, key=list(before).index)
    # the games it replaced are kept aside whole
    [aside] = log.parent.glob("companion.db.replaced-*")
    assert choice.name in done.text and "kept aside" in done.text
    assert len(exports(aside)) == 4
    assert service.resume() is not None  # the restored unfinished game plays on


def test_a_restore_that_asks_first_changes_nothing_until_it_is_answered_yes(
    table: Table,
) -> None:
    service, log = table.service, table.service.log.path
    assert table.run(service.usb_backup).ok
    backup = exports(log)
    service.new_game(5)  # a fourth game, not in the backup
    asked: list[tuple[int, Callable[[bool], None]]] = []

    def ask(games: int, answer: Callable[[bool], None]) -> None:
        asked.append((games, answer))
        answer(False)

    [choice] = service.usb_backups()
    told: list[UsbOutcome] = []
    service.usb_restore(choice.path, told.append, ask)
    end = time.monotonic() + limit(60)
    while not asked:
        assert time.monotonic() < end, "never asked"
        with contextlib.suppress(queue.Empty):
            table.posted.get(timeout=0.1)()
    assert asked[0][0] == 3 and told == []  # asked with the backup's games; "no": nothing
    assert len(exports(log)) == 4 and service.session is not None
    assert not list(log.parent.glob("companion.db.replaced-*"))
    done = table.run(lambda told: service.usb_restore(
        choice.path, told, lambda _games, answer: answer(True)))  # fmt: skip
    assert done.ok, done.text
    assert exports(log) == backup  # byte-equal game exports
    assert len(exports(next(log.parent.glob("companion.db.replaced-*")))) == 4


def test_backups_on_the_stick_rotate(table: Table) -> None:
    for _ in range(12):
        assert table.run(table.service.usb_backup).ok
    assert len(backups(table.sticks / "STICK" / BACKUP_FOLDER)) == 10


def test_import_from_the_stick_adds_games(table: Table, tmp_path: Path) -> None:
    service = table.service
    other = tmp_path / "other" / "companion.db"
    games = play_games(other, 2)
    stick = table.sticks / "STICK"
    with GameLog(other, read_only=True) as source:
        os.replace(other, stick / "their-games.db")  # a log brought on a stick
        first = source.games()[0].id
    (stick / "curse.json").write_bytes((ROOT / "tests/transcripts/curse.json").read_bytes())
    names = [c.name for c in service.usb_importable()]
    assert names == ["curse.json", "their-games.db"]
    count = len(service.log.games())
    done = table.run(lambda told: service.usb_import(stick / "their-games.db", told))
    assert done.ok and done.text.startswith("2 games imported from their-games.db"), done.text
    done = table.run(lambda told: service.usb_import(stick / "curse.json", told))
    assert done.ok and done.text.startswith("1 game imported from curse.json"), done.text
    assert len(service.log.games()) == count + 3
    added = exports(service.log.path)
    assert [added[k].split('"steps"')[1] for k in list(added)[count : count + 2]] == [
        games[k].split('"steps"')[1] for k in games
    ]
    assert first in games


def test_a_bad_file_or_a_missing_stick_changes_nothing(table: Table) -> None:
    service, log = table.service, table.service.log.path
    before = exports(log)
    stick = table.sticks / "STICK"
    (stick / "notes.json").write_text("{ not json at all")
    (stick / BACKUP_FOLDER).mkdir()
    fake = stick / BACKUP_FOLDER / "companion-manual-20260101T000000000000Z.db"
    fake.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    done = table.run(lambda told: service.usb_import(stick / "notes.json", told))
    assert not done.ok and "nothing was imported" in done.text, done.text
    done = table.run(lambda told: service.usb_restore(fake, told))
    assert not done.ok and "nothing was changed" in done.text, done.text
    done = table.run(lambda told: service.usb_restore(stick / "gone.db", told))
    assert not done.ok and "No USB stick was found" in done.text
    assert exports(log) == before
    assert list(log.parent.glob("companion.db.*")) == []
    stick.rename(table.sticks.parent / "pulled")  # taken out
    done = table.run(service.usb_backup)
    assert not done.ok and "No USB stick was found" in done.text
    done = table.run(service.usb_report)
    assert not done.ok and "No USB stick was found" in done.text


def test_a_read_only_stick_is_said_and_nothing_is_written(table: Table) -> None:
    stick = table.sticks / "STICK"
    table.service.usb_drives = lambda: [Drive(stick, read_only=True)]  # "ro" in the mounts
    done = table.run(table.service.usb_backup)
    assert not done.ok and "read-only" in done.text, done.text
    done = table.run(table.service.usb_report)
    assert not done.ok and "read-only" in done.text, done.text
    assert list(stick.iterdir()) == []


@contextlib.contextmanager
def full_stick(stick: Path) -> Iterator[None]:
    """A stick with 64 KiB of room: a real tmpfs where this may mount one (root), else the
    error a full drive gives (ENOSPC) from every copy onto it."""
    if os.geteuid() == 0 and shutil.which("mount"):
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(stick)],
                                 capture_output=True)  # fmt: skip
        if mounted.returncode == 0:
            try:
                yield
            finally:
                subprocess.run(["umount", str(stick)], check=True)
            return

    def full(*_a: object, **_k: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with (
        mock.patch("companion.app.devices.usb.shutil.copyfile", full),
        mock.patch("companion.store.backup._copy", full),
    ):
        yield


def test_a_full_stick_is_said_and_leaves_no_half_file(table: Table) -> None:
    stick = table.sticks / "STICK"
    with full_stick(stick):
        with contextlib.suppress(OSError), (stick / "photo.jpg").open("wb") as photo:
            for _ in range(16):  # the owner's file fills what is left, and stays
                photo.write(b"\xff" * 4096)
                photo.flush()
        done = table.run(table.service.usb_backup)
        assert not done.ok and "full" in done.text, done.text
        done = table.run(table.service.usb_report)
        assert not done.ok and "full" in done.text, done.text
        left = sorted(p.name for p in stick.rglob("*") if p.is_file())
        assert left == ["photo.jpg"] and (stick / "photo.jpg").stat().st_size > 0


def test_the_report_is_saved_on_the_stick_with_no_secret(table: Table) -> None:
    service = table.service
    service.settings.set("hotspot_credentials", {"name": "Armata-1234", "password": "kq7mw3xz9p"})
    seat = "s3cr3t-seat-token-abcdef0123456789"
    service.settings.set("seat_tokens", {seat: {"hero": "roel"}})
    done = table.run(service.usb_report)
    assert done.ok, done.text
    [archive] = (table.sticks / "STICK").glob("armata-report-*.tar.gz")
    assert archive.name in done.text
    with tarfile.open(archive) as packed:
        texts = {
            m.name.split("/", 1)[1]: packed.extractfile(m).read().decode()  # type: ignore[union-attr]
            for m in packed.getmembers()
            if m.isfile()
        }
    assert {"summary.txt", "settings.json", "game.json"} <= set(texts)
    for text in texts.values():
        assert "kq7mw3xz9p" not in text and seat not in text
    assert list((table.sticks / "STICK").glob(".*partial")) == []


def test_an_archive_that_is_no_release_installs_nothing(table: Table, tmp_path: Path) -> None:
    stick = table.sticks / "STICK"
    service = table.service
    (stick / "armata-companion-9.9.9.tar.gz").write_bytes(b"not a tar at all")
    tree = tmp_path / "armata-companion-9.9.8"
    (tree / "other").mkdir(parents=True)
    with tarfile.open(stick / "armata-companion-9.9.8.tar.gz", "w:gz") as packed:
        packed.add(tree, arcname=tree.name)
    assert [c.name for c in service.usb_releases()] == [
        "armata-companion-9.9.8.tar.gz", "armata-companion-9.9.9.tar.gz",
    ]  # fmt: skip
    for choice in service.usb_releases():
        done = table.run(lambda told, path=choice.path: service.usb_update(path, told))
        assert not done.ok and "not a release" in done.text, done.text
    assert not (service.data / "updates").exists()
