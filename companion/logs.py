"""The app's log on standard error, which systemd puts in the journal (the kiosk's unit sets
KIVY_LOG_MODE=PYTHON: Kivy's logger then hands its lines to Python's, and keeps no files of its
own under ~/.kivy/logs). Bounded: a line repeated (the same logger and message template) is
written at most `BURST` times a `WINDOW_S`, then held back and counted; the count is said with
the next line that gets through. journald's own limits (the unit's LogRateLimit*, its
SystemMaxUse) bound the rest."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

BURST = 5
WINDOW_S = 60.0
FORMAT = "%(levelname)s %(name)s: %(message)s"


class RepeatLimit(logging.Filter):
    """At most `burst` records of one (logger, template) a `window_s`; the rest are counted."""

    def __init__(
        self,
        burst: int = BURST,
        window_s: float = WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.window_s = window_s
        self.clock = clock
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}
        self.held = 0  # held back since the last line that got through

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        began, count = self._seen.get(key, (now, 0))
        if now - began >= self.window_s:
            began, count = now, 0
        self._seen[key] = (began, count + 1)
        if len(self._seen) > 1000:  # many different lines: forget the oldest windows
            self._seen = dict(list(self._seen.items())[-500:])
        if count >= self.burst:
            self.held += 1
            return False
        if self.held:
            record.msg = f"{record.msg} ({self.held} repeated lines held back before this one)"
            self.held = 0
        return True


def log_to_the_journal(level: int = logging.INFO) -> logging.Handler:
    """Python's root logger (and with it Kivy's, in PYTHON mode) to standard error, bounded;
    the handler (installed once)."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "armata_journal", False):
            return handler
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RepeatLimit())
    handler.armata_journal = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return handler
