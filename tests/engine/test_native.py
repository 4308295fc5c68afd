"""The engine compiled with mypyc: it builds and runs, plays the same games as pure Python, and a
build older than its sources never runs. When this checkout's build is missing or older than an
edit (pure Python is the default while developing), the tests build a copy of the sources."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import native
from tests.conftest import IN_CI
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # builds and plays games compiled and as pure Python

ROOT = native.ROOT

#: plays whole random games and prints a digest of every event of every game, then which
#: engine modules ran compiled
GAMES_DIGEST = """
import hashlib, random, msgspec
from companion import native
from companion.selfplay import HEROES, ladders_for
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide_in_place
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game

rules = GameRules(load_board_file(), load_catalog(), GameOptions())
digest = hashlib.sha256()
for seed in range(12):
    rng = random.Random(seed)
    players = 2 + seed % 4
    heroes = rng.sample(HEROES, players)
    started = new_game(rules, seed, list(zip(heroes, ladders_for(rules, players, rng))))
    digest.update(msgspec.json.encode(started))
    state = started_state(started)
    while state.phase != "over":
        for event in decide_in_place(rules, state, rng.choice(legal_commands(rules, state))):
            digest.update(msgspec.json.encode(event))
print(digest.hexdigest())
print(len(native.running()))
"""


def copy_package(target: Path, with_build: bool) -> Path:
    """The `companion` package in `target`, with or without the compiled modules."""
    skip = ["__pycache__"] if with_build else ["__pycache__", "*.so", "compiled.stamp"]
    shutil.copytree(ROOT / "companion", target / "companion", ignore=shutil.ignore_patterns(*skip))
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")  # mypyc reads its settings
    return target


@pytest.fixture(scope="module")
def compiled_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose `companion` runs compiled: this checkout when its build is current (CI,
    the Pi: ./setup.sh builds it), else a copy of the sources built here (about a minute)."""
    if native.state() == "compiled":
        return ROOT
    copy = copy_package(tmp_path_factory.mktemp("native"), with_build=False)
    built = subprocess.run(
        [sys.executable, "-m", "companion", "native", "build"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=limit(900),
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert built.stdout.strip().endswith("compiled engine: compiled"), built.stdout
    return copy


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # the working folder comes first on sys.path: its `companion` is the one imported
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=limit(600),
    )


def native_status(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "native", "status"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=limit(60),
    )


def test_the_engine_runs_compiled(compiled_root: Path) -> None:
    probe = (
        "import companion.engine.game.flow, companion.engine.movement\n"
        "from companion import native\n"
        "print(' '.join(native.running()))"
    )
    ran = run_python(probe, compiled_root)
    assert ran.returncode == 0, ran.stderr
    running = set(ran.stdout.split())
    assert {"companion.engine.game.flow", "companion.engine.movement"} <= running
    assert "companion.engine.game.rules.move" in running  # the task modules too


def test_ci_runs_the_build_setup_made() -> None:
    """In CI (and on the Pi) ./setup.sh builds the engine before the tests: it must be current."""
    if not IN_CI:
        pytest.skip("pure Python is the default while developing (./setup.sh test --fast)")
    assert native.state() == "compiled", "./setup.sh test builds the engine before testing"


def test_compiled_and_pure_python_play_identical_games(tmp_path: Path, compiled_root: Path) -> None:
    compiled = run_python(GAMES_DIGEST, compiled_root)
    pure = run_python(GAMES_DIGEST, copy_package(tmp_path, with_build=False))
    assert compiled.returncode == 0, compiled.stderr
    assert pure.returncode == 0, pure.stderr
    compiled_digest, compiled_modules = compiled.stdout.split()
    pure_digest, pure_modules = pure.stdout.split()
    assert int(compiled_modules) >= 5 and pure_modules == "0"
    assert compiled_digest == pure_digest


def test_a_build_older_than_its_sources_is_ignored(tmp_path: Path, compiled_root: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(
        compiled_root / "companion",
        copy / "companion",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    probe = "import companion.engine.movement as m; print(m.__file__)"
    fresh = run_python(probe, copy)
    assert fresh.stdout.strip().endswith(native.EXTENSION), fresh.stderr
    source = copy / "companion" / "engine" / "movement.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    stale = run_python(probe, copy)
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.strip() == str(source)
    assert "older than its sources and is ignored" in stale.stderr
    status = native_status(copy)
    assert status.stdout.strip() == "compiled engine: stale"


def test_without_a_build_the_sources_run(tmp_path: Path) -> None:
    copy = copy_package(tmp_path, with_build=False)
    status = native_status(copy)
    assert status.stdout.strip() == "compiled engine: pure"
    assert "ignored" not in status.stderr


def test_cobs_runs_its_c_extension() -> None:
    """setup.sh installs a compiler before pip: without one, cobs installs silently as pure
    Python (issue 19). The serial framing runs on every frame, so the C version matters."""
    import cobs.cobs

    assert cobs.cobs._using_extension, "cobs was installed without a C compiler: reinstall it"
