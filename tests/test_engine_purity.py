"""companion/engine stays pure: no I/O, UI, hardware or database imports (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "companion" / "engine"
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
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_sources_import_nothing_forbidden() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) > 5
    for path in files:
        bad = imported_modules(path) & FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_engine_pulls_in_no_io_packages_at_runtime() -> None:
    code = (
        "import sys, pkgutil, importlib, companion.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__):\n"
        "    importlib.import_module('companion.engine.' + m.name)\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    for banned in ("kivy", "paho", "serial", "gpiozero", "sqlite3", "sqlite_utils"):
        assert banned not in loaded, f"importing the engine loads {banned}"
