"""The voice on its real path: the table service's voice reads its settings on the service's
thread and speaks through espeak-ng (here a stand-in first on PATH that records each call), in
the players' language, every sentence in order — in `serve` as a process and in the app under
Xvfb. A voice that cannot speak says so once; a background thread's error is logged, counted
and shown, never a silently dead thread."""

from __future__ import annotations

import logging
import os
import subprocess
import threading
from pathlib import Path

import pytest

from companion.app.devices.faults import ThreadFault
from companion.app.devices.troubles import Troubles
from companion.app.devices.voice import SettingsVoice
from companion.app.service import TableService
from companion.app.words import i18n
from companion.store.gamelog import GameLog
from companion.store.settings import Settings
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit
from tests.support.standins.voice_standin import StandIn
from tests.ui.test_ui import ui

pytestmark = pytest.mark.slow  # processes: espeak-ng's stand-in, serve, the app under Xvfb

KEYS = "n\nc\n" * 45  # Next, Confirm: the first choice, 45 times (the game is not over yet)


def preset(data: Path, **settings: object) -> None:
    """The table's stored settings before it starts (as Settings leaves them)."""
    data.mkdir(parents=True, exist_ok=True)
    with GameLog(data / "companion.db") as log:
        stored = Settings(log.db)
        for key, value in settings.items():
            stored.set(key, value)


