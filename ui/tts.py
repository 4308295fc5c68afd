"""Speech behind a small interface: espeak-ng in a subprocess (non-blocking), or silence."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Protocol

from companion.store.settings import Settings
from ui.i18n import VOICES


class Speaker(Protocol):
    def say(self, text: str, language: str) -> None: ...


class Silent:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))


class Espeak:
    """espeak-ng with a volume (0-200) and a speed; `to_file` writes WAV files instead of
    playing (tests, and machines without sound)."""

    def __init__(self, volume: int = 100, speed: int = 160, to_file: Path | None = None) -> None:
        binary = shutil.which("espeak-ng")
        if binary is None:
            raise RuntimeError("espeak-ng is not installed (./setup.sh installs it)")
        self.binary = binary
        self.volume = volume
        self.speed = speed
        self.to_file = to_file
        self.processes: list[subprocess.Popen[bytes]] = []

    def say(self, text: str, language: str) -> None:
        command = [
            self.binary,
            "-v",
            VOICES.get(language, "en-gb"),
            "-a",
            str(self.volume),
            "-s",
            str(self.speed),
        ]
        if self.to_file is not None:
            command += ["-w", str(self.to_file)]
        self.processes = [p for p in self.processes if p.poll() is None]
        self.processes.append(
            subprocess.Popen(
                [*command, "--", text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )

    def wait(self, timeout_s: float = 10) -> None:
        for process in self.processes:
            process.wait(timeout_s)


class SettingsVoice:
    """The app's voice: espeak-ng with the table's settings (on/off, volume, speed), read at
    each sentence so a change applies at once; every sentence is also kept in `said`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.said: list[tuple[str, str]] = []
        self.available = shutil.which("espeak-ng") is not None

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))
        if self.available and self.settings.get("voice"):
            Espeak(int(self.settings.get("volume")), int(self.settings.get("speed"))).say(
                text, language
            )
