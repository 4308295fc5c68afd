"""Giving freed memory back to the system while the table is idle.

A game churns through widgets, label textures and (under a software renderer) GL buffers; glibc
keeps what was freed in its heap for reuse, so the resident size only grows. `malloc_trim`
returns the free pages; it takes a few milliseconds, so the app calls it once the table has
been idle for a moment, never between a tap and what it shows. Elsewhere than glibc: nothing.

What a game leaves when it ends (its screens' widgets, its states and announcements) is mostly
held in reference cycles (every Kivy widget is in some), which Python's collector frees only
when its allocation counters say so, often long after the idle trim: their memory was then
never given back, and each game's added to the resident size (about 1 MB a game, measured by
benchmarks/ui.py). After a game the trim first collects them (`collect`; tens of milliseconds,
so only then, while the table is idle).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


_TRIM = _malloc_trim()


def release_free_memory(collect: bool = False) -> bool:
    """True when the C library gave memory back; `collect`: free the unreachable cycles first."""
    if collect:
        gc.collect()
    return _TRIM is not None and bool(_TRIM(0))
