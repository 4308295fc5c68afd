"""The USB stick buttons by touch (issue 42): the Kivy app under Xvfb with a temporary folder
as the mounted stick (`ARMATA_USB_ROOT`), a real game log: Settings backs up onto the stick,
restores from it (a second game played meanwhile; one tap on the backup only asks, "keep"
changes nothing, "restore" gives back the backup's games byte for byte) and imports a
transcript from it; Hardware saves the report onto it. Each
outcome is said in the players' language with every layout check clean. Screenshots in
tests/artifacts/usb/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from companion.store.backup import backups
from tests.conftest import PYTHON, ROOT
from tests.support.processes import run_group
from tests.support.standins.pi_releases import exports

pytestmark = pytest.mark.slow  # the app under Xvfb in a subprocess, ~30 s a language

ARTIFACTS = ROOT / "tests" / "artifacts" / "usb"
CHECKS = ("overflow", "small_targets", "small_texts", "broken_words", "cut_texts", "outside_box")


def run_usb(tmp_path: Path, language: str) -> tuple[dict[str, Any], Path]:
    assert shutil.which("xvfb-run"), "xvfb-run missing: run ./setup.sh test"
    stick = tmp_path / "sticks" / "STICK"
    stick.mkdir(parents=True)
    shutil.copy(ROOT / "tests/transcripts/curse.json", stick)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    command = [PYTHON, "-m", "tests.ui_driver", "--size", "800x480",
               "--script", "usb", language, "--out", str(ARTIFACTS)]  # fmt: skip
    env = {**os.environ, "ARMATA_DATA_DIR": str(tmp_path / "data"),
           "ARMATA_USB_ROOT": str(stick.parent)}  # fmt: skip
    done: subprocess.CompletedProcess[str] = run_group(
        ["xvfb-run", "-a", "-s", "-screen 0 800x480x24", *command], 240, cwd=ROOT, env=env
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    [report] = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert "error" not in report, report["error"]
    return report, stick


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("backed up on the USB stick STICK", "Restored: Backup of 20",
                "1 game imported from curse.json", "The report is saved on the USB stick STICK",
                "Backup of 20", "holds 1 game. It replaces the games saved on the table now.",
                "Nothing was restored.")),
        ("de", ("auf dem USB-Stick STICK gesichert", "Wiederhergestellt: Sicherung vom 20",
                "1 Spiel aus curse.json importiert", "auf dem USB-Stick STICK gespeichert",
                "Sicherung vom 20", "enthält 1 Spiel. Es ersetzt die jetzt auf dem Tisch",
                "Es wurde nichts wiederhergestellt.")),
    ],
)  # fmt: skip
def test_the_usb_stick_by_touch(tmp_path: Path, language: str, words: tuple[str, ...]) -> None:
    report, stick = run_usb(tmp_path, language)
    said = report["usb"]
    names = ("backup", "restore", "import", "report", "question", "question", "kept")
    for name, expected in zip(names, words, strict=True):
        assert expected in said[name], (name, said[name])
    # the restore: a tap on the backup asks and changes nothing, nor does "keep"; "restore"
    # puts the backup's games back, byte-equal, the game played after the backup gone
    assert report["games"] == {"before": 2, "asked": 2, "kept": 2, "restored": 1}
    [backup] = backups(stick / "armata-backups")
    assert report["restored_exports"] == exports(backup.path)
    for name, screen in report["screens"].items():
        for check in CHECKS:
            assert screen[check] == [], (name, check, screen[check])
    assert len(backups(stick / "armata-backups")) == 1
    assert len(list(stick.glob("armata-report-*.tar.gz"))) == 1
    assert list((tmp_path / "data").glob("companion.db.replaced-*"))
