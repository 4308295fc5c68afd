"""The board's nodes: which node ids a table has, and a whole simulated board in one call.

Room nodes are named after the fortress's rooms (`room-<id>`, lower case) and the card reader is
`cards`. `SimulatedBoard` starts one simulated node per id on its own pseudo-terminal and a
bridge on a serial link that discovers them: the embedded default of `./setup.sh run`.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from firmware_bridge.bridge import Bridge, OnEvent
from firmware_bridge.ids import room_node as room_node  # where it always was
from firmware_bridge.node_sim import CARD_READER, PtyWire, SimNode
from firmware_bridge.serial_link import SerialLink

log = logging.getLogger(__name__)

#: the file in a simulated board's folder naming the process that owns it
OWNER_FILE = "owner"
PREFIX = "armata-board-"

#: The default fortress's rooms (companion/data/default-fortress.json), for tools without a board.
DEFAULT_ROOMS = ("C", "E", "NE", "NW", "W", "SW", "SE")


def node_ids(rooms: Iterable[str]) -> list[str]:
    return [*(room_node(r) for r in rooms), CARD_READER]


def _started(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot, from /proc), "" where there is no
    /proc, None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        stat = ""
    if stat:
        return stat.rsplit(")", 1)[1].split()[19]  # field 22: after the command's parentheses
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return ""


def _alive(mark: str) -> bool:
    pid, _, started = mark.partition(" ")
    if not pid.isdigit():
        return False
    now = _started(int(pid))
    return now is not None and (now == started or "" in (now, started))


def sweep_leftovers(folder: Path | None = None) -> list[Path]:
    """Remove the simulated boards' folders that no live process owns (a run killed with
    SIGKILL could not remove its own); a folder whose owner is not written yet is left."""
    removed = []
    for leftover in sorted(Path(folder or tempfile.gettempdir()).glob(f"{PREFIX}*")):
        try:
            mark = (leftover / OWNER_FILE).read_text()
        except OSError:
            continue  # being made right now, or not one of ours
        if not _alive(mark):
            shutil.rmtree(leftover, ignore_errors=True)
            removed.append(leftover)
    if removed:
        log.info("removed %d simulated board folder(s) of killed runs", len(removed))
    return removed


class SimulatedBoard:
    def __init__(self, nodes: Iterable[str], on_event: OnEvent | None = None) -> None:
        sweep_leftovers()
        self._tmp = tempfile.TemporaryDirectory(prefix=PREFIX)
        #: where the nodes' pseudo-terminal links are (removed by `stop`)
        self.directory = directory = Path(self._tmp.name)
        started = _started(os.getpid())
        (directory / OWNER_FILE).write_text(f"{os.getpid()} {started or ''}".strip())
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
