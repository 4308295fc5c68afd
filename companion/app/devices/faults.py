"""Background threads never die silently: every exception that ends a thread (the bridge's, the
table watch's, paho's, gpiozero's, the voice's) is logged with its traceback, counted and told
to the table service, which shows it (the Hardware screen, the headless table's output).

`threading.excepthook` is process-wide; `ThreadFaults.install` chains to the hook it replaces,
so two services in one process (tests) both hear of a fault, and `uninstall` puts the earlier
hook back when this one is still the current hook."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ThreadFault:
    """One exception that ended a background thread."""

    thread: str
    error: str  # "ValueError: bad value"


#: Told (on the failing thread, just before it ends) of each fault.
OnFault = Callable[[ThreadFault], None]


class ThreadFaults:
    def __init__(self, on_fault: OnFault) -> None:
        self.on_fault = on_fault
        self.count = 0
        self.last: ThreadFault | None = None
        self._lock = threading.Lock()
        self._previous: Callable[[threading.ExceptHookArgs], object] | None = None

    def install(self) -> None:
        if self._previous is None:
            self._previous = threading.excepthook
            threading.excepthook = self._hook

    def uninstall(self) -> None:
        previous, self._previous = self._previous, None
        if previous is not None and threading.excepthook == self._hook:
            threading.excepthook = previous

    def survived(self, where: str, error: BaseException) -> None:
        """An error the process lived through (the touchscreen's redraw out of files): counted
        and told like a thread's, logged by the caller."""
        fault = ThreadFault(where, f"{type(error).__name__}: {error}")
        with self._lock:
            self.count += 1
            self.last = fault
        self.on_fault(fault)

    def _hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "a thread"
        fault = ThreadFault(name, f"{args.exc_type.__name__}: {args.exc_value}")
        log.error(
            "the %s thread ended with an error",
            name,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),  # type: ignore[arg-type]
        )
        with self._lock:
            self.count += 1
            self.last = fault
        try:
            self.on_fault(fault)
        finally:
            previous = self._previous
            if previous is not None and previous is not threading.__excepthook__:
                previous(args)  # another service's hook, or a test's


__all__ = ["OnFault", "ThreadFault", "ThreadFaults"]
