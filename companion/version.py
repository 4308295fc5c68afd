"""The app's version, from one place: `version` in the release's pyproject.toml.

A release is its source tree (hardware/pi/README.md): pyproject.toml sits beside the packages,
so the version shown is the one of the code that runs, whatever the environment's metadata says
(an environment can serve several trees). Without the file (an installed wheel) the installed
distribution's metadata says it.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.version import InvalidVersion, Version

from companion.errors import VersionError

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "armata-companion"


@functools.cache
def version() -> str:
    """This release's version, e.g. "0.2.0"."""
    return read_version(ROOT)


def read_version(tree: Path) -> str:
    """The version of the source tree at `tree` (its pyproject.toml), checked (PEP 440)."""
    project = tree / "pyproject.toml"
    if project.is_file():
        try:
            with project.open("rb") as file:
                text = str(tomllib.load(file)["project"]["version"])
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
            raise VersionError(f"{project}: no project version: {exc}") from None
    else:
        try:
            text = metadata.version(DISTRIBUTION)
        except metadata.PackageNotFoundError:
            raise VersionError(f"{tree}: no pyproject.toml and no installed metadata") from None
    parse(text)
    return text


def parse(text: str) -> Version:
    """A version as packaging compares them; `VersionError` when it is not one."""
    try:
        return Version(text)
    except InvalidVersion:
        raise VersionError(f"not a version: {text!r}") from None
