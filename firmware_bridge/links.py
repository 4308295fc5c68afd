"""What the bridge needs from a transport: deliver inbound payloads, send outbound ones.

A *source* names where a payload came from and where replies go: a serial port path (the node on
it is learned from its hello) or, on MQTT, the node id in the topic (fixed by the broker's ACL).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

#: (source, payload) for every intact payload received
Deliver = Callable[[str, bytes], None]
#: (source, up) when a port opens or closes, or a node's MQTT status changes
SourceChanged = Callable[[str, bool], None]


class Link(Protocol):
    #: True when a source always is the node it names (MQTT topics); False when the node on a
    #: source is only known from its hello (serial ports).
    fixed_sources: bool

    def start(self, deliver: Deliver, changed: SourceChanged) -> None: ...

    def send(self, source: str, payload: bytes) -> bool:
        """Queue `payload` for `source`; False when that source is not connected now."""
        ...

    def stop(self) -> None: ...
