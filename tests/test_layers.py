"""The layers of ARCHITECTURE.md hold: imports only point downwards, and no module imports one
that imports it back (issue 17). Read from the sources, imports inside functions included for
the layers; only module-level imports make a cycle (a deferred import is how one is avoided)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

#: what each layer must never import (by module prefix)
FORBIDDEN = {
    "companion.engine": ("companion.app", "companion.store", "companion.transcript", "ui",
                         "firmware_bridge", "hardware", "companion.scenario"),
    "companion.store": ("companion.app", "ui", "firmware_bridge"),
    "companion.app": ("ui",),
    "firmware_bridge": ("companion", "ui"),
    "hardware.pi": ("ui",),
    # the UI sees only the table service (and the words): never the nodes, the store or pins
    "ui": ("firmware_bridge", "companion.store", "hardware"),
}  # fmt: skip
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


def test_imports_only_point_downwards() -> None:
    found = modules()
    wrong = []
    for name, path in found.items():
        for layer, banned in FORBIDDEN.items():
            if name == layer or name.startswith(layer + "."):
                wrong += [
                    f"{name} imports {m}" for m in imports(path, False) if m.startswith(banned)
                ]
    assert not wrong, wrong


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
