"""companion/engine stays pure: no I/O, UI, hardware or database imports, and no chance or clock
outside the one seeded source (ARCHITECTURE.md). Every module of the package is checked, at any
depth, and it imports nothing from the layers above it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"
FORBIDDEN = {
    "kivy",
    "paho",
    "serial",
    "gpiozero",
    "sqlite3",
    "sqlite_utils",
    "socket",
    "subprocess",
    "os",
    "io",
    "pathlib",
    "json",
    "threading",
    "asyncio",
    "urllib",
    "http",
    "shutil",
    "tempfile",
    "importlib",
    "logging",
    "random",
    "time",
    "datetime",
    "secrets",
    "uuid",
}
#: the only exceptions, each for one reason
ALLOWED = {
    # the one source of chance: generators seeded from the game's seed and draw count
    "game/seeded.py": {"random"},
    # the package's public names load on first use (no import cycle through the package)
    "game/__init__.py": {"importlib"},
}
#: what the engine may import from this project: itself and the error root, nothing above
PROJECT_ALLOWED = ("companion.engine", "companion.errors")


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_every_engine_module_is_checked() -> None:
    files = engine_files()
    nested = [p for p in files if len(p.relative_to(ENGINE).parts) > 2]
    assert len(files) > 40 and nested, "the walk reaches companion/engine/game/rules/"


def test_engine_sources_import_nothing_forbidden() -> None:
    for path in engine_files():
        name = path.relative_to(ENGINE).as_posix()
        top = {module.split(".")[0] for module in imports(path)}
        bad = top & FORBIDDEN - ALLOWED.get(name, set())
        assert not bad, f"companion/engine/{name} imports {sorted(bad)}"


def test_engine_imports_nothing_above_it() -> None:
    for path in engine_files():
        name = path.relative_to(ENGINE).as_posix()
        ours = {
            m
            for m in imports(path)
            if m.split(".")[0] in ("companion", "ui", "firmware_bridge", "hardware")
        }
        above = {m for m in ours if not m.startswith(PROJECT_ALLOWED)}
        assert not above, f"companion/engine/{name} imports {sorted(above)}"


def test_the_forbidden_check_sees_nested_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    import random\n    from os import path\n")
    assert {"random", "os"} <= imports(probe)


def test_engine_pulls_in_no_io_packages_at_runtime() -> None:
    code = (
        "import sys, pkgutil, importlib, companion.engine as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'companion.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "companion.engine.game.rules.move" in loaded  # the walk went all the way down
    for banned in ("kivy", "paho", "serial", "gpiozero", "sqlite3", "sqlite_utils"):
        assert banned not in loaded, f"importing the engine loads {banned}"
    assert not any(m.startswith(("companion.app", "companion.store", "ui.")) for m in loaded)
