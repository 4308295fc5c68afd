"""Giving freed memory back to the system while the table is idle.

A game churns through widgets, label textures and (under a software renderer) GL buffers; glibc
keeps what was freed in its heap for reuse, so the resident size only grows. `malloc_trim`
returns the free pages; it takes a few milliseconds, so the app calls it once the table has
been idle for a moment, never between a tap and what it shows. Elsewhere than glibc: nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
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


def release_free_memory() -> bool:
    """True when the C library gave memory back."""
    return _TRIM is not None and bool(_TRIM(0))
