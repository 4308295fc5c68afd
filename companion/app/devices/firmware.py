"""Which nodes run another firmware than the one this release ships (issue 43): the Hardware
screen and `python -m companion check --nodes` name each of them, `nodes flash` brings them in
step. The shipped version is read from the firmware's own source (hardware/shipped_firmware.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from firmware_bridge.bridge import NodeHealth
from hardware.shipped_firmware import firmware_version


@cache
def shipped_version() -> str:
    """The version of the firmware this release ships (read once)."""
    return firmware_version()


@dataclass(frozen=True)
class Outdated:
    node: str
    version: str  # what its hello said; "" when it said none (firmware before the field)
    shipped: str

    def __str__(self) -> str:
        runs = self.version or "a version older than 0.3 (it names none)"
        return f"{self.node} runs firmware {runs}, this release ships {self.shipped}"


def said_hello(health: NodeHealth) -> bool:
    """Its kind and version are known only from a hello."""
    return health.kind != "?"


def outdated(healths: Iterable[NodeHealth], shipped: str | None = None) -> list[Outdated]:
    """Every node heard (by its hello) whose firmware version is not `shipped` (default: the
    shipped firmware's), in the order given."""
    want = shipped_version() if shipped is None else shipped
    return [
        Outdated(h.node, h.version, want) for h in healths if said_hello(h) and h.version != want
    ]
