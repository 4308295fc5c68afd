"""The engine's busiest modules compiled to C with mypyc, and a guard against stale builds.

mypyc (part of mypy) turns fully type-annotated modules into C extensions; the same sources run
as plain Python when no build is there. A whole random game runs about 1.2x faster compiled
(`benchmarks/game.py` prints both). The extensions are built in place, next to their sources, so
Python's import system prefers them to the `.py` files; `STAMP` records what they were built
from. On every start (`companion/__init__.py` calls `guard`) the sources are checked against the
stamp: when any changed since the build, the compiled modules are ignored and the sources run,
so an edited rule can never be shadowed by an old build.

    python -m companion native build    # compile when the sources changed (./setup.sh does this)
    python -m companion native status   # compiled, stale, or pure Python
    python -m companion native clean    # remove the build: pure Python from then on
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import logging
import os
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Literal

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
#: the modules that run on every command (the move search, the rules interpreter, the legal
#: listing, the Strigoi step); data modules built on msgspec structs cannot be compiled
MODULES = (
    "companion.engine.cellbits",
    "companion.engine.collapse",
    "companion.engine.fortress",
    "companion.engine.hexgrid",
    "companion.engine.movement",
    "companion.engine.sight",
    "companion.engine.situation",
    "companion.engine.strigoi",
    "companion.engine.game.context",
    "companion.engine.game.emitter",
    "companion.engine.game.queries",
    "companion.engine.game.effects",
    "companion.engine.game.corrections",
    *(
        f"companion.engine.game.rules.{name}"
        for name in (
            "base",
            "choices",
            "own_turn",
            "abilities",
            "choose",
            "counterattack",
            "curse",
            "encounter",
            "end_round",
            "end_turn",
            "escape",
            "fight",
            "fight_choice",
            "marker",
            "monk",
            "move",
            "protect",
            "relocate",
            "reward_draw",
            "shock",
            "start_turn",
            "stealth_choice",
            "strigoi",
            "strigoi_resolve",
            "wound_draw",
            "wounds",
        )
    ),
    "companion.engine.game.registry",
    "companion.engine.game.flow",
    "companion.engine.game.legal",
)
#: the shared library all compiled modules link to (`companion/engine/compiled__mypyc*.so`)
GROUP = "companion.engine.compiled"
STAMP = ROOT / "companion" / "engine" / "compiled.stamp"
BUILD_DIR = ROOT / "build" / "native"
EXTENSION = sysconfig.get_config_var("EXT_SUFFIX") or ".so"

State = Literal["compiled", "stale", "pure"]


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def compiled_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_name(module.split(".")[-1] + EXTENSION)


def fingerprint() -> str:
    """What a build depends on: every compiled module's source and this interpreter's ABI."""
    digest = hashlib.sha256(EXTENSION.encode())
    for module in MODULES:
        digest.update(module.encode())
        digest.update(source_path(module).read_bytes())
    return digest.hexdigest()


def state() -> State:
    """ "compiled": a build of the current sources is in place; "stale": a build of other
    sources is (it is ignored, see `guard`); "pure": no build."""
    built = [compiled_path(m).exists() for m in MODULES]
    if not any(built):
        return "pure"
    fresh = all(built) and STAMP.exists() and STAMP.read_text().strip() == fingerprint()
    return "compiled" if fresh else "stale"


def running() -> list[str]:
    """The compiled modules this process actually imported as extensions."""
    return [
        name
        for name in MODULES
        if (module := sys.modules.get(name)) is not None
        and str(getattr(module, "__file__", "")).endswith(EXTENSION)
    ]


class _SourcesOnly(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their `.py` files (a stale build stays unused)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def guard() -> State:
    """Called before any engine module is imported: ignore a stale build, say so once."""
    now = state()
    if now == "stale" and not any(isinstance(f, _SourcesOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesOnly())
        log.warning(
            "the compiled engine is older than its sources and is ignored (pure Python runs); "
            "rebuild with `python -m companion native build` or ./setup.sh"
        )
    return now


def clean() -> None:
    STAMP.unlink(missing_ok=True)
    for module in MODULES:
        compiled_path(module).unlink(missing_ok=True)
    compiled_path(GROUP + "__mypyc").unlink(missing_ok=True)


def build() -> None:
    """Compile `MODULES` in place, from scratch (about a minute); callers skip it when `state()`
    is already "compiled"."""
    from mypyc.build import mypycify  # the build needs mypy; running the result does not
    from setuptools import Distribution  # type: ignore[import-untyped, unused-ignore]

    os.chdir(ROOT)  # mypyc reads the project's mypy settings and writes paths from here
    clean()
    began = time.monotonic()
    paths = [str(source_path(m).relative_to(ROOT)) for m in MODULES]
    # the project's mypy settings warn about sections for other packages; here that is no error
    extensions = mypycify(
        ["--no-warn-unused-configs", *paths],
        opt_level="3",
        group_name=GROUP,
        target_dir=str(BUILD_DIR),
    )
    # a bare Distribution: `setup()` would read pyproject.toml, which is not a build recipe here
    dist = Distribution({"name": "armata-compiled-engine", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = str(BUILD_DIR / "temp")
    command.build_lib = str(BUILD_DIR / "lib")
    dist.run_command("build_ext")
    STAMP.write_text(fingerprint() + "\n")
    log.info("compiled %d engine modules in %.0f s", len(MODULES), time.monotonic() - began)
