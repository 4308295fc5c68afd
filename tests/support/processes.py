"""Subprocesses of the test suite: one place for every time limit (scaled by
`ARMATA_TEST_TIME_SCALE` for slow machines and emulation, hardware/pi/README.md), and runs that
end their whole process group on a timeout — `xvfb-run` starts Xvfb and the app beside itself,
and killing only the shell left both running, slowing every later test."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

TIME_SCALE = float(os.environ.get("ARMATA_TEST_TIME_SCALE", "1") or "1")


def busy_factor() -> float:
    """How much slower than when idle the machine runs now: its runnable tasks per core over
    the last minute, at least 1 (a machine that runs this suite in parallel, or a second copy
    of it, makes every wait longer, never a test red)."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average here
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def limit(seconds: float) -> float:
    """A time limit of the suite, scaled for this machine (`ARMATA_TEST_TIME_SCALE`, for a
    slow machine or emulation) and for how busy it is now (`busy_factor`). A wait ends as soon
    as what it waits for happens: a longer limit costs time only when a test fails."""
    return seconds * TIME_SCALE * busy_factor()


def run_group(
    command: Sequence[str],
    timeout_s: float,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    started: Callable[[int], None] | None = None,
    scaled: bool = True,
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(capture_output=True, text=True)` in a new session; on a timeout the
    whole group is killed (and reaped) before TimeoutExpired is raised. The timeout is a
    `limit` unless not `scaled` (a test whose point is the timeout)."""
    timeout = limit(timeout_s) if scaled else timeout_s
    process = subprocess.Popen(
        list(command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    if started is not None:
        started(process.pid)  # the group's id: the session leader's pid
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        out, err = process.communicate()
        raise subprocess.TimeoutExpired(process.args, timeout, out, err) from None
    finally:
        kill_group(process.pid)  # whatever the run left behind (a daemon, an Xvfb)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(pgid, signal.SIGKILL)


def group_members(pgid: int) -> list[int]:
    """Processes still alive in the process group `pgid` (from /proc)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            alive.append(int(entry.name))
    return alive


#: set in this process's environment for the whole session; every process the suite starts
#: inherits it (tests extend os.environ), so a survivor is found even after it was reparented
RUN_MARK = "ARMATA_TEST_RUN"


def marked_processes(mark: str) -> list[tuple[int, str]]:
    """(pid, command line) of live processes whose environment carries `RUN_MARK=mark`."""
    needle = f"{RUN_MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state != "Z":
            found.append((int(entry.name), command))
    return found
