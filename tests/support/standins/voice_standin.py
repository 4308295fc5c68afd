"""A stand-in for espeak-ng, first on PATH: a shell script that records each call's arguments
(and can fail as a broken sound setup does), so the tests hear what the table would say through
the voice's real path: the settings, the queue, the process."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RECORDER = """#!/bin/sh
# a stand-in for espeak-ng: one line a call, NUL after each argument
{ printf '%s\\0' "$@"; printf '\\n'; } >> "$ESPEAK_RECORD"
"""
FAILING = """#!/bin/sh
{ printf '%s\\0' "$@"; printf '\\n'; } >> "$ESPEAK_RECORD"
echo "ALSA lib pcm.c: Unknown PCM default" >&2
echo "no sound device" >&2
exit 1
"""


@dataclass(frozen=True)
class Call:
    voice: str
    volume: int
    speed: int
    text: str


class StandIn:
    """`env()` puts the stand-in first on PATH; `calls()` reads what it was asked to say."""

    def __init__(self, folder: Path, failing: bool = False) -> None:
        self.bin = folder / "bin"
        self.bin.mkdir(parents=True, exist_ok=True)
        program = self.bin / "espeak-ng"
        program.write_text(FAILING if failing else RECORDER)
        program.chmod(0o755)
        self.record = folder / "espeak-calls"

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "ESPEAK_RECORD": str(self.record),
        }

    def calls(self) -> list[Call]:
        if not self.record.exists():
            return []
        out = []
        for line in self.record.read_bytes().decode("utf-8").splitlines():
            args = line.split("\0")[:-1]
            options = dict(zip(args[0:6:2], args[1:6:2], strict=True))
            assert args[6] == "--", args
            out.append(Call(options["-v"], int(options["-a"]), int(options["-s"]), args[7]))
        return out
