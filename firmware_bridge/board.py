"""The board's nodes: which node ids a table has, and a whole simulated board in one call.

Room nodes are named after the fortress's rooms (`room-<id>`, lower case) and the card reader is
`cards`. `SimulatedBoard` starts one simulated node per id on its own pseudo-terminal and a
bridge on a serial link that discovers them: the embedded default of `./setup.sh run`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path

from firmware_bridge.bridge import Bridge, OnEvent
from firmware_bridge.ids import room_node as room_node  # where it always was
from firmware_bridge.node_sim import CARD_READER, PtyWire, SimNode
from firmware_bridge.serial_link import SerialLink

#: The default fortress's rooms (companion/data/default-fortress.json), for tools without a board.
DEFAULT_ROOMS = ("C", "E", "NE", "NW", "W", "SW", "SE")


def node_ids(rooms: Iterable[str]) -> list[str]:
    return [*(room_node(r) for r in rooms), CARD_READER]


class SimulatedBoard:
    def __init__(self, nodes: Iterable[str], on_event: OnEvent | None = None) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="armata-board-")
        #: where the nodes' pseudo-terminal links are (removed by `stop`)
        self.directory = directory = Path(self._tmp.name)
        # room nodes: reader 0 under the platform's rim, reader 1 under its centre; the card
        # reader: two reading spots (hardware/README.md)
        self.nodes = {
            n: SimNode(n, "card_reader" if n == CARD_READER else "room", 2) for n in nodes
        }
        self.wires = {n: PtyWire(node, directory / f"tty-{n}") for n, node in self.nodes.items()}
        self.bridge = Bridge(
            SerialLink(pattern=str(directory / "tty-*"), scan_interval_s=0.05),
            self.nodes,
            on_event,
        )

    def start(self) -> SimulatedBoard:
        for wire in self.wires.values():
            wire.plug()
        self.bridge.start()
        return self

    def stop(self) -> None:
        self.bridge.stop()
        for wire in self.wires.values():
            wire.close()
        self._tmp.cleanup()
