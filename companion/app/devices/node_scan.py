"""The USB nodes plugged into this machine, found by their hello (`python -m companion nodes`,
`check --nodes`): a bridge on the serial ports of a glob, for as long as a tool needs it.

A node repeats its hello every second until someone answers; one that an app greeted says it
again after 6 s without a word (hardware/firmware/armata_node/node.py SILENCE_MS), so a scan
waits up to `wait_s` (default 8 s), or less once every open port has its node (or every node
it waits for has spoken). The app
must not hold the ports meanwhile (stop it first: two readers on one port split its frames)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from types import TracebackType

from companion.app.devices.firmware import said_hello
from firmware_bridge import protocol as p
from firmware_bridge.board import DEFAULT_ROOMS, node_ids
from firmware_bridge.bridge import Bridge, NodeHealth
from firmware_bridge.serial_link import SerialLink

DEFAULT_GLOB = "/dev/ttyACM*"
#: a greeted node's silence (6 s) and a hello's second, with room to spare
DEFAULT_WAIT_S = 8.0
TRANSPORT = "usb"


class NodeScan:
    """A bridge on the serial ports of `pattern` that knows the nodes of `rooms`. `events`
    gets every tag, hello and status message, for bring-up."""

    def __init__(
        self,
        pattern: str = DEFAULT_GLOB,
        rooms: Iterable[str] = DEFAULT_ROOMS,
        *,
        scan_interval_s: float = 0.1,
    ) -> None:
        self.pattern = pattern
        self.known = node_ids(rooms)
        self.events: list[p.Message] = []
        self._heard = threading.Condition()
        self.link = SerialLink(pattern=pattern, scan_interval_s=scan_interval_s)
        self.bridge = Bridge(self.link, self.known, self._event)

    def _event(self, message: p.Message) -> None:
        with self._heard:
            self.events.append(message)
            self._heard.notify_all()

    def __enter__(self) -> NodeScan:
        self.bridge.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the bridge: the ports are closed (idempotent)."""
        self.bridge.stop()

    def found(self) -> dict[str, NodeHealth]:
        """Every node that said hello, by id."""
        return {h.node: h for h in self.bridge.health() if said_hello(h)}

    def hellos_since(self, index: int) -> list[p.Hello]:
        with self._heard:
            return [m for m in self.events[index:] if isinstance(m, p.Hello)]

    def silent_ports(self) -> set[str]:
        """Open ports no node has said hello on yet (a greeted node speaks within 6 s)."""
        bound = {h.source for h in self.found().values()}
        return set(self.link.sources()) - bound

    def wait(
        self,
        wait_s: float = DEFAULT_WAIT_S,
        nodes: Iterable[str] | None = None,
        settle_s: float = 0.5,
    ) -> dict[str, NodeHealth]:
        """Wait for hellos: until every node of `nodes` said one, or (none named) until every
        open port has its node (after `settle_s`, the ports' discovery); `wait_s` at most. A
        port whose device never says hello holds the scan until `wait_s`."""
        wanted = set(nodes) if nodes is not None else None
        start = time.monotonic()
        deadline = start + wait_s
        while True:
            found = self.found()
            now = time.monotonic()
            if now >= deadline:
                return found
            if wanted is not None and wanted <= set(found):
                return found
            if wanted is None and now - start >= settle_s and not self.silent_ports():
                return found
            with self._heard:
                self._heard.wait(min(0.1, max(0.0, deadline - now)))

    def wait_rtt(self, nodes: Iterable[str], wait_s: float = 1.0) -> None:
        """Give the first ping of each node time to come back (its round trip for `list`)."""
        deadline = time.monotonic() + wait_s
        names = set(nodes)
        while time.monotonic() < deadline:
            if all(h.rtt_ms is not None for h in self.bridge.health() if h.node in names):
                return
            time.sleep(0.05)
