"""`./setup.sh run` on a machine without a display, as the README's quick start starts it: the
app on a virtual screen of its own, stopped with Ctrl-C in a real terminal (a pseudo-terminal).
Before, Ctrl-C reached Xvfb too, which took the app's display from under it: "XIO: fatal IO
error" ended every run, read as a crash (playtest, issue 29)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.processes import limit

pytestmark = pytest.mark.slow  # the app under its own Xvfb, in a terminal

ROOT = Path(__file__).resolve().parents[2]


def _read_until(fd: int, seen: bytearray, wanted: bytes | None, timeout_s: float) -> bool:
    """Read the terminal into `seen` until `wanted` shows (None: until it closes)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if wanted is not None and wanted in seen:
            return True
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed: every process on it ended
            return wanted is None
        if not chunk:
            return wanted is None
        seen += chunk
    return False


def test_ctrl_c_stops_the_app_on_its_virtual_screen_cleanly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ARMATA_DATA_DIR=str(tmp_path / "data"), TMPDIR=str(tmp_path))
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal's one command, as a player types it
        os.chdir(ROOT)
        os.execvpe("./setup.sh", ["./setup.sh", "run"], env)
    seen = bytearray()
    try:
        started = _read_until(fd, seen, b"http://", limit(240))
        assert started, seen.decode(errors="replace")[-2000:]
        time.sleep(2)  # the app at rest, as a player sees it
        os.write(fd, b"\x03")  # Ctrl-C, as the terminal sends it to its foreground group
        assert _read_until(fd, seen, None, limit(60)), seen.decode(errors="replace")[-2000:]
    finally:
        try:
            _, status = os.waitpid(pid, 0)
        finally:
            os.close(fd)
    said = seen.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, said[-2000:]
    assert "XIO" not in said and "Traceback" not in said, said[-2000:]
    assert "does not exist" not in said, said[-2000:]  # xauth's complaint about a new file
    left = subprocess.run(["pgrep", "-af", "Xvfb"], capture_output=True, text=True).stdout
    assert str(tmp_path) not in left, left  # its virtual screen went with it
