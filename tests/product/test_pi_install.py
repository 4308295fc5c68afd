"""The product install (issue 42, item 1): `hardware/pi/install.sh` into a staging folder with
stand-ins for the commands that cannot run here (standins/pi_standins.py); the environment, the
compiled engine and the translations are real. Installed twice (nothing changes the second
time), and removed (the game log stays)."""

from __future__ import annotations

import configparser
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from hardware.pi.install import debian
from tests.support.processes import limit
from tests.support.standins.pi_releases import (
    install,
    keep_engine,
    make_tree,
    release_python,
    snapshot,
)
from tests.support.standins.pi_standins import StandIns, pi_root

pytestmark = pytest.mark.slow
OPT = Path("opt/armata-companion")


@dataclass
class Staged:
    tree: Path
    root: Path
    standins: StandIns
    done: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> Staged:
    """One install from a fresh tree (the engine compiled here: ~2 minutes)."""
    base = tmp_path_factory.mktemp("pi-install")
    tree = make_tree(base / "armata-companion-1.0.0", "1.0.0")
    standins = StandIns(base / "bin")
    root = pi_root(base / "root")
    done = install(tree, root, standins)
    assert done.returncode == 0, done.stderr
    keep_engine(root / OPT / "current")  # the update tests start from it
    return Staged(tree, root, standins, done)


def installed_packages(calls: list[list[str]]) -> list[str]:
    return [
        name
        for call in calls
        if call[:2] == ["apt-get", "install"]
        for name in call[2:]
        if not name.startswith("-")
    ]


def test_the_install_places_the_release_its_unit_and_its_user(staged: Staged) -> None:
    root, calls = staged.root, staged.standins.calls()
    release = root / OPT / "releases" / "1.0.0"
    assert (root / OPT / "current").readlink() == Path("releases/1.0.0")
    assert (release / ".armata-release").is_file()
    said = subprocess.run(
        [release_python(root), "-m", "companion", "--version"],
        cwd=root / OPT / "current", capture_output=True, text=True, timeout=limit(60),
    )  # fmt: skip
    assert said.stdout.strip() == "armata-companion 1.0.0", said.stderr
    # compiled at install time: the engine (mypyc) and every language's catalog
    status = subprocess.run(
        [release_python(root), "-m", "companion", "native", "status"],
        cwd=release, capture_output=True, text=True, timeout=limit(60),
    )  # fmt: skip
    assert status.stdout.strip().endswith("compiled"), status.stdout
    compiled = release / "companion/app/words/locale-compiled"
    catalogs = sorted(p.parts[-3] for p in compiled.rglob("*.mo"))
    assert catalogs == ["de", "en", "fr", "it"]
    # the unit: the current release, open files, the journal, no blanking; enabled and started
    unit_file = root / "etc/systemd/system/armata-companion.service"
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(unit_file)
    service = unit["Service"]
    assert service["WorkingDirectory"] == "/opt/armata-companion/current"
    assert service["ExecStart"].startswith("/opt/armata-companion/current/.venv/bin/python -m ui")
    assert int(service["LimitNOFILE"]) >= 4096
    assert service["StandardError"] == "journal" and "LogRateLimitBurst" in service
    assert "setterm --blank 0" in service["ExecStartPre"]
    assert "consoleblank=0" in (root / "boot/firmware/cmdline.txt").read_text().split()
    assert (root / "etc/systemd/system/armata-companion-backup.timer").is_file()
    journald = root / "etc/systemd/journald.conf.d/armata-companion.conf"
    assert "SystemMaxUse=" in journald.read_text()
    defaults = (root / "etc/default/armata-companion").read_text()
    assert "SDL_KMSDRM_DEVICE_INDEX=1" in defaults and "KIVY_METRICS_DENSITY=1.5" in defaults
    assert ["systemctl", "enable", "armata-companion.service"] in calls
    assert ["systemctl", "restart", "armata-companion.service"] in calls
    # the user, with the groups this system has (no netdev here), and its data folder
    [useradd] = [c for c in calls if c[0] == "useradd"]
    assert useradd[-1] == "armata" and "--system" in useradd
    assert staged.standins.state["users"]["armata"] == [
        "armata", "video", "render", "input", "dialout", "audio", "gpio"
    ]  # fmt: skip
    assert (root / "var/lib/armata-companion/backups").is_dir()
    assert ["chown", "armata:armata", str(root / "var/lib/armata-companion")] in calls


