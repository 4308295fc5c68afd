"""`expect` is matched as a subset of the result (SCENARIOS.md): objects recursively, lists and
plain values exactly. JSON types are kept apart: `true` never equals `1`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "(missing)"})()


@dataclass(frozen=True)
class Mismatch:
    key: str
    expected: Any
    got: Any


def same(a: Any, b: Any) -> bool:
    """Exact JSON equality: bool is not a number, 1 equals 1.0, lists in order, objects by key."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def mismatches(expected: Any, got: Any, key: str = "") -> list[Mismatch]:
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [Mismatch(key, expected, got)]
        found: list[Mismatch] = []
        for name, value in expected.items():
            path = f"{key}.{name}" if key else name
            if name not in got:
                found.append(Mismatch(path, value, MISSING))
            else:
                found.extend(mismatches(value, got[name], path))
        return found
    return [] if same(expected, got) else [Mismatch(key, expected, got)]
