"""mpremote (MicroPython's own tool, a PyPI dependency) run as a program, one call per step, on
one node's serial port. Nothing of it is imported: its command line is its interface."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import FlashError

#: one step (enter the raw REPL, copy a few kB at USB speed) takes seconds; more is a hang
STEP_TIMEOUT_S = 60.0


def mpremote_program() -> str:
    """`mpremote` on the PATH, else the one installed beside this Python (the venv's)."""
    found = shutil.which("mpremote")
    if found:
        return found
    beside = Path(sys.executable).parent / "mpremote"
    if beside.exists():
        return str(beside)
    raise FlashError("mpremote", "not installed (pip install mpremote)")


class Mpremote:
    def __init__(self, port: str, program: str | None = None) -> None:
        self.port = port
        self.program = program or mpremote_program()

    def run(self, step: str, *args: str, timeout_s: float = STEP_TIMEOUT_S) -> str:
        """`mpremote connect PORT ARGS…`; its standard output. FlashError naming `step` when
        it fails, with the last line it wrote."""
        command = [self.program, "connect", self.port, *args]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout_s, check=False
            )
        except subprocess.TimeoutExpired:
            raise FlashError(step, f"mpremote gave no answer within {timeout_s:g} s") from None
        except OSError as exc:
            raise FlashError(step, f"cannot run {self.program}: {exc.strerror or exc}") from None
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()
            raise FlashError(step, said[-1] if said else f"mpremote exited {done.returncode}")
        return done.stdout

    def exec(self, step: str, code: str) -> str:
        return self.run(step, "exec", code)

    def copy(self, step: str, pairs: Sequence[tuple[Path, str]]) -> None:
        """Copy each local file to its path on the node, in one connection (`+` chains)."""
        args: list[str] = []
        for local, remote in pairs:
            if args:
                args.append("+")
            args += ["fs", "cp", "-f", str(local), ":" + remote]
        self.run(step, *args)

    def sha256(self, step: str, remotes: Sequence[str]) -> list[str]:
        """The sha256 of each file on the node, in order (`fs sha256sum`)."""
        out = self.run(step, "fs", "sha256sum", *(":" + r for r in remotes))
        digests = [
            line.strip()
            for line in out.splitlines()
            if len(line.strip()) == 64 and all(c in "0123456789abcdef" for c in line.strip())
        ]
        if len(digests) != len(remotes):
            raise FlashError(step, f"{len(digests)} digests for {len(remotes)} files")
        return digests

    def reset(self) -> None:
        self.run("reset", "reset")
