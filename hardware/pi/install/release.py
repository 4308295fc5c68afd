"""A release beside the others: `releases/<version>` holds the source tree of that version,
its own Python environment (`.venv`), its compiled engine and its compiled translations. Only
the `current` link says which one runs (hardware/pi/install/layout.py)."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion.errors import InstallError
from hardware.pi.install import layout
from hardware.pi.install.system import System

#: the tree's parts a table does not run: the tests and their tools, caches, builds
LEFT_OUT = {
    ".git",
    ".venv",
    ".ci",
    "build",
    "dist",
    "tests",
    "benchmarks",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "compiled.stamp",
    "locale-compiled",
    layout.COMPLETE,
}
LEFT_OUT_SUFFIXES = (".pyc", ".so", ".partial")


@dataclass(frozen=True)
class Source:
    """A release's source tree (a clone or an unpacked archive)."""

    tree: Path
    version: str
    dependencies: tuple[str, ...]

    @classmethod
    def read(cls, tree: Path) -> Source:
        project = tree / "pyproject.toml"
        try:
            with project.open("rb") as file:
                data = tomllib.load(file)["project"]
            version = str(data["version"])
            dependencies = tuple(str(d) for d in data.get("dependencies", ()))
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
            raise InstallError(f"{project}: not the table's source tree ({exc})") from None
        if not version or "/" in version or version.startswith("."):
            raise InstallError(f"{project}: version {version!r} cannot name a release")
        return cls(tree, version, dependencies)

    def files(self) -> list[Path]:
        """The files a release holds, relative to the tree, sorted."""
        found = []
        for folder, dirs, names in os.walk(self.tree):
            dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT)
            for name in names:
                if name in LEFT_OUT or name.endswith(LEFT_OUT_SUFFIXES):
                    continue
                found.append((Path(folder) / name).relative_to(self.tree))
        return sorted(found)

    def digest(self) -> str:
        digest = hashlib.sha256()
        for relative in self.files():
            digest.update(str(relative).encode() + b"\0")
            digest.update((self.tree / relative).read_bytes())
        return digest.hexdigest()


def release_dir(version: str) -> str:
    return f"{layout.RELEASES}/{version}"


def marker(system: System, version: str) -> dict[str, str] | None:
    path = system.path(release_dir(version)) / layout.COMPLETE
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def place(system: System, source: Source) -> Path:
    """Copy the tree to releases/<version> unless the same tree is there; its folder."""
    target = system.path(release_dir(source.version))
    digest = source.digest()
    found = marker(system, source.version)
    if found is not None and found.get("digest") == digest:
        return target
    if target.resolve() == source.tree.resolve():
        raise InstallError(f"{source.tree} is the release folder itself: install from a copy")
    partial = target.with_name(f".{target.name}.partial")
    if partial.exists():
        shutil.rmtree(partial)
    for relative in source.files():
        copy = partial / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source.tree / relative, copy)
    if target.exists():  # the same version, other files: replaced whole
        system.say(f"release {source.version} differs from this tree: replacing it")
        shutil.rmtree(target)
    partial.rename(target)
    system.changed(f"placed release {source.version} in {release_dir(source.version)}")
    return target


def finish(system: System, source: Source) -> None:
    """The marker, written last: the release is whole."""
    text = json.dumps({"version": source.version, "digest": source.digest()}, indent=1) + "\n"
    system.write(f"{release_dir(source.version)}/{layout.COMPLETE}", text)


def venv_python(release: Path) -> Path:
    return release / ".venv" / "bin" / "python"


