"""Stopping cleanly: the app and `serve` leave through their own close when systemd stops them
(SIGTERM), a terminal closes (SIGHUP) or Ctrl+C is pressed, and a closed service leaves every ring
dark (a lit ring would tell the players about a game nobody runs any more)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from companion.app.devices.voice import Silent
from companion.app.service import TableService
from firmware_bridge.node_sim import SimNode
from tests.conftest import PYTHON, ROOT
from tests.support.processes import group_members, kill_group, limit
from tests.support.standins.hardware_helpers import wait_for


def _lit(nodes: dict[str, SimNode]) -> list[str]:
    return sorted(
        n for n, node in nodes.items() if node.ring is not None and node.ring.pattern != "off"
    )


def _last_ring_pattern(node: SimNode) -> str:
    return [led.pattern for led in node.received if led.target == "ring"][-1]


def test_closing_the_service_turns_every_ring_off(tmp_path: Path) -> None:
    service = TableService(tmp_path, lambda call: call(), speaker=Silent())
    service.start()
    board = service.hardware.simulated
    assert board is not None
    service.new_game(7)
    wait_for(lambda: bool(_lit(board.nodes)), 10, "a ring lit by the new game")
    lit = _lit(board.nodes)
    service.close()  # the simulated wires close too, and a simulated node loses power with them:
    # what it was last told shows what a real node, still powered by the Pi, keeps showing
    last_ring = {n: _last_ring_pattern(board.nodes[n]) for n in lit}
    assert last_ring == {n: "off" for n in lit}
    service.close()  # a second close does nothing


def _app_python(pgid: int) -> int:
    """The app's own process among xvfb-run's group (the one systemd would signal)."""
    for pid in group_members(pgid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command[0].endswith(b"-binfmt-P"):  # qemu-user (the emulated Pi): interpreter, file
            command = command[2:]
        if command[0] == PYTHON.encode() and b"tests.ui_driver" in command:  # not xvfb-run
            return pid
    raise AssertionError("the app's process is not in its group")


def held_app(env: dict[str, str]) -> subprocess.Popen[str]:
    """The app under Xvfb in a session of its own, mid-game and waiting (`hold`): its first
    line of output says so."""
    command = ["xvfb-run", "-a", "-s", "-screen 0 800x480x24", PYTHON, "-m", "tests.ui_driver"]
    return subprocess.Popen(
        [*command, "--script", "hold", "25"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
        env={**os.environ, **env},
    )


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stop_signal_closes_the_app_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    process = held_app({"ARMATA_DATA_DIR": str(tmp_path)})
    try:
        assert process.stdout is not None
        held = json.loads(process.stdout.readline())  # mid-game, rings lit; the app waits
        board = Path(held["board_dir"])
        assert board.is_dir() and held["lit"], held
        os.kill(_app_python(process.pid), stop)
        _, errors = process.communicate(timeout=limit(30))
    finally:
        kill_group(process.pid)
    assert process.returncode == 0, errors
    assert not board.exists()  # the simulated board's pseudo-terminal links went with it
    assert not (tmp_path / "companion.db-wal").exists()  # the log was closed, not abandoned


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stop_signal_ends_serve_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    serve = ["serve", "--data", str(tmp_path), "--play", "--seed", "7", "--silent"]
    process = subprocess.Popen(
        [PYTHON, "-m", "companion", *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []  # serving, the table view's address and code, a new game, waiting
        while not (lines and lines[-1].startswith("said: Waiting for")) and len(lines) < 60:
            lines.append(process.stdout.readline())
        assert lines[-1].startswith("said: Waiting for"), lines
        process.send_signal(stop)
        _, errors = process.communicate(timeout=limit(30))
    finally:
        kill_group(process.pid)
    assert process.returncode == 0, errors
    assert "Traceback" not in errors
    assert not (tmp_path / "companion.db-wal").exists()


@pytest.mark.slow
def test_the_kiosks_log_goes_to_the_journal_not_to_kivys_files(tmp_path: Path) -> None:
    """As the unit starts it (KIVY_LOG_MODE=PYTHON): the lines on standard error, which systemd
    puts in the journal, and no file under ~/.kivy/logs that could fill the SD card."""
    process = held_app(
        {
            "ARMATA_DATA_DIR": str(tmp_path / "data"),
            "HOME": str(tmp_path),
            "KIVY_LOG_MODE": "PYTHON",
        }
    )
    try:
        assert process.stdout is not None
        json.loads(process.stdout.readline())  # mid-game: the app has drawn and logged
        os.kill(_app_python(process.pid), signal.SIGTERM)
        _out, errors = process.communicate(timeout=limit(60))
    finally:
        kill_group(process.pid)
    assert process.returncode == 0, errors[-2000:]
    assert "INFO kivy: " in errors or "INFO kivy" in errors, errors[:2000]
    logs = tmp_path / ".kivy" / "logs"
    assert not logs.exists() or not any(logs.iterdir()), list(logs.iterdir())
