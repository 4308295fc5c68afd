"""Python's cycle collector, run on Kivy's thread only.

CPython collects when an allocation takes its counters over their thresholds, on whichever
thread made it: the table watch, a serial reader, the web server's, the simulated hands. What
is garbage then is freed there, and the app's garbage is mostly Kivy's (every widget, canvas
and texture sits in a reference cycle): their deallocation, Kivy's bookkeeping of GL names and
canvases and their weak references' callbacks then run on a thread Kivy does not expect, at
any point of that thread's work. Kivy's objects belong to its thread. So while the app runs
the automatic collector is off and `MainThreadCollector` makes the same collections itself, at
each frame on Kivy's clock: the same thresholds and generations, only never elsewhere.

(The idle release after a game, ui/memory.py, makes a full collection too, on the same clock.)
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any


def due_generation(count: Sequence[int], threshold: Sequence[int]) -> int | None:
    """The generation CPython would collect at these counts (`gc.get_count()`) and thresholds
    (`gc.get_threshold()`): the oldest one past its threshold, once the youngest is; None when
    none is due. (CPython also puts a full collection off while few objects became
    long-lived since the last one; Python does not show that figure, so a full collection
    comes when its counter says so.)"""
    if threshold[0] == 0 or count[0] <= threshold[0]:
        return None
    oldest = 0
    for generation in range(1, len(threshold)):
        if count[generation] > threshold[generation]:
            oldest = generation
    return oldest


class MainThreadCollector:
    """The automatic collector off; its collections made on Kivy's clock, frame by frame."""

    def __init__(self) -> None:
        self._event: Any = None
        self._was_enabled = False

    @property
    def running(self) -> bool:
        return self._event is not None

    def start(self) -> MainThreadCollector:
        """Call on Kivy's thread (`App.build`), before other threads start."""
        from kivy.clock import Clock  # here: `due_generation` is read without Kivy

        if self._event is None:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self._event = Clock.schedule_interval(self.collect_if_due, 0)
        return self

    def stop(self) -> None:
        """The automatic collector back as it was (idempotent)."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
            if self._was_enabled:
                gc.enable()

    def collect_if_due(self, _dt: float = 0) -> int | None:
        """One collection when the counters say so; the generation collected, or None."""
        generation = due_generation(gc.get_count(), gc.get_threshold())
        if generation is not None:
            gc.collect(generation)
        return generation
