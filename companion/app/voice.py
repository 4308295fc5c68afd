"""Speech behind a small interface: espeak-ng in a subprocess, or silence. Sentences go through
one queue and are spoken one after the other, in order, never two at once; `interrupt()` (a
new game, another language) drops what waits and stops the sentence being spoken."""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from companion.app.i18n import VOICES
from companion.errors import VoiceUnavailable
from companion.store.settings import Settings


class Speaker(Protocol):
    def say(self, text: str, language: str) -> None: ...

    def interrupt(self) -> None: ...


class Silent:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []
        self.interrupted = 0

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))

    def interrupt(self) -> None:
        self.interrupted += 1


Start = Callable[[str, str], "subprocess.Popen[bytes] | None"]


class VoiceQueue:
    """One sentence at a time: `start(text, language)` begins speaking one (a process, or None
    when there is nothing to wait for); the worker waits for it before the next."""

    def __init__(self, start: Start) -> None:
        self.start = start
        #: (text, language, generation, marker): a marker is set when the queue reaches it
        self._waiting: queue.Queue[tuple[str, str, int, threading.Event | None]] = queue.Queue()
        self._lock = threading.Lock()
        self._current: subprocess.Popen[bytes] | None = None
        self._generation = 0  # sentences of an earlier generation were interrupted
        self.spoken: list[tuple[str, str]] = []  # in the order really started
        self._worker = threading.Thread(target=self._run, name="voice", daemon=True)
        self._worker.start()

    def say(self, text: str, language: str) -> None:
        with self._lock:
            generation = self._generation
        self._waiting.put((text, language, generation, None))

    def interrupt(self) -> None:
        with self._lock:
            self._generation += 1
            current = self._current
        if current is not None and current.poll() is None:
            current.terminate()

    def idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until every sentence said so far has been spoken (tests)."""
        done = threading.Event()
        self._waiting.put(("", "", -1, done))
        return done.wait(timeout_s)

    def _run(self) -> None:
        while True:
            text, language, generation, marker = self._waiting.get()
            if marker is not None:
                marker.set()
                continue
            with self._lock:
                if generation != self._generation:
                    continue  # interrupted before its turn
                process = self.start(text, language)
                self._current = process
                self.spoken.append((text, language))
            if process is not None:
                process.wait()
            with self._lock:
                self._current = None


class Espeak:
    """espeak-ng with a volume (0-200) and a speed; `to_file` writes WAV files instead of
    playing (tests, and machines without sound)."""

    def __init__(self, volume: int = 100, speed: int = 160, to_file: Path | None = None) -> None:
        binary = shutil.which("espeak-ng")
        if binary is None:
            raise VoiceUnavailable("espeak-ng is not installed (./setup.sh installs it)")
        self.binary = binary
        self.volume = volume
        self.speed = speed
        self.to_file = to_file
        self.processes: list[subprocess.Popen[bytes]] = []

    def say(self, text: str, language: str) -> None:
        self.start(text, language)

    def start(self, text: str, language: str) -> subprocess.Popen[bytes]:
        """Begin speaking `text`; the process, to wait for or stop."""
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
        process = subprocess.Popen(
            [*command, "--", text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.processes.append(process)
        return process

    def wait(self, timeout_s: float = 10) -> None:
        for process in self.processes:
            process.wait(timeout_s)


class SettingsVoice:
    """The app's voice: espeak-ng with the table's settings (on/off, volume, speed), read at
    each sentence so a change applies at once, through one queue; every sentence is also kept
    in `said`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.said: list[tuple[str, str]] = []
        self.available = shutil.which("espeak-ng") is not None
        self.voice = VoiceQueue(self._start)

    def _start(self, text: str, language: str) -> subprocess.Popen[bytes] | None:
        if not (self.available and self.settings.get("voice")):
            return None
        espeak = Espeak(int(self.settings.get("volume")), int(self.settings.get("speed")))
        return espeak.start(text, language)

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))
        self.voice.say(text, language)

    def interrupt(self) -> None:
        self.voice.interrupt()
