"""Releases made here for the install and update tests: a copy of this tree's release files
(what hardware/pi/install places) with its own version, and optionally a schema migration of
its own or a fault at the kiosk's start."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from hardware.pi.install.release import Source
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit
from tests.support.standins.pi_standins import StandIns

#: the migration a "newer" release adds (product/test_pi_update.py): a table the older one does
#: not know, so the older one finds the log too new after it ran
MIGRATION = """

@migrations()
def m900_table_notes(db: Database) -> None:
    db["table_notes"].create({"id": int, "text": str}, pk="id")  # type: ignore[union-attr]
"""
#: the faults a release can be made with: its screen cannot start (after its checks passed),
#: or its random games fail (the update's check)
BROKEN = {
    "start": ("ui/app.py", '\nraise RuntimeError("this release cannot start its screen")\n'),
    "check": ("companion/selfplay.py", '\nraise RuntimeError("this release cannot play")\n'),
}


def make_tree(
    folder: Path, version: str, *, migration: bool = False, broken: str | None = None,
    engine_from: Path | None = None,
) -> Path:  # fmt: skip
    """A release tree of `version` in `folder`; `engine_from`: a tree whose compiled engine
    (same sources) is copied in, as a clone after `./setup.sh test` has one."""
    if folder.exists():
        shutil.rmtree(folder)
    for relative in Source(ROOT, "", ()).files():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target)
    project = folder / "pyproject.toml"
    text = re.sub(r'(?m)^version = ".*"$', f'version = "{version}"', project.read_text(), count=1)
    project.write_text(text)
    if migration:
        schema = folder / "companion" / "store" / "schema.py"
        schema.write_text(schema.read_text() + MIGRATION)
    if broken is not None:
        relative, fault = BROKEN[broken]
        module = folder / relative
        module.write_text(module.read_text() + fault)
    if engine_from is not None:
        for built in (engine_from / "companion").rglob("*.so"):
            shutil.copy2(built, folder / built.relative_to(engine_from))
        stamp = Path("companion/engine/compiled.stamp")
        shutil.copy2(engine_from / stamp, folder / stamp)
    return folder


def make_archive(tree: Path, folder: Path) -> Path:
    """The release archive of `tree` as `python -m hardware.pi.release` makes it."""
    done = subprocess.run(
        [PYTHON, "-S", "-m", "hardware.pi.release", "--out", str(folder)],
        cwd=tree, capture_output=True, text=True, timeout=limit(120),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [archive] = [Path(line) for line in done.stdout.split()]
    with tarfile.open(archive) as opened:
        assert all(not m.name.startswith(("/", "..")) for m in opened.getmembers())
    return archive


#: the environment whose packages the staged releases link (the one running the tests)
PACKAGES = Path(sys.prefix)


def install(
    tree: Path, root: Path, standins: StandIns, *options: str
) -> subprocess.CompletedProcess[str]:
    """`hardware/pi/install.sh` of `tree` into the staging `root`, as the Pi's python3 runs it
    (`-S`: the standard library only), the packages linked from this environment."""
    return subprocess.run(
        [PYTHON, "-S", "-m", "hardware.pi.install", "--root", str(root),
         "--packages-from", str(PACKAGES), *options],
        cwd=tree, env=standins.env(), capture_output=True, text=True, timeout=limit(900),
    )  # fmt: skip


def release_python(root: Path) -> Path:
    return root / "opt" / "armata-companion" / "current" / ".venv" / "bin" / "python"


def snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    """Every file, folder and link under `root`: kind, mode, size, mtime and content digest."""
    import hashlib

    found: dict[str, tuple[object, ...]] = {}
    for folder, dirs, names in os.walk(root):
        for name in [*dirs, *names]:
            path = Path(folder) / name
            info = path.lstat()
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = ("dir", info.st_mode)
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found[key] = ("file", info.st_mode, info.st_mtime_ns, digest)
    return found


#: the compiled engine of this tree's sources, kept between runs (its key: the sources'
#: fingerprint, companion/native.py): a mypyc build takes minutes on this shared machine
ENGINE_CACHE = Path(tempfile.gettempdir()) / "armata-test-engine"


def _engine_key() -> str:
    from companion import native

    return native.fingerprint()[:24]


def keep_engine(tree: Path) -> None:
    """Keep the compiled engine of `tree` (built from this tree's sources) for later tests."""
    target = ENGINE_CACHE / _engine_key()
    if target.exists():
        return
    partial = Path(tempfile.mkdtemp(dir=ENGINE_CACHE.parent, prefix=".armata-test-engine-"))
    for built in [*(tree / "companion").rglob("*.so"), tree / "companion/engine/compiled.stamp"]:
        copy = partial / built.relative_to(tree)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, copy)
    ENGINE_CACHE.mkdir(exist_ok=True)
    with contextlib.suppress(OSError):  # another worker kept it first
        partial.rename(target)
    shutil.rmtree(partial, ignore_errors=True)


def compiled_engine(scratch: Path) -> Path:
    """A folder holding this tree's engine compiled (built here once, with the real
    `python -m companion native build`, then kept)."""
    target = ENGINE_CACHE / _engine_key()
    if not (target / "companion/engine/compiled.stamp").is_file():
        tree = make_tree(scratch / "engine-build", "0.0.0")
        done = subprocess.run(
            [PYTHON, "-m", "companion", "native", "build"],
            cwd=tree, capture_output=True, text=True, timeout=limit(1200),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        keep_engine(tree)
    return target


def play_games(log_path: Path, games: int = 3) -> dict[str, str]:
    """`games` games stored in the log at `log_path` (a few dozen moves each, one left
    unfinished); their transcripts by id."""
    from companion.app.session.game import GameSession
    from companion.store.gamelog import GameLog

    log_path.parent.mkdir(parents=True, exist_ok=True)
    with GameLog(log_path) as log:
        for n in range(games):
            session = GameSession.start(log, 10 + n, [("roel", "L1"), ("matthew", "L2")])
            for _ in range(15 + 10 * n):
                legal = session.legal_commands()
                if not legal:
                    break
                session.execute(legal[0])
    return exports(log_path)


def exports(log_path: Path) -> dict[str, str]:
    """Every game of the log as its transcript (read-only)."""
    from companion.store.gamelog import GameLog
    from companion.transcript import dumps, export_game

    with GameLog(log_path, read_only=True) as log:
        return {g.id: dumps(export_game(log, g.id)) for g in log.games()}
