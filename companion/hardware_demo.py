"""The terminal demo's hardware part: a simulated board (one node per room and the card reader on
pseudo-terminals) found by the bridge, the Strigoi's destination platform pulsing, a card tapped,
and the health view."""

from __future__ import annotations

import time

from companion.app.devices.nodes import health_view, node_name, ring_words
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.demo import demo_situation, most_telling_step
from companion.engine.options import Options
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard, node_ids, room_node


def run_hardware_demo(wait_s: float = 5.0) -> str:
    fortress = load_board_file()
    situation = demo_situation(fortress)
    _, step = most_telling_step(fortress, situation, load_catalog().damage(), Options())
    events: list[p.Message] = []
    board = SimulatedBoard(node_ids(fortress.rooms), events.append).start()
    try:
        deadline = time.monotonic() + wait_s
        while not all(h.online for h in board.bridge.health()):
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        destination = room_node(step.teleport.to)
        board.bridge.set_led(destination, colour="#c00000", pattern="pulse", brightness=220)
        board.bridge.wait_acked(wait_s)
        board.nodes["cards"].place_tag("04a1b2c3d4e5f6")
        while not any(isinstance(e, p.TagPresent) for e in events):
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        shown = board.nodes[destination].ring
        tapped = [e for e in events if isinstance(e, p.TagPresent)]
        lines = [
            "Board hardware (simulated: a node per room and the card reader, on pseudo-terminals)",
            f"  The ring of the {node_name(destination)} {ring_words(shown)}.",
            *(f"  The {node_name(e.node)} read the tag {e.uid}." for e in tapped),
            *("  " + line for line in health_view(board.bridge).lines()),
        ]
        return "\n".join(lines)
    finally:
        board.stop()
