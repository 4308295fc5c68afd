"""A stand-in for mpremote, first on PATH (the only stand-in of the flashing tests): it records
every call (the port, each command: files copied, digests asked, code run, resets) as a JSON
line in $MPREMOTE_CALLS and keeps each node's flash as a folder, $MPREMOTE_FLASH/<port's file
name>. `exec` runs its code under the real MicroPython interpreter in that folder (the code the
app would run on the node); `fs cp`, `fs sha256sum` and `reset` act on the folder as mpremote
does on a board, with its output and exit status.

$MPREMOTE_FAIL = "<port name>:<how>" breaks one node: `corrupt` (every copy arrives cut short,
as over a bad cable), `connect` (it never gets the raw REPL: every call fails)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

PROGRAM = """#!{python}
import sys
sys.path.insert(0, {root!r})
from tests.support.standins.mpremote_standin import main
sys.exit(main(sys.argv[1:]))
"""


def install(bin_dir: Path) -> Path:
    """Write the `mpremote` program into `bin_dir` (put it first on PATH)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    program = bin_dir / "mpremote"
    root = str(Path(__file__).resolve().parents[3])
    program.write_text(PROGRAM.format(python=sys.executable, root=root))
    program.chmod(0o755)
    return program


def calls(path: Path) -> list[dict[str, object]]:
    """Every recorded call: {"port": ..., "commands": [[...], ...]}."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def _fail(text: str) -> int:
    sys.stderr.write(text + "\n")
    return 1


def _remote(flash: Path, path: str) -> Path:
    return flash / path.removeprefix(":").lstrip("/")


def _run(command: list[str], flash: Path, how: str) -> int:
    if command[:1] == ["exec"]:
        interpreter = os.environ.get("MPREMOTE_MICROPYTHON") or sys.executable
        done = subprocess.run(
            [interpreter, "-c", command[1]], cwd=flash, capture_output=True, text=True, check=False
        )
        sys.stdout.write(done.stdout)
        if done.returncode != 0:
            return _fail(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "exec")
        return 0
    if command[:2] == ["fs", "cp"]:
        paths = [x for x in command[2:] if not x.startswith("-")]
        *sources, dest = paths
        for source in sources:
            target = _remote(flash, dest)
            if dest.endswith("/"):
                target = target / Path(source).name
            print(f"cp {source} {dest}")
            if not target.parent.is_dir():
                return _fail(f"mpremote: cp: No such file or directory: {dest}.")
            data = Path(source).read_bytes()
            target.write_bytes(data[: len(data) // 2] if how == "corrupt" else data)
        return 0
    if command[:2] == ["fs", "sha256sum"]:
        for path in command[2:]:
            target = _remote(flash, path)
            print(f"sha256sum :{path.removeprefix(':')}")
            if not target.is_file():
                return _fail(f"mpremote: sha256sum: No such file or directory: {path}.")
            print(hashlib.sha256(target.read_bytes()).hexdigest())
        return 0
    if command == ["reset"]:
        return 0
    return _fail(f"mpremote stand-in: {' '.join(command)} is not modelled")


def main(argv: list[str]) -> int:
    if argv[:1] != ["connect"] or len(argv) < 2:
        return _fail("mpremote stand-in: the app always says connect PORT first")
    port = argv[1]
    commands: list[list[str]] = [[]]
    for arg in argv[2:]:
        if arg == "+":
            commands.append([])
        else:
            commands[-1].append(arg)
    with open(os.environ["MPREMOTE_CALLS"], "a") as out:
        out.write(json.dumps({"port": port, "commands": commands}) + "\n")
    flash = Path(os.environ["MPREMOTE_FLASH"]) / Path(port).name
    broken, _, how = os.environ.get("MPREMOTE_FAIL", "").partition(":")
    how = how if broken == Path(port).name else ""
    if how == "connect":
        return _fail("mpremote: could not enter raw repl")
    if not flash.is_dir():
        return _fail(f"mpremote: failed to access {port}")
    for command in commands:
        status = _run(command, flash, how)
        if status:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
