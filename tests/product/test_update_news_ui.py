"""How the last update ended, said once as the table starts (issue 42): the update's own
`record` (companion/product/update.py) writes the outcome into a staged data folder, the Kivy
app starts on it under Xvfb and opens on a page saying it in the players' language; OK leads
on to Home and the outcome is never said again. The outcomes of real updates are checked in
tests/product/test_pi_update.py. Screenshots in tests/artifacts/update-news/."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.product.releases import Installed
from companion.product.update import LAST_UPDATE, Outcome, record
from tests.conftest import PYTHON, ROOT
from tests.support.processes import run_group

pytestmark = pytest.mark.slow  # the app under Xvfb in a subprocess, ~15 s

ARTIFACTS = ROOT / "tests" / "artifacts" / "update-news"
CHECKS = ("overflow", "small_targets", "small_texts", "broken_words", "cut_texts", "outside_box")


def run_news(data: Path) -> dict[str, Any]:
    assert shutil.which("xvfb-run"), "xvfb-run missing: run ./setup.sh test"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    command = [PYTHON, "-m", "tests.ui_driver", "--size", "800x480",
               "--script", "update-news", "--out", str(ARTIFACTS)]  # fmt: skip
    done = run_group(["xvfb-run", "-a", "-s", "-screen 0 800x480x24", *command], 180,
                     cwd=ROOT, env={**os.environ, "ARMATA_DATA_DIR": str(data)})  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    [report] = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert "error" not in report, report["error"]
    return report


def test_a_rolled_back_update_is_said_once_as_the_table_starts(tmp_path: Path) -> None:
    installed = Installed(tmp_path / "root")
    record(installed, "1.3.2", Outcome("1.4.0", True, True, None, "restarted 5 times"))
    report = run_news(installed.data)
    news = report["news"]
    assert news["screen"] == "confirm"
    assert news["title"] == "The update to 1.4.0 did not work"
    said = " ".join(news["texts"])
    assert "Version 1.4.0 did not start; the table went back to 1.3.2 by itself." in said
    assert "Save a report to a USB stick" in said
    assert news["after"] == "home" and news["again"] is False
    assert not (installed.data / LAST_UPDATE).exists()
    for name, screen in report["screens"].items():
        for check in CHECKS:
            assert screen[check] == [], (name, check, screen[check])
