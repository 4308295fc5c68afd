"""The report a user can send (issue 42, item 4): `python -m companion report` on a staged Pi
(real game log, real broker files from provision.py, the journal and systemd stood in) writes
one archive with the version, the system, the settings, the journal's lines, the health and
the current game; every password, token and key planted in the settings, the options, the
broker's files and the journal's lines is gone from every member. And the app's log: Kivy's
lines on standard error (the journal), a repeated line held back."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from companion.logs import RepeatLimit
from companion.store.gamelog import GameLog
from companion.store.settings import Settings
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit
from tests.support.standins.pi_releases import play_games
from tests.support.standins.pi_standins import StandIns

HOTSPOT_PASSWORD = "Hotspot-Secret-4242"
SEAT_TOKEN = "TokenSecretAbcdef123456"
ENV_PASSWORD = "EnvSecret-998877"
ENV_TOKEN = "tok-123456789xyz"


@pytest.mark.slow
def test_the_report_carries_the_table_and_no_secret(tmp_path: Path) -> None:
    root = tmp_path / "root"
    data = root / "var/lib/armata-companion"
    games = play_games(data / "companion.db", 2)
    with GameLog(data / "companion.db") as log:
        settings = Settings(log.db)
        settings.set("language", "de")
        settings.set("hotspot_credentials", {"name": "Armata-7Q2K", "password": HOTSPOT_PASSWORD})
        settings.set("seat_tokens", {"active": {SEAT_TOKEN: ["g1", "roel"]}, "ended": {}})
    broker = root / "etc/mosquitto/armata"
    provisioned = subprocess.run(
        [PYTHON, "-m", "hardware.mosquitto.provision", "--out", str(broker), "--table", "t1",
         "--run-as", ""],
        cwd=ROOT, capture_output=True, text=True, timeout=limit(60),
    )  # fmt: skip
    assert provisioned.returncode == 0, provisioned.stderr
    credentials = json.loads((broker / "credentials.json").read_text())
    broker_passwords = list(credentials["users"].values())
    (root / "etc/armata").mkdir(parents=True)
    (root / "etc/armata/credentials.json").write_text(json.dumps(credentials))
    (root / "etc/default").mkdir(parents=True)
    (root / "etc/default/armata-companion").write_text(
        "ARMATA_UI_ARGS=--nodes mqtt --mqtt 127.0.0.1:1883 --table t1 "
        "--credentials /etc/armata/credentials.json\n"
        f'MQTT_PASSWORD={ENV_PASSWORD}\nAPI_TOKEN="{ENV_TOKEN}"\nSDL_KMSDRM_DEVICE_INDEX=1\n'
    )
    standins = StandIns(tmp_path / "bin")
    standins.update(journal=[
        "2026-11-28T20:00:01+0000 pi python[812]: INFO ui: the table started",
        f"2026-11-28T20:01:02+0000 pi python[812]: INFO ui.web: phone link for Roel: "
        f"http://10.42.0.1:8421/seat/{SEAT_TOKEN}",
        f"2026-11-28T20:02:03+0000 pi python[812]: INFO hotspot: Armata-7Q2K {HOTSPOT_PASSWORD}",
        f"2026-11-28T20:03:04+0000 pi python[812]: WARNING mqtt: app.t1 {broker_passwords[0]}",
    ])  # fmt: skip
    env = {k: v for k, v in standins.env().items() if k != "ARMATA_DATA_DIR"}
    done = subprocess.run(
        [PYTHON, "-m", "companion", "report", "--root", str(root), "--out", str(tmp_path / "out")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=limit(120),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    archive = Path(done.stdout.strip())
    with tarfile.open(archive) as packed:
        members = {
            Path(m.name).name: packed.extractfile(m).read()  # type: ignore[union-attr]
            for m in packed.getmembers()
        }
    secrets = [HOTSPOT_PASSWORD, SEAT_TOKEN, ENV_PASSWORD, ENV_TOKEN, *broker_passwords]
    hashes = [line.split(":", 1)[1] for line in (broker / "passwd").read_text().splitlines()]
    for name, content in members.items():
        for secret in [*secrets, *hashes]:
            assert secret.encode() not in content, f"{secret!r} is in {name}"
    texts = {name: content.decode() for name, content in members.items()}
    assert set(texts) == {"summary.txt", "settings.json", "options.txt", "broker.txt",
                          "health.txt", "journal.txt", "game.json"}  # fmt: skip
    from companion.version import version

    assert f"armata-companion {version()}" in texts["summary.txt"]
    assert "python: 3." in texts["summary.txt"] and "os: " in texts["summary.txt"]
    settings_shown = json.loads(texts["settings.json"])
    assert settings_shown["language"] == "de"
    assert settings_shown["hotspot_credentials"] == settings_shown["seat_tokens"] == "<removed>"
    assert "MQTT_PASSWORD=<removed>" in texts["options.txt"]
    assert "SDL_KMSDRM_DEVICE_INDEX=1" in texts["options.txt"]
    assert "allow_anonymous false" in texts["broker.txt"]
    assert "the table started" in texts["journal.txt"]
    assert "http://10.42.0.1:8421/seat/<removed>" in texts["journal.txt"]
    assert "game log: sound, 2 games" in texts["health.txt"]
    assert "ActiveState=" in texts["health.txt"]
    assert json.loads(texts["game.json"])["format"] == "armata-transcript/1"
    assert json.loads(texts["game.json"])["name"] in {json.loads(g)["name"] for g in games.values()}
    assert ["journalctl", "-u", "armata-companion.service", "--since", "-6h", "--no-pager",
            "-o", "short-iso"] in standins.calls()  # fmt: skip


def test_a_repeated_line_is_held_back_and_counted() -> None:
    now = [0.0]
    limit_ = RepeatLimit(burst=3, window_s=60, clock=lambda: now[0])

    def record(message: str, name: str = "ui") -> logging.LogRecord:
        return logging.LogRecord(name, logging.WARNING, __file__, 1, message, None, None)

    passed = [limit_.filter(record("node %s is late")) for _ in range(10)]
    assert passed == [True] * 3 + [False] * 7
    other = record("another line")
    assert limit_.filter(other) and "7 repeated lines held back" in str(other.msg)
    now[0] = 61.0  # a new minute: the line is written again
    assert limit_.filter(record("node %s is late"))


@pytest.mark.slow
def test_kivys_lines_go_to_standard_error_not_to_files(tmp_path: Path) -> None:
    """As the unit starts the app (KIVY_LOG_MODE=PYTHON): Kivy's logger and the app's reach
    standard error (the journal), bounded, and no log file is written under ~/.kivy."""
    script = (
        "from ui.__main__ import log_as_the_unit_says; log_as_the_unit_says()\n"
        "from kivy.logger import Logger\n"
        "for n in range(50): Logger.warning('Board: node late')\n"
        "import logging; logging.getLogger('companion.app').info('the table started')\n"
    )
    env = {
        **os.environ,
        "KIVY_LOG_MODE": "PYTHON",
        "HOME": str(tmp_path),
        "KIVY_HOME": str(tmp_path / ".kivy"),
    }
    done = subprocess.run(
        [PYTHON, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=limit(60),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert sum("node late" in line for line in lines) == 5  # companion/logs.py: BURST
    assert any("the table started" in line and "held back" in line for line in lines)
    assert not list(tmp_path.rglob("*.txt"))  # Kivy's own log files