def ensure_environment(
    system: System, release: Path, source: Source, python: str, packages_from: Path | None
) -> None:
    """The release's own environment: its dependencies (from PyPI, or linked from an existing
    environment with `packages_from`: the tests, or a Pi without network that has one) and the
    release itself on its path. Its test tools are never installed (`[dev]` is not asked)."""
    py = venv_python(release)
    if not py.exists():
        system.run(python, "-m", "venv", release / ".venv")
        system.changed(f"created the environment {release.name}/.venv")
    key = hashlib.sha256("\n".join(source.dependencies).encode()).hexdigest()[:16]
    stamp = release / ".venv" / f".dependencies-{key}"
    site = Path(
        system.run(
            py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"
        ).stdout.strip()
    )
    if not stamp.exists():
        if packages_from is not None:
            link_packages(system, site, packages_from, source.dependencies)
        else:
            # lgpio's source (no aarch64 wheel for every Python) builds its bundled liblgpio
            # with PYPI=1, as its own wheels are built: Debian has no liblgpio to link against
            env = {"PYPI": "1"} if platform.machine() == "aarch64" else None
            system.run(py, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                       *source.dependencies, env=env)  # fmt: skip
        for old in stamp.parent.glob(".dependencies-*"):
            old.unlink()
        stamp.touch()
        system.changed(f"installed the Python packages of {source.version}")
    own = site / "armata-release.pth"
    line = f"{release.resolve()}\n"
    if not own.exists() or own.read_text() != line:
        own.write_text(line)


def link_packages(
    system: System, site: Path, environment: Path, requirements: tuple[str, ...]
) -> None:
    """Link the distributions `requirements` need (and theirs) from `environment` into `site`:
    exactly the runtime closure, so the test tools of that environment stay out."""
    helper = Path(__file__).with_name("closure.py")
    done = system.run(environment / "bin" / "python", helper, *requirements)
    for entry in json.loads(done.stdout):
        found = Path(entry)
        link = site / found.name
        if not link.exists() and not link.is_symlink():
            link.symlink_to(found)


def ensure_engine(system: System, release: Path, source: Path) -> None:
    """The engine compiled with mypyc (companion/native.py): carried over from the source tree
    or another release built from the same engine sources (minutes on a Pi), else built
    here."""
    py = venv_python(release)
    status = system.run(py, "-m", "companion", "native", "status", cwd=release).stdout
    if status.strip().endswith("compiled"):
        return
    fingerprint = system.run(
        py, "-c", "from companion import native; print(native.fingerprint())", cwd=release
    ).stdout.strip()
    for other in [source, *sorted(system.path(layout.RELEASES).iterdir())]:
        stamp = other / "companion" / "engine" / "compiled.stamp"
        if other == release or not stamp.is_file() or stamp.read_text().strip() != fingerprint:
            continue
        for built in other.joinpath("companion").rglob("*.so"):
            shutil.copy2(built, release / built.relative_to(other))
        shutil.copy2(stamp, release / stamp.relative_to(other))
        system.changed(f"carried the compiled engine over from {other.name}")
        return
    system.say("compiling the engine (mypyc; a few minutes, longer on a Pi 3)")
    system.run(py, "-m", "companion", "native", "build", cwd=release)
    system.changed(f"compiled the engine of {release.name}")


def ensure_catalogs(system: System, release: Path) -> None:
    """The translations compiled into the release (companion/app/words/i18n.py reads them there)."""
    done = system.run(
        venv_python(release),
        "-c",
        "from companion.app.words.i18n import compile_installed; print(compile_installed())",
        cwd=release,
    )
    if done.stdout.strip() not in ("", "0"):
        system.changed(f"compiled {done.stdout.strip()} translation catalogs of {release.name}")


def check_runs(system: System, release: Path, source: Source) -> None:
    said = system.run(venv_python(release), "-m", "companion", "--version", cwd=release)
    if said.stdout.split()[-1:] != [source.version]:
        raise InstallError(
            f"release {source.version} says it is {said.stdout.strip()!r}: its tree is damaged"
        )


def installer_python() -> str:
    """The interpreter the environments are made from: the system's (the one running this)."""
    return getattr(sys, "_base_executable", None) or sys.executable
