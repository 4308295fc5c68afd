"""Issue 28, item 8: a table killed with SIGKILL cannot remove its simulated board's folder of
pseudo-terminal links; the next start removes every such folder that no live process owns,
and leaves the folders of running tables (and folders it does not know) alone."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from firmware_bridge.board import OWNER_FILE, SimulatedBoard, node_ids, sweep_leftovers
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit

HOLD = (
    "from firmware_bridge.board import SimulatedBoard, node_ids\n"
    "import time\n"
    "board = SimulatedBoard(node_ids(['C'])).start()\n"
    "print(board.directory, flush=True)\n"
    "time.sleep(120)\n"
)


@pytest.mark.slow  # processes
def test_the_folders_of_killed_tables_are_swept_at_the_next_start(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    killed, processes = [], []
    for _ in range(2):  # two tables at once: the second leaves the first's folder alone
        process = subprocess.Popen(
            [PYTHON, "-c", HOLD], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )
        assert process.stdout is not None
        killed.append(Path(process.stdout.readline().strip()))
        processes.append(process)
    for process in processes:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=limit(10))
        process.stdout.close()  # type: ignore[union-attr]
    assert all(folder.is_dir() and (folder / OWNER_FILE).exists() for folder in killed)
    stranger = tmp_path / "armata-board-not-ours"  # no owner written: left alone
    stranger.mkdir()
    tempfile.tempdir = str(tmp_path)  # this process's boards go there too
    try:
        running = SimulatedBoard(node_ids(["C"]))  # its start sweeps
        try:
            assert not any(folder.exists() for folder in killed)
            assert running.directory.is_dir() and stranger.is_dir()
            assert sweep_leftovers(tmp_path) == []  # the live one is kept
        finally:
            running.stop()
    finally:
        tempfile.tempdir = None
    assert not running.directory.exists()


def test_a_reused_pid_does_not_keep_a_leftover(tmp_path: Path) -> None:
    """The owner is a pid and its start time: another process now holding that pid (here:
    this one, with a start time that is not its own) does not own the folder."""
    folder = tmp_path / "armata-board-reused"
    folder.mkdir()
    (folder / OWNER_FILE).write_text(f"{os.getpid()} 1")
    assert sweep_leftovers(tmp_path) == [folder] and not folder.exists()
