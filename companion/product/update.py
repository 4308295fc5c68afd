"""`python -m companion update ARCHIVE`: a new release beside the running one, switched to only
when it has shown it works, and switched back by itself when it does not come up.

1. The archive is unpacked (tarfile's `data` filter: no paths out of its folder, no devices)
   and its own installer places it as `releases/<version>` (`install --release-only`: its
   environment, compiled engine and translations); the running release is not touched.
2. The game log is backed up (kind `update`, named with the version it came from) before
   anything may migrate it, the table stopped (no move is made between the backup and the
   switch).
3. The new version is checked on a copy of that backup, never on the log: `serve` opens it
   (migrating the copy, as the kiosk would) and plays for a moment, `check` reads it back, and
   `sim` plays a short random game with the rules' invariants checked. A failure removes the
   new release and starts the old one again.
4. `current` is switched (`previous` keeps the old one) and the unit restarted; if systemd
   restarts it again within the watch, or it is not active at the end, `current` goes back,
   a log the new version migrated is kept aside and the backup of step 2 restored, and the old
   version restarted.

How it ends is recorded in `DATA/updates/last-update.json` (`record`) before each restart, for
the version that starts to say it once, in the players' language
(companion/app/session/update_news.py): "updated" before the switch, "rolled back" after the
switch back, "refused" when the check failed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.errors import LogTooNew, UpdateError
from companion.product.releases import Installed
from companion.product.unit import restart_and_watch, systemctl
from companion.store.backup import make_backup, owned_like, restore
from companion.store.gamelog import GameLog
from companion.version import parse, read_version
from hardware.pi.install.layout import UNIT

Say = Callable[[str], None]
CHECK_S = 600.0  # each step of the new version's check, at most (a Pi 3 is slow)


@dataclass
class Outcome:
    version: str
    switched: bool
    rolled_back: bool
    backup: Path | None
    problem: str | None = None


def unpack(archive: Path, into: Path) -> Path:
    """The archive's one top folder, unpacked under `into`."""
    try:
        with tarfile.open(archive) as packed:
            tops = {Path(m.name).parts[0] for m in packed.getmembers() if m.name.strip("/")}
            if len(tops) != 1:
                raise UpdateError(f"{archive}: not a release archive (one folder expected)")
            packed.extractall(into, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise UpdateError(f"{archive}: cannot be unpacked: {exc}") from None
    tree = into / tops.pop()
    if not (tree / "pyproject.toml").is_file() or not (tree / "companion").is_dir():
        raise UpdateError(f"{archive}: not a release of the table companion")
    return tree


def place(tree: Path, installed: Installed, packages_from: Path | None) -> None:
    """The new tree's own installer places it beside the others (its standard library only,
    the system's python3)."""
    python = getattr(sys, "_base_executable", None) or sys.executable
    command = [python, "-m", "hardware.pi.install", "--release-only", "--quiet"]
    command += ["--root", str(installed.root)]
    if packages_from is not None:
        command += ["--packages-from", str(packages_from)]
    done = _run(command, tree)
    if done.returncode != 0:
        raise UpdateError(f"the new release did not install: {_tail(done)}")


def check_new(installed: Installed, version: str, backup: Path | None) -> None:
    """The new version on a copy of the log (see the module's doc); raises what failed."""
    release, python = installed.release(version), str(installed.python(version))
    with tempfile.TemporaryDirectory(prefix="armata-update-check-") as scratch:
        data = Path(scratch)
        if backup is not None:
            shutil.copyfile(backup, data / "companion.db")
        steps = [
            ["serve", "--data", str(data), "--play", "--seconds", "2", "--silent",
             "--web", "off", "--nodes", "simulated"],
            ["check", "--db", str(data / "companion.db")],
            ["sim", "--games", "1", "--seed", "1"],
        ]  # fmt: skip
        for step in steps:
            done = _run([python, "-m", "companion", *step], release)
            if done.returncode != 0:
                raise UpdateError(f"version {version} failed its check ({step[0]}): {_tail(done)}")


def update(
    archive: Path,
    installed: Installed,
    *,
    watch_s: float = 60.0,
    packages_from: Path | None = None,
    allow_older: bool = False,
    say: Say = print,
) -> Outcome:
    old = installed.current()
    if old is None:
        raise UpdateError(f"no release installed under {installed.root}: install first")
    log = installed.data / "companion.db"
    with tempfile.TemporaryDirectory(prefix="armata-update-") as unpacked:
        tree = unpack(archive, Path(unpacked))
        new = read_version(tree)
        if parse(new) == parse(old):
            raise UpdateError(f"version {new} is the one running")
        if parse(new) < parse(old) and not allow_older:
            raise UpdateError(f"version {new} is older than {old} (--allow-older to go back)")
        say(f"installing {new} beside {old}")
        place(tree, installed, packages_from)
    systemctl("stop", UNIT)  # no move is made between the backup and the switch
    backup = make_backup(log, "update", from_version=old) if log.is_file() else None
    if backup is not None:
        say(f"the game log is backed up: {backup}")
    say(f"checking {new} on a copy of the game log")
    try:
        check_new(installed, new, backup)
    except UpdateError as problem:
        shutil.rmtree(installed.release(new), ignore_errors=True)
        say(f"{problem}; {old} stays, nothing was changed")
        refused = record(installed, old, Outcome(new, False, False, backup, str(problem)))
        restart_and_watch(min(watch_s, 10.0))
        return refused
    record(installed, old, Outcome(new, True, False, backup))  # what the new version says
    installed.switch(new)
    say(f"switched to {new}; watching the table start for {watch_s:.0f} s")
    trouble = restart_and_watch(watch_s)
    if trouble is None:
        gone = installed.tidy()
        say(f"version {new} is running" + (f" (removed {', '.join(gone)})" if gone else ""))
        return Outcome(new, True, False, backup)
    say(f"{trouble}: going back to {old}")
    roll_back(installed, old, log, backup, say)
    rolled = record(installed, old, Outcome(new, True, True, backup, trouble))
    again = restart_and_watch(watch_s)
    if again is not None:
        say(f"{old} does not come up either: {again}")
    return rolled


#: how the last update ended, beside the archives the touchscreen hands over
LAST_UPDATE = "updates/last-update.json"


def record(installed: Installed, old: str, outcome: Outcome) -> Outcome:
    """`outcome` written for the touchscreen to say once (the table's user may rename it);
    a data folder that cannot take it leaves the update as it is."""
    path = installed.data / LAST_UPDATE
    told = {"version": outcome.version, "from": old, "switched": outcome.switched,
            "rolled_back": outcome.rolled_back, "problem": outcome.problem}  # fmt: skip
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        owned_like(path.parent, installed.data)
        partial = path.with_name(f".{path.name}.partial")
        partial.write_text(json.dumps(told) + "\n")
        owned_like(partial, installed.data)
        partial.replace(path)
    except OSError:
        pass
    return outcome


def roll_back(installed: Installed, old: str, log: Path, backup: Path | None, say: Say) -> None:
    """`current` back to `old`; a log the new version migrated is kept aside and the backup
    made before the update put back. This process is the old version: its checks decide."""
    installed.switch(old)
    if not log.is_file() or backup is None:
        return
    try:
        GameLog(log, read_only=True).close()
    except LogTooNew:
        aside = restore(backup, log)
        say(f"the game log the new version migrated is kept as {aside}; restored {backup.name}")
    except Exception as exc:  # the old version reads it otherwise; say what it found
        say(f"the game log after the new version: {exc}")


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=CHECK_S)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, "", f"took more than {CHECK_S:.0f} s")


def _tail(done: subprocess.CompletedProcess[str]) -> str:
    lines = (done.stderr or done.stdout or "").strip().splitlines()
    return " / ".join(lines[-4:]) or f"exit {done.returncode}"
