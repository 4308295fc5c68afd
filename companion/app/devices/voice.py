"""Speech behind a small interface: espeak-ng in a subprocess, or silence. Sentences go through
one queue and are spoken one after the other, in order, never two at once; `interrupt()` (a
new game, another language) drops what waits and stops the sentence being spoken.

Threads: the queue's worker only starts processes. It never reads the store: the settings a
sentence is spoken with (on/off, volume, speed) are read by the caller, on the service's thread,
and travel with the sentence as a value. A voice that cannot speak (espeak-ng missing, failing,
no sound device) says so once through `on_problem`, and again when it speaks after all."""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.app.words.i18n import VOICES
from companion.errors import VoiceUnavailable

if TYPE_CHECKING:  # the store (sqlite-utils) is not needed for a Silent voice
    from companion.store.settings import Settings

log = logging.getLogger(__name__)

#: Told (on the voice's thread) when the voice stops being able to speak (the reason), or
#: speaks again (None).
OnProblem = Callable[[str | None], None]


class Speaker(Protocol):
    def say(self, text: str, language: str) -> None: ...

    def interrupt(self) -> None: ...

    def idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until every sentence said so far has been spoken; False after `timeout_s`."""
        ...


@dataclass(frozen=True)
class VoiceOptions:
    """How a sentence is spoken, read from the table's settings when it is said."""

    on: bool = True
    volume: int = 100  # espeak-ng's amplitude, 0-200
    speed: int = 165  # words per minute

    @classmethod
    def of(cls, settings: Settings) -> VoiceOptions:
        return cls(
            bool(settings.get("voice")), int(settings.get("volume")), int(settings.get("speed"))
        )


class Silent:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []
        self.interrupted = 0
        self.problem: str | None = None

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))

    def interrupt(self) -> None:
        self.interrupted += 1

    def idle(self, timeout_s: float = 10.0) -> bool:
        return True


Start = Callable[[str, str], "subprocess.Popen[bytes] | None"]


class VoiceQueue:
    """One sentence at a time: `start(text, language)` begins speaking one (a process, or None
    when there is nothing to wait for); the worker waits for it before the next."""

    def __init__(self, start: Start, on_problem: OnProblem | None = None) -> None:
        self.start = start
        self.on_problem = on_problem
        #: why the last sentence could not be spoken (None: it was)
        self.problem: str | None = None
        #: (text, language, generation, marker, start): a marker is set when the queue reaches
        #: it; `start` speaks that sentence (None: the queue's own)
        self._waiting: queue.Queue[tuple[str, str, int, threading.Event | None, Start | None]] = (
            queue.Queue()
        )
        self._lock = threading.Lock()
        self._current: subprocess.Popen[bytes] | None = None
        self._generation = 0  # sentences of an earlier generation were interrupted
        self.spoken: list[tuple[str, str]] = []  # in the order really started
        self.started_at: list[float] = []  # time.perf_counter() when each was started
        self._worker = threading.Thread(target=self._run, name="voice", daemon=True)
        self._worker.start()

    def say(self, text: str, language: str, start: Start | None = None) -> None:
        with self._lock:
            generation = self._generation
        self._waiting.put((text, language, generation, None, start))

    def interrupt(self) -> None:
        with self._lock:
            self._generation += 1
            current = self._current
        if current is not None and current.poll() is None:
            current.terminate()

    def idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until every sentence said so far has been spoken (tests)."""
        done = threading.Event()
        self._waiting.put(("", "", -1, done, None))
        return done.wait(timeout_s)

    def _run(self) -> None:
        while True:
            text, language, generation, marker, start = self._waiting.get()
            if marker is not None:
                marker.set()
                continue
            try:
                self._speak(text, language, generation, start or self.start)
            except Exception as error:  # the voice goes on with the next sentence
                log.exception("the voice could not speak %r", text)
                self._tell(f"{type(error).__name__}: {error}")

    def _speak(self, text: str, language: str, generation: int, start: Start) -> None:
        with self._lock:
            if generation != self._generation:
                return  # interrupted before its turn
            try:
                process = start(text, language)
            except (OSError, VoiceUnavailable) as error:
                self._tell(str(error))
                return
            self._current = process
            self.spoken.append((text, language))
            self.started_at.append(time.perf_counter())
        failed = None
        if process is not None:
            _out, err = process.communicate()
            with self._lock:
                interrupted = generation != self._generation
            if process.returncode != 0 and not interrupted:
                said = (err or b"").decode("utf-8", "replace").strip().splitlines()
                failed = f"espeak-ng ended with code {process.returncode}" + (
                    f": {said[-1]}" if said else ""
                )
        with self._lock:
            self._current = None
        if process is not None:  # a sentence with the voice off tells nothing about it
            self._tell(failed)

    def _tell(self, problem: str | None) -> None:
        """Say once that the voice cannot speak (and once that it can again)."""
        if problem == self.problem:
            return
        self.problem = problem
        if problem is not None:
            log.warning("the voice cannot speak: %s", problem)
        if self.on_problem is not None:
            self.on_problem(problem)


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
            [*command, "--", text], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        self.processes.append(process)
        return process

    def wait(self, timeout_s: float = 10) -> None:
        for process in self.processes:
            process.wait(timeout_s)


class SettingsVoice:
    """The app's voice: espeak-ng with the table's settings (on/off, volume, speed), read at
    each sentence on the caller's thread so a change applies at once, through one queue;
    every sentence is also kept in `said`. espeak-ng is looked up at each sentence: installed
    while the app runs, it speaks."""

    def __init__(self, settings: Settings, on_problem: OnProblem | None = None) -> None:
        self.settings = settings
        self.said: list[tuple[str, str]] = []
        self.voice = VoiceQueue(self._start, on_problem)

    @property
    def problem(self) -> str | None:
        return self.voice.problem

    @staticmethod
    def _start(
        text: str, language: str, options: VoiceOptions = VoiceOptions()
    ) -> subprocess.Popen[bytes] | None:
        if not options.on:
            return None
        return Espeak(options.volume, options.speed).start(text, language)

    def say(self, text: str, language: str) -> None:
        self.said.append((text, language))
        options = VoiceOptions.of(self.settings)  # here, on the service's thread
        self.voice.say(text, language, partial(self._start, options=options))

    def interrupt(self) -> None:
        self.voice.interrupt()

    def idle(self, timeout_s: float = 10.0) -> bool:
        return self.voice.idle(timeout_s)
