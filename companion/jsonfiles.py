"""The files a runner is given: each path itself, or a folder's `*.json` files (recursively,
sorted) — shared by the scenario runner and the transcript replay."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path


def json_files(paths: Iterable[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.json") if p.is_file())
        else:
            yield path
