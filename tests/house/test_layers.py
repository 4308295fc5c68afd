"""The layers of ARCHITECTURE.md hold: import-linter's contracts in pyproject.toml (issue 39),
and no module imports one that imports it back (issue 17). Read from the sources, imports inside
functions included; only module-level imports make a cycle (a deferred import avoids one)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("companion", "firmware_bridge", "hardware", "ui")


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "firmware" not in path.relative_to(ROOT).parts[1:2]:  # MicroPython, apart
                found[module_of(path)] = path
    return found


def imports(path: Path, top_level_only: bool) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = list(ast.walk(tree)) if not top_level_only else list(_module_level(tree.body))
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _module_level(body: list[ast.stmt]):  # type: ignore[no-untyped-def]
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue  # for type checkers only
        if isinstance(node, ast.Try | ast.If):
            yield from _module_level(node.body)
        else:
            yield node


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's check of the contracts in pyproject.toml, on the sources under `root`."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_contracts_hold() -> None:
    """The layers (ui over the service over web | devices over the players' files over the
    stories, the session, the words, the table and board, the log and the rules) and the
    forbidden imports of pyproject.toml's [tool.importlinter], every import counted."""
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout or "broken" not in result.stdout.split("Contracts:")[-1]


@pytest.mark.parametrize(
    ("where", "back_import", "broken"),
    [
        # deferred, inside a function: how the old circles hid from a module-level reading
        ("companion/app/board/back_door.py",
         "def tell() -> None:\n    from companion.app.service import TableService  # noqa\n",
         "companion.app.board is not allowed to import companion.app.service"),
        # for the type checker only
        ("companion/app/words/back_door.py",
         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
         "    from companion.app.story.cards import Card  # noqa\n",
         "companion.app.words is not allowed to import companion.app.story"),
        ("companion/app/web/back_door.py", "import companion.app.devices.usb  # noqa\n",
         "companion.app.web is not allowed to import companion.app.devices"),
        ("companion/engine/back_door.py", "import sqlite_utils  # noqa\n",
         "companion.engine is not allowed to import sqlite_utils"),
    ],
)  # fmt: skip
def test_a_back_import_breaks_a_contract(
    tmp_path: Path, where: str, back_import: str, broken: str
) -> None:
    """The same check on a copy of the sources with one import added against the layers: it
    fails, naming the layers it crossed."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "locale*", "static", "firmware")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    assert lint_imports(tmp_path).returncode == 0  # the copy alone keeps them
    (tmp_path / where).write_text(back_import)
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    assert broken in result.stdout, result.stdout


def test_the_web_server_imports_only_companion_app() -> None:
    """ui/web, like the Kivy UI, reaches the game only through companion.app (the table
    service's feed and the words): never the engine, the log, the bridge, Kivy or the screens.
    Every import of the project's own packages is checked, deferred ones included."""
    found = modules()
    web = {name: path for name, path in found.items() if name.startswith("ui.web")}
    assert {"ui.web", "ui.web.server"} <= set(web)
    own = ("companion", "firmware_bridge", "hardware", "ui", "kivy", "tests")
    wrong = [
        f"{name} imports {m}"
        for name, path in web.items()
        for m in imports(path, False)
        if m.split(".")[0] in own
        and not m.startswith(("companion.app.", "ui.web."))
        and m not in ("companion.app", "ui.web")
    ]
    assert not wrong, wrong


def test_no_import_cycles() -> None:
    found = modules()
    graph = {
        name: {m for m in imports(path, True) if m in found and m != name}
        for name, path in found.items()
    }
    # a package's __init__ is imported with each of its modules; it may name its own modules
    for name in graph:
        graph[name] = {m for m in graph[name] if not name.startswith(m + ".")}
    assert "companion.engine.game.registry" in graph["companion.engine.game.flow"]  # read right
    seen: dict[str, int] = {}  # 1: on the path, 2: done
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        seen[node] = 1
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt] if nxt in path else [node, nxt])
            elif nxt not in seen:
                visit(nxt, [*path, nxt])
        seen[node] = 2

    for start in sorted(graph):
        if start not in seen:
            visit(start, [start])
    assert not cycles, cycles[:5]
