"""Nodes on USB serial ports: COBS + CRC frames (framing.py) over pyserial.

Ports are opened with `serial.serial_for_url`, so tests use real pseudo-terminals. Each port has
a reader thread; when the device disappears the thread closes the port, reports it down and keeps
trying to reopen it (tenacity, exponential back-off) until it comes back or the link stops. Ports
matching a glob pattern are discovered as they appear (hot-plug); the node on a port is learned
from its hello by the bridge.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import threading
import time
from collections.abc import Iterable

import serial
from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential

from firmware_bridge.framing import FrameDecoder, frame
from firmware_bridge.links import Deliver, SourceChanged
from firmware_bridge.protocol import DropCounter

log = logging.getLogger(__name__)

BAUDRATE = 115_200
READ_TIMEOUT_S = 0.05
#: a write waits at most this long for a node that stopped reading; after a timeout the port
#: takes no writes for STUCK_BACKOFF_S (the bridge resends what matters: its pending commands,
#: only the newest LED state per ring), so a stuck node never holds up the caller
WRITE_TIMEOUT_S = 0.02
STUCK_BACKOFF_S = 1.0
_OPEN_ERRORS = (serial.SerialException, OSError, ValueError)


class _StopFlag:
    """A tenacity stop condition that ends retrying once the link or the port is stopped."""

    def __init__(self, *events: threading.Event) -> None:
        self.events = events

    def __call__(self, retry_state: RetryCallState) -> bool:
        return any(e.is_set() for e in self.events)


class _Port:
    def __init__(self, path: str, link: SerialLink) -> None:
        self.path = path
        self.link = link
        self.serial: serial.Serial | None = None
        self.write_lock = threading.Lock()
        self.closed = threading.Event()  # set when a discovered port vanished for good
        self.stuck_until = 0.0  # monotonic time until which writes are refused at once
        self.thread = threading.Thread(target=self._run, name=f"serial {path}", daemon=True)

    def _open(self) -> serial.Serial:
        return serial.serial_for_url(
            self.path, baudrate=BAUDRATE, timeout=READ_TIMEOUT_S, write_timeout=WRITE_TIMEOUT_S
        )

    def _run(self) -> None:
        link = self.link
        while not link.stopping.is_set() and not self.closed.is_set():
            opener = Retrying(
                retry=retry_if_exception_type(_OPEN_ERRORS),
                wait=wait_exponential(multiplier=0.02, max=1.0),
                stop=_StopFlag(link.stopping, self.closed),
                reraise=False,
                retry_error_callback=lambda _state: None,
            )
            port = opener(self._open)
            if port is None:
                return
            self.serial = port
            decoder = FrameDecoder(link.drops)
            link.changed(self.path, True)
            try:
                while not link.stopping.is_set():
                    data = port.read(port.in_waiting or 1)
                    if data:
                        for payload in decoder.feed(data):
                            self._deliver(link, payload)
            except _OPEN_ERRORS as exc:
                log.info("serial port %s went away: %s", self.path, exc)
            finally:
                self.serial = None
                with contextlib.suppress(*_OPEN_ERRORS):
                    port.close()
                link.changed(self.path, False)
            if link.discovered(self.path):
                self.closed.set()  # discovery reopens it if the path comes back

    def _deliver(self, link: SerialLink, payload: bytes) -> None:
        """One frame to the app. What handling it raises is this frame's problem, logged and
        counted: it must not pass for a lost port (closing it would drop the frames after it)."""
        try:
            link.deliver(self.path, payload)
        except Exception:  # one bad frame never closes the port
            log.exception("a frame from %s could not be handled", self.path)
            link.drops.drop("handler_error", self.path)

    def write(self, data: bytes) -> bool:
        """Bounded: a node that stopped reading costs one WRITE_TIMEOUT_S, then its writes are
        refused (counted) for STUCK_BACKOFF_S. A frame cut short by the timeout is discarded by
        the node's decoder at the next frame delimiter."""
        port = self.serial
        if port is None:
            return False
        if time.monotonic() < self.stuck_until:
            self.link.drops.drop("node_not_reading", self.path)
            return False
        try:
            with self.write_lock:
                port.write(data)
            return True
        except serial.SerialTimeoutException:
            self.stuck_until = time.monotonic() + STUCK_BACKOFF_S
            self.link.drops.drop("write_timeout", self.path)
            log.warning("%s does not read: writes paused for %.1f s", self.path, STUCK_BACKOFF_S)
            return False
        except _OPEN_ERRORS as exc:
            log.info("write to %s failed: %s", self.path, exc)
            return False


class SerialLink:
    """Serial ports by path (reopened whenever they come back) and by glob pattern (hot-plug)."""

    fixed_sources = False

    def __init__(
        self,
        ports: Iterable[str] = (),
        pattern: str | None = None,
        scan_interval_s: float = 0.2,
        drops: DropCounter | None = None,
    ) -> None:
        self.fixed = list(ports)
        self.pattern = pattern
        self.scan_interval_s = scan_interval_s
        self.drops = drops or DropCounter()
        self.stopping = threading.Event()
        self._ports: dict[str, _Port] = {}
        self._lock = threading.Lock()
        self._scanner: threading.Thread | None = None
        self.deliver: Deliver = lambda source, payload: None
        self.changed: SourceChanged = lambda source, up: None

    def discovered(self, path: str) -> bool:
        return path not in self.fixed

    def start(self, deliver: Deliver, changed: SourceChanged) -> None:
        self.deliver, self.changed = deliver, changed
        for path in self.fixed:
            self._add(path)
        if self.pattern is not None:
            self._scanner = threading.Thread(target=self._scan, name="serial scan", daemon=True)
            self._scanner.start()

    def _add(self, path: str) -> None:
        with self._lock:  # started under the lock: `stop` never sees a port not yet running
            current = self._ports.get(path)
            if self.stopping.is_set() or (current is not None and current.thread.is_alive()):
                return
            port = _Port(path, self)
            self._ports[path] = port
            port.thread.start()

    def _scan(self) -> None:
        assert self.pattern is not None
        while not self.stopping.wait(self.scan_interval_s):
            for path in sorted(glob.glob(self.pattern)):
                self._add(path)

    def send(self, source: str, payload: bytes) -> bool:
        port = self._ports.get(source)
        return port is not None and port.write(frame(payload))

    def sources(self) -> list[str]:
        return sorted(p for p, port in self._ports.items() if port.serial is not None)

    def stop(self) -> None:
        self.stopping.set()
        with self._lock:  # the scanner may be adding a port right now
            ports = list(self._ports.values())
        for port in ports:
            port.thread.join(timeout=2)
        if self._scanner is not None:
            self._scanner.join(timeout=2)
