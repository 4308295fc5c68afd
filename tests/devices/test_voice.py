"""The voice: one queue, sentences spoken one after the other in the order given, never two at
once, and a new game (or another language) interrupts what is spoken and drops what waits."""

from __future__ import annotations

import itertools
import subprocess
import time
import wave
from pathlib import Path

import pytest

from companion.app.devices.voice import Espeak, VoiceQueue
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # espeak-ng processes


class Sleeper:
    """Each sentence a real process that takes `seconds` (a stand-in for espeak-ng)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started: list[tuple[str, float]] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    def __call__(self, text: str, language: str) -> subprocess.Popen[bytes]:
        self.started.append((text, time.monotonic()))
        process = subprocess.Popen(["sleep", str(self.seconds)])
        self.processes.append(process)
        return process


def test_sentences_are_spoken_in_order_one_at_a_time() -> None:
    sleeper = Sleeper(0.2)
    voice = VoiceQueue(sleeper)
    for text in ("the step", "the curse", "the collapse"):
        voice.say(text, "en")
    assert voice.idle(limit(10))
    assert [text for text, _ in sleeper.started] == ["the step", "the curse", "the collapse"]
    times = [at for _, at in sleeper.started]
    assert all(later - earlier >= 0.19 for earlier, later in itertools.pairwise(times))
    assert voice.spoken == [("the step", "en"), ("the curse", "en"), ("the collapse", "en")]


def test_a_new_game_interrupts_the_sentence_and_drops_the_rest() -> None:
    sleeper = Sleeper(5)
    voice = VoiceQueue(sleeper)
    voice.say("an old step", "en")
    voice.say("an old curse", "en")
    deadline = time.monotonic() + limit(5)
    while not sleeper.started and time.monotonic() < deadline:
        time.sleep(0.01)
    voice.interrupt()  # a new game
    voice.say("the new game's first step", "de")
    assert voice.idle(limit(10))
    assert [text for text, _ in sleeper.started] == ["an old step", "the new game's first step"]
    assert sleeper.processes[0].wait(limit(5)) != 0  # stopped, not finished


def test_espeak_speaks_two_sentences_one_after_the_other(tmp_path: Path) -> None:
    files: list[Path] = []

    def to_file(text: str, language: str) -> subprocess.Popen[bytes]:
        files.append(tmp_path / f"{len(files)}.wav")
        return Espeak(to_file=files[-1]).start(text, language)

    voice = VoiceQueue(to_file)
    voice.say("The Master teleports to the north-east room.", "en")
    voice.say("Der Meister verflucht den Raum Nordost.", "de")
    assert voice.idle(limit(30))
    first, second = files
    for path in files:
        with wave.open(str(path)) as sound:
            assert sound.getnframes() > 1000  # really speech, not an empty file
    assert second.stat().st_mtime >= first.stat().st_mtime
