"""The system the install changes: files under a root ("/" on the Pi, a staging folder in the
tests) and commands from the PATH. Every change is written only when it differs and is listed
in `changes`, so a rerun can say (and the tests can check) that it changed nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import InstallError


@dataclass
class System:
    root: Path
    quiet: bool = False
    changes: list[str] = field(default_factory=list)

    @property
    def staging(self) -> bool:
        return self.root != Path("/")

    def path(self, absolute: str) -> Path:
        """`absolute` (a path on the Pi) under this root."""
        return self.root / absolute.lstrip("/")

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"install: {text}", file=sys.stderr, flush=True)

    def changed(self, what: str) -> None:
        self.changes.append(what)
        self.say(what)

    def run(
        self,
        *command: str | Path,
        check: bool = True,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        capture: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        args = [str(a) for a in command]
        if shutil.which(args[0]) is None and not Path(args[0]).is_file():
            raise InstallError(f"{args[0]} is not installed (needed for: {' '.join(args)})")
        done = subprocess.run(
            args,
            capture_output=capture,
            text=True,
            env=None if env is None else {**os.environ, **env},
            cwd=cwd,
            check=False,
        )
        if check and done.returncode != 0:
            said = (done.stderr or done.stdout or "").strip().splitlines()[-5:]
            raise InstallError(
                f"{' '.join(args)} failed (exit {done.returncode})"
                + (": " + " / ".join(said) if said else "")
            )
        return done

    def ok(self, *command: str) -> bool:
        """Whether `command` succeeds (a question to the system, e.g. `getent passwd armata`)."""
        return self.run(*command, check=False).returncode == 0

    def write(self, absolute: str, text: str, mode: int = 0o644) -> bool:
        """Write `text` when the file differs (content or mode); whether it did."""
        target = self.path(absolute)
        data = text.encode()
        if (
            target.is_file()
            and not target.is_symlink()
            and target.read_bytes() == data
            and (target.stat().st_mode & 0o7777) == mode
        ):
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")
        partial.write_bytes(data)
        partial.chmod(mode)
        partial.replace(target)
        self.changed(f"wrote {absolute}")
        return True

    def folder(self, absolute: str, mode: int = 0o755) -> bool:
        target = self.path(absolute)
        if target.is_dir():
            return False
        target.mkdir(parents=True, mode=mode)
        target.chmod(mode)
        self.changed(f"created {absolute}")
        return True

    def link(self, absolute: str, points_to: str) -> bool:
        """Make `absolute` a symbolic link to `points_to` (relative to its folder), replaced
        in one rename: a reader sees the old link or the new one, never none."""
        target = self.path(absolute)
        if target.is_symlink() and os.readlink(target) == points_to:
            return False
        partial = target.with_name(f".{target.name}.new")
        partial.unlink(missing_ok=True)
        os.symlink(points_to, partial)
        partial.replace(target)
        self.changed(f"linked {absolute} -> {points_to}")
        return True

    def remove(self, absolute: str) -> bool:
        target = self.path(absolute)
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            shutil.rmtree(target)
        else:
            return False
        self.changed(f"removed {absolute}")
        return True


def os_release(system: System) -> dict[str, str]:
    """/etc/os-release of the system being installed (the staging root's in the tests)."""
    path = system.path("/etc/os-release")
    if not path.is_file():
        path = system.path("/usr/lib/os-release")
    found: dict[str, str] = {}
    if path.is_file():
        import shlex

        for line in path.read_text().splitlines():
            key, sep, value = line.partition("=")
            if sep and key.strip() and not key.startswith("#"):
                found[key.strip()] = " ".join(shlex.split(value))
    return found


def command_line(args: Sequence[str]) -> str:
    return " ".join(args)