def serve(data: Path, standin: StandIn, keys: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """`serve --keys` driven by `keys` on its standard input; it stops when they end and the
    voice has finished."""
    return subprocess.run(
        [PYTHON, "-m", "companion", "serve", "--data", str(data), "--play", "--seed", "7",
         "--keys", *extra],
        input=keys,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(120),
        env={**os.environ, **standin.env()},
    )  # fmt: skip


def printed_sentences(stdout: str) -> list[str]:
    """What serve said and announced, in order (each line is one sentence for the voice)."""
    out = []
    for line in stdout.splitlines():
        for prefix in ("said: ", "announced: "):
            if line.startswith(prefix):
                out.append(line[len(prefix) :])
    return out


@pytest.mark.parametrize("language", ["en", "de", "it", "fr"])
def test_serve_speaks_every_sentence_in_order_in_the_players_language(
    tmp_path: Path, language: str
) -> None:
    standin = StandIn(tmp_path)
    preset(tmp_path / "data", language=language, volume=140, speed=185)
    done = serve(tmp_path / "data", standin, KEYS)
    assert done.returncode == 0, done.stderr[-2000:]
    sentences = printed_sentences(done.stdout)
    assert any(line.startswith("announced: ") for line in done.stdout.splitlines())
    calls = standin.calls()
    assert [call.text for call in calls] == sentences  # every sentence, in order
    assert {call.voice for call in calls} == {i18n.VOICES[language]}
    assert {(call.volume, call.speed) for call in calls} == {(140, 185)}  # the stored settings
    i18n.set_language(language)
    assert sentences[0] == i18n.tr("A new game.")  # in the players' language
    i18n.set_language("en")
    assert "trouble" not in done.stdout and "Traceback" not in done.stderr


def test_serve_says_once_that_the_voice_cannot_speak(tmp_path: Path) -> None:
    standin = StandIn(tmp_path, failing=True)  # espeak-ng there, but no sound device
    done = serve(tmp_path / "data", standin, "n\nc\n" * 5)
    assert done.returncode == 0, done.stderr[-2000:]
    troubles = [line for line in done.stdout.splitlines() if line.startswith("trouble: ")]
    assert troubles == [
        "trouble: The voice cannot speak: espeak-ng ended with code 1: no sound device"
    ]
    assert len(standin.calls()) == len(printed_sentences(done.stdout))  # it kept trying
    assert "the voice cannot speak" in done.stderr  # and the log says so


def test_serve_without_espeak_says_the_voice_is_not_installed(tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    done = subprocess.run(
        [PYTHON, "-m", "companion", "serve", "--data", str(tmp_path), "--play", "--keys"],
        input="n\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        env={**os.environ, "PATH": str(empty)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    troubles = [line for line in done.stdout.splitlines() if line.startswith("trouble: ")]
    assert len(troubles) == 1 and "espeak-ng is not installed" in troubles[0], done.stdout


def test_the_voice_reads_settings_on_the_callers_thread(tmp_path: Path) -> None:
    """SQLite objects belong to the thread that made them: the voice's worker never reads the
    store (it died on its first sentence when it did). A change applies to the next sentence."""
    standin = StandIn(tmp_path)
    with GameLog(tmp_path / "companion.db") as log, pytest.MonkeyPatch.context() as patch:
        for key, value in standin.env().items():
            patch.setenv(key, value)
        settings = Settings(log.db)
        problems: list[str | None] = []
        voice = SettingsVoice(settings, problems.append)
        voice.say("first", "en")
        settings.set("volume", 60)
        voice.say("zweiter", "de")
        settings.set("voice", False)
        voice.say("not spoken: the voice is off", "en")
        assert voice.idle(limit(10))
    calls = standin.calls()
    assert [(c.text, c.voice, c.volume) for c in calls] == [
        ("first", "en-gb", 100),
        ("zweiter", "de", 60),
    ]
    assert problems == [] and voice.problem is None
    assert voice.said[-1] == ("not spoken: the voice is off", "en")


class Told:
    def __init__(self) -> None:
        self.troubles: list[Troubles] = []

    def troubled(self, troubles: Troubles) -> None:
        self.troubles.append(troubles)

    def __getattr__(self, name: str) -> object:
        return lambda *args: None  # the other listener calls


def test_a_background_threads_error_is_logged_counted_and_shown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    earlier: list[str] = []  # the hook the service's chains to (another service's, say)
    monkeypatch.setattr(threading, "excepthook", lambda args: earlier.append(args.thread.name))
    posted: list[object] = []
    service = TableService(tmp_path, posted.append)
    told = Told()
    try:
        service.start(told)  # type: ignore[arg-type]

        def broken() -> None:
            raise ValueError("a reading nobody expected")

        with caplog.at_level(logging.ERROR):
            for _ in range(2):
                thread = threading.Thread(target=broken, name="bridge-reader")
                thread.start()
                thread.join()
        for call in posted:  # what the threads posted, run on the service's thread
            call()  # type: ignore[operator]
    finally:
        service.close()
    assert service.faults.count == 2
    last = told.troubles[-1]
    assert last.thread_faults == 2
    assert last.last_fault == ThreadFault("bridge-reader", "ValueError: a reading nobody expected")
    assert last.lines() == [
        "2 background tasks stopped with an error; the last: ValueError: a reading nobody expected"
    ]
    assert "the bridge-reader thread ended with an error" in caplog.text
    assert "a reading nobody expected" in caplog.text  # with its traceback
    assert earlier == ["bridge-reader", "bridge-reader"]  # chained, not replaced
    assert threading.excepthook is not service.faults._hook  # closed: the hook is given back


def test_the_app_speaks_every_sentence_in_every_language(tmp_path: Path) -> None:
    standin = StandIn(tmp_path)
    report = ui("speak", "40", data=tmp_path / "data", flags=("--voice",), env=standin.env())
    said = [tuple(pair) for pair in report["spoken"]]
    calls = standin.calls()
    assert [(c.text, c.voice) for c in calls] == [(t, i18n.VOICES[lang]) for t, lang in said]
    assert {lang for _t, lang in said} == {"en", "de", "it", "fr"}
    assert "strigoi_step" in report["announcements"]
    assert len(said) == len(report["announcements"])  # every announcement of the four games


def test_the_app_shows_on_settings_that_the_voice_cannot_speak(tmp_path: Path) -> None:
    standin = StandIn(tmp_path, failing=True)
    report = ui("settings", data=tmp_path / "data", flags=("--voice",), env=standin.env())
    assert "The voice cannot speak: espeak-ng ended with code 1: no sound device" in report["texts"]
