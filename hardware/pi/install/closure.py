"""Run by another environment's python (`install --packages-from VENV`): print, as JSON, the
installed files and folders of every distribution the requirements on the command line need,
theirs included, for the new environment to link. Uses that environment's `packaging`."""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def closure(requirements: list[str]) -> list[Path]:
    seen: set[str] = set()
    found: set[Path] = set()
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        dist = metadata.distribution(requirement.name)
        site = Path(str(dist.locate_file("")))
        for file in dist.files or ():
            parts = Path(file).parts
            if parts and parts[0] != ".." and not parts[0].endswith(".pth"):
                found.add(site / parts[0])
        for extra_name in requirement.extras or {""}:
            todo += [(Requirement(r), extra_name) for r in dist.requires or ()]
    return sorted(p for p in found if p.exists())


if __name__ == "__main__":
    print(json.dumps([str(p) for p in closure(sys.argv[1:])]))