def test_the_install_takes_only_the_tables_packages_from_this_release(staged: Staged) -> None:
    calls = staged.standins.calls()
    packages = installed_packages(calls)
    assert "libmtdev1t64" in packages and "libmtdev1" not in packages  # trixie's name
    assert {"espeak-ng", "libgl1", "python3-venv", "gcc", "python3-dev"} <= set(packages)
    assert not set(packages) & set(debian.NEVER), packages  # no browser, no Xvfb, no QR reader
    assert "mosquitto" not in packages  # only with --mosquitto
    # nothing from another release: no sources added, no target release, no 2.1 fetched
    apt = [c for c in calls if c[0] in ("apt-get", "apt-cache")]
    assert not any(a in ("-t", "--target-release") or "unstable" in a for c in apt for a in c)
    assert not (staged.root / "etc/apt").exists()
    assert "fetch-2.1" not in staged.done.stderr
    assert not (staged.root / "var/cache/armata-mosquitto-2.1").exists()
    # no test tools in the table's environment, no tests in its release
    release = staged.root / OPT / "current"
    for tool in ("pytest", "hypothesis", "selenium", "ruff", "xdist"):
        tried = subprocess.run(
            [release_python(staged.root), "-c", f"import {tool}"],
            cwd=release, capture_output=True, text=True, timeout=limit(60),
        )  # fmt: skip
        assert tried.returncode != 0, f"{tool} is importable in the release's environment"
    assert not (release / "tests").exists() and not (release / "benchmarks").exists()


def test_a_second_install_changes_nothing(staged: Staged) -> None:
    before = snapshot(staged.root)
    calls_before = len(staged.standins.calls())
    again = install(staged.tree, staged.root, staged.standins)
    assert again.returncode == 0, again.stderr
    assert snapshot(staged.root) == before
    assert "nothing to change" in again.stderr
    acting = [
        c
        for c in staged.standins.calls()[calls_before:]
        if c[:2] in (["apt-get", "install"], ["apt-get", "update"])
        or c[0] in ("useradd", "usermod", "chown")
        or (c[0] == "systemctl" and c[1] in ("enable", "restart", "start", "daemon-reload"))
    ]
    assert acting == []


def test_bookworm_gets_its_own_library_names(tmp_path: Path, staged: Staged) -> None:
    tree = make_tree(tmp_path / "tree", "1.0.0", engine_from=staged.root / OPT / "current")
    standins = StandIns(tmp_path / "bin", codename="bookworm")
    root = pi_root(tmp_path / "root", "bookworm")
    done = install(tree, root, standins, "--release-only")
    assert done.returncode == 0, done.stderr
    assert installed_packages(standins.calls()) == []  # --release-only: the release alone
    assert (root / OPT / "releases/1.0.0/.armata-release").is_file()
    assert not (root / OPT / "current").exists()
    done = install(tree, root, standins)
    assert done.returncode == 0, done.stderr
    packages = installed_packages(standins.calls())
    assert "libmtdev1" in packages and "libmtdev1t64" not in packages


def test_uninstall_removes_the_program_and_keeps_the_games(tmp_path: Path, staged: Staged) -> None:
    tree = make_tree(tmp_path / "tree", "1.0.0", engine_from=staged.root / OPT / "current")
    standins = StandIns(tmp_path / "bin")
    root = pi_root(tmp_path / "root")
    first = install(tree, root, standins)
    assert first.returncode == 0, first.stderr
    assert "carried the compiled engine over from armata-companion" not in first.stderr
    assert "carried the compiled engine over from tree" in first.stderr  # the clone's own build
    data = root / "var/lib/armata-companion"
    with sqlite3.connect(data / "companion.db") as db:
        db.execute("create table kept (game text)")
        db.execute("insert into kept values ('a whole evening')")
    db.close()
    (data / "backups" / "companion-game-20260101T000000Z.db").write_bytes(b"a backup")
    kept = snapshot(data)
    done = install(tree, root, standins, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert not (root / OPT).exists()
    assert not (root / "etc/systemd/system/armata-companion.service").exists()
    assert not (root / "etc/systemd/system/armata-companion-backup.timer").exists()
    assert "consoleblank=0" not in (root / "boot/firmware/cmdline.txt").read_text()
    assert snapshot(data) == kept
    assert (root / "etc/default/armata-companion").is_file()  # the owner's options stay
    assert [c for c in standins.calls() if c[:2] == ["systemctl", "disable"]]


def test_mosquitto_is_set_up_once_with_provision(tmp_path: Path, staged: Staged) -> None:
    tree = make_tree(tmp_path / "tree", "1.0.0", engine_from=staged.root / OPT / "current")
    standins = StandIns(tmp_path / "bin")
    root = pi_root(tmp_path / "root")
    done = install(tree, root, standins, "--mosquitto", "t1")
    assert done.returncode == 0, done.stderr
    assert {"mosquitto", "openssl"} <= set(installed_packages(standins.calls()))
    credentials = root / "etc/armata/credentials.json"
    assert credentials.stat().st_mode & 0o777 == 0o600
    assert "app.t1" in credentials.read_text()
    assert (root / "etc/systemd/system/mosquitto.service.d/armata.conf").is_file()
    defaults = (root / "etc/default/armata-companion").read_text()
    assert "ARMATA_UI_ARGS=--nodes mqtt --mqtt 127.0.0.1:1883 --table t1" in defaults
    assert ["systemctl", "restart", "mosquitto.service"] in standins.calls()
    before = snapshot(root)
    again = install(tree, root, standins, "--mosquitto", "t1")
    assert again.returncode == 0, again.stderr
    assert snapshot(root) == before  # provisioned once: the nodes' passwords stay
