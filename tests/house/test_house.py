"""The house keeps its rooms (issue 39, item 3): modules that fit on a screen, folders a reader can
take in, and threads started only where ARCHITECTURE.md names them. Today's exceptions are listed
with their sizes; each may only shrink, and leaves the list once it fits."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

#: the most lines a module holds (product, tests, benchmarks)
MAX_LINES = 600
#: the most Python modules directly in one folder
MAX_MODULES = 20
#: modules over MAX_LINES today, with their size when the check came: never to grow
TOO_LONG = {
    "companion/transcript/steps.py": 629,
    "ui/screens/round/screen.py": 696,
    "tests/ui_driver/driver.py": 706,
    "ui/app.py": 810,
    "companion/app/board/geometry.py": 839,
    "tests/app/test_sentences.py": 979,
    "tests/ui/test_ui.py": 1061,
    "companion/app/service.py": 1104,
}
#: folders over MAX_MODULES: the rules' registry is one module per kind of task by design
#: (ARCHITECTURE.md), and the game package beside it; the others only shrink
CROWDED = {
    "companion/engine/game/rules": None,  # one module per kind: as many as the rules have
    "companion/engine/game": 21,
}
#: where a thread may start (ARCHITECTURE.md: every app thread starts in devices/): the
#: devices, the bridge's transports and simulator, the phones' server, the headless table's
#: keyboard and the stop request of a signal
THREAD_PLACES = (
    "companion/app/devices/",
    "firmware_bridge/",
    "ui/web/server.py",
    "companion/app/headless.py",
    "companion/app/stopping.py",
)
PRODUCT = ("companion", "ui", "firmware_bridge", "hardware")


def python_files(*tops: str) -> list[Path]:
    """The project's Python modules (the MicroPython firmware included: it has a size too)."""
    found = []
    for top in tops:
        found += [p for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(found)


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_modules_fit_on_a_screen() -> None:
    lines = {relative(p): len(p.read_text().splitlines()) for p in python_files(
        *PRODUCT, "tests", "benchmarks")}  # fmt: skip
    grown = {path: (n, TOO_LONG.get(path, MAX_LINES)) for path, n in lines.items()
             if n > max(MAX_LINES, TOO_LONG.get(path, 0))}  # fmt: skip
    assert not grown, f"over {MAX_LINES} lines or grown past the recorded size: {grown}"
    fitting = sorted(path for path, size in TOO_LONG.items() if lines.get(path, 0) <= MAX_LINES)
    assert not fitting, f"now within {MAX_LINES} lines (or gone): take them off TOO_LONG"


def test_folders_hold_few_modules() -> None:
    counts: dict[str, int] = {}
    for path in python_files(*PRODUCT, "tests", "benchmarks"):
        folder = relative(path.parent)
        counts[folder] = counts.get(folder, 0) + 1
    crowded = {folder: n for folder, n in counts.items()
               if n > MAX_MODULES and folder not in CROWDED}  # fmt: skip
    assert not crowded, crowded
    grown = {folder: (counts.get(folder, 0), most) for folder, most in CROWDED.items()
             if most is not None and counts.get(folder, 0) > most}  # fmt: skip
    assert not grown, grown
    roomy = sorted(f for f, most in CROWDED.items() if counts.get(f, 0) <= MAX_MODULES)
    assert not roomy, f"now within {MAX_MODULES} modules: take them off CROWDED"


def thread_starts(path: Path) -> list[int]:
    """The lines that make a thread (threading.Thread or Timer, a thread pool)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called.split(".")[-1] in ("Thread", "Timer", "ThreadPoolExecutor"):
                found.append(node.lineno)
    return found


def test_threads_start_only_where_named() -> None:
    product = [p for p in python_files(*PRODUCT) if "firmware" not in p.parts[-3:-1]]
    elsewhere = {relative(p): lines for p in product if (lines := thread_starts(p))
                 and not relative(p).startswith(THREAD_PLACES)}  # fmt: skip
    assert not elsewhere, elsewhere
    # read right: the devices' workers are found
    assert thread_starts(ROOT / "companion/app/devices/voice.py")


def test_the_checks_see_a_screen_that_starts_a_thread(tmp_path: Path) -> None:
    """What the thread check reads: a Timer or a Thread in a screen is found."""
    screen = tmp_path / "screen.py"
    screen.write_text(
        "import threading\n"
        "def later(step):\n"
        "    threading.Timer(1.0, step).start()\n"
        "    threading.Thread(target=step).start()\n"
    )
    assert thread_starts(screen) == [3, 4]
