"""Stopping cleanly when asked to: systemd's stop (SIGTERM), a closed terminal (SIGHUP), Ctrl+C.

Python's default for SIGTERM and SIGHUP ends the process at once: no `on_stop`, so the rings keep
showing the last game, the simulated board's pseudo-terminal folder stays in /tmp and the log is
closed by the OS instead of by us. The handler only asks the main loop to stop, and from a
thread of its own: a signal interrupts the main thread anywhere, even while it holds the lock of
the very queue the request goes into. The loop finishes its step and closes everything itself.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable

__all__ = ["STOP_SIGNALS", "stop_on_signals"]

#: What a kiosk, a service manager or a terminal sends to say "stop now, cleanly".
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def stop_on_signals(request_stop: Callable[[], None]) -> bool:
    """Call `request_stop` (once per signal) on each of STOP_SIGNALS. Only the main thread may
    set handlers: elsewhere (an app started by a test's thread) nothing changes and False is
    returned."""
    if threading.current_thread() is not threading.main_thread():
        return False

    def handle(_number: int, _frame: object) -> None:
        threading.Thread(target=request_stop, name="stop request", daemon=True).start()

    for number in STOP_SIGNALS:
        signal.signal(number, handle)
    return True
