"""The touchscreen outlives a moment without files (issue 38).

When the process runs out of open files or memory for a moment (a flood on the phones' server
before its caps, a leak elsewhere), Kivy's next redraw cannot open its font and raises from its
clock, which ends the app mid-game. Such an error is passing: the handler below logs it (the
traceback once, then one counted line now and then), tells the table service (the Hardware
screen counts it) and lets the frame go; the next frame draws again. Any other error still ends
the app as before — its state may be wrong, and the kiosk's restart resumes the game from its
log — so a bug is never hidden behind a running screen."""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable

from kivy.base import ExceptionHandler, ExceptionManager

log = logging.getLogger(__name__)

#: how often a run of passing errors is said again in the log
REPORT_S = 30.0
EXHAUSTED = (errno.EMFILE, errno.ENFILE, errno.ENOMEM)

#: told of each survived error: (where, the error)
OnSurvived = Callable[[str, BaseException], None]


def is_exhaustion(error: BaseException) -> bool:
    """An error of a process out of files or memory (Kivy's font loader says so in a
    ValueError: "Couldn't open …: Too many open files")."""
    if isinstance(error, OSError) and error.errno in EXHAUSTED:
        return True
    if isinstance(error, MemoryError):
        return True
    return "Too many open files" in str(error)


class RedrawFaults(ExceptionHandler):  # type: ignore[misc]
    def __init__(self, on_survived: OnSurvived) -> None:
        super().__init__()
        self.on_survived = on_survived
        self.survived = 0
        self._said = float("-inf")
        self._unsaid = 0

    def handle_exception(self, inst: BaseException) -> int:
        if not is_exhaustion(inst):
            return int(ExceptionManager.RAISE)
        self.survived += 1
        now = time.monotonic()
        if now - self._said >= REPORT_S:
            self._said = now
            log.error(
                "a redraw failed for want of files or memory (%d more since the last report); "
                "the game goes on",
                self._unsaid,
                exc_info=inst if self._unsaid == 0 else None,
            )
            self._unsaid = 0
        else:
            self._unsaid += 1
        self.on_survived("the touchscreen's redraw", inst)
        return int(ExceptionManager.PASS)

    def install(self) -> None:
        if self not in ExceptionManager.handlers:
            ExceptionManager.add_handler(self)

    def uninstall(self) -> None:
        if self in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self)


__all__ = ["RedrawFaults", "is_exhaustion"]
