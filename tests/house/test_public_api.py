"""Each engine module states its public names (`__all__`), and the rest of the project — the
app, the UI, the tools, the tests — uses only those: no private name crosses a module's border
(issue 17)."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import ROOT

PACKAGES = ("companion", "firmware_bridge", "hardware", "ui", "tests", "benchmarks")


def sources() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "micropython" not in path.parts and "firmware" not in path.parts:
                yield path


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def engine_modules() -> list[str]:
    return [module_name(p) for p in sorted((ROOT / "companion" / "engine").rglob("*.py"))]


def test_every_engine_module_states_its_public_names() -> None:
    missing = [m for m in engine_modules() if "__all__" not in vars(importlib.import_module(m))]
    assert not missing, missing


def is_module(name: str) -> bool:
    """A module or package of this project (found by its file: nothing is imported)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def crossings(path: Path) -> Iterator[str]:
    """Private names this file takes from other modules, and engine names outside `__all__`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    aliases: dict[str, str] = {}  # local name -> module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "__future__":
                continue
            for alias in node.names:
                name = alias.name
                full = f"{node.module}.{name}"
                if is_module(full):
                    aliases[alias.asname or name] = full
                    continue
                if name.startswith("_"):
                    yield f"from {node.module} import {name}"
                elif node.module.startswith("companion.engine"):
                    public = getattr(importlib.import_module(node.module), "__all__", None)
                    if public is not None and name not in public:
                        yield f"from {node.module} import {name} (not in its __all__)"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and aliases[node.value.id].split(".")[0] in PACKAGES
        ):
            yield f"{aliases[node.value.id]}.{node.attr}"


def test_no_private_name_crosses_a_module_border() -> None:
    found = {path.relative_to(ROOT).as_posix(): sorted(set(crossings(path))) for path in sources()}
    found = {k: v for k, v in found.items() if v}
    assert not found, found


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from companion.engine.game.flow import _handle\n"
        "from companion.engine.game import queries as q\n"
        "q._secret\n"
        "from companion.engine.game.queries import Iterable\n"
    )
    assert sorted(crossings(probe)) == [
        "companion.engine.game.queries._secret",
        "from companion.engine.game.flow import _handle",
        "from companion.engine.game.queries import Iterable (not in its __all__)",
    ]


#: builtins a raise may name only through a subclass of the package's error root
BARE = {
    "ValueError",
    "KeyError",
    "TypeError",
    "RuntimeError",
    "LookupError",
    "IndexError",
    "Exception",
}


def bare_raises(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name) and target.id in BARE:
                yield f"line {node.lineno}: raise {target.id}"


def test_errors_raised_on_purpose_are_under_the_error_roots() -> None:
    """CompanionError for the companion, BridgeError for the bridge: a caller catches one root
    (the subclasses also inherit the builtin they resemble)."""
    found = {}
    for package in ("companion", "firmware_bridge", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "firmware" in path.relative_to(ROOT).parts[1:2]:
                continue  # MicroPython: its own, smaller world
            bare = list(bare_raises(path))
            if bare:
                found[path.relative_to(ROOT).as_posix()] = bare
    assert not found, found
