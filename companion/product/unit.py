"""The kiosk's systemd unit as an update sees it: restart it and watch whether it stays up
(`systemctl show`: its state and how often systemd restarted it)."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

from companion.errors import UpdateError
from hardware.pi.install.layout import UNIT


@dataclass(frozen=True)
class UnitState:
    active: str
    restarts: int

    @property
    def up(self) -> bool:
        return self.active == "active"


def systemctl(*args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["systemctl", *args], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UpdateError(f"systemctl {' '.join(args)}: {exc}") from None


def state(unit: str = UNIT) -> UnitState:
    said = systemctl("show", "-p", "ActiveState", "-p", "NRestarts", unit).stdout
    values = dict(line.partition("=")[::2] for line in said.splitlines() if "=" in line)
    try:
        restarts = int(values.get("NRestarts", "0") or 0)
    except ValueError:
        restarts = 0
    return UnitState(values.get("ActiveState", "unknown"), restarts)


def restart_and_watch(seconds: float, unit: str = UNIT) -> str | None:
    """Restart the unit and watch it for `seconds`; None when it stayed up, else what went
    wrong (it was restarted by systemd: the app stopped; or it is not active at the end)."""
    done = systemctl("restart", unit)
    if done.returncode != 0:
        return f"systemctl restart {unit} failed: {done.stderr.strip() or done.returncode}"
    before = state(unit).restarts  # after: a restart by hand may set systemd's count to 0
    end = time.monotonic() + seconds
    while True:
        now = state(unit)
        if now.restarts > before:
            return f"{unit} stopped and was restarted {now.restarts - before} times"
        if time.monotonic() >= end:
            return None if now.up else f"{unit} is {now.active}, not active"
        time.sleep(min(1.0, max(0.0, end - time.monotonic())))
