"""`python -m firmware_bridge.simulated_nodes` as a separate process: the bridge finds its nodes
on their PTYs, LED commands show up on its stdout, and stdin places tags and presses buttons."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.board import DEFAULT_ROOMS, node_ids
from firmware_bridge.bridge import Bridge
from firmware_bridge.serial_link import SerialLink
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for

pytestmark = pytest.mark.slow  # the simulator process


def test_the_simulator_process_is_a_whole_board(tmp_path: Path) -> None:
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.simulated_nodes", "--dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert sim.stdin is not None and sim.stdout is not None
    lines: list[dict[str, object]] = []
    reader = threading.Thread(
        target=lambda: [lines.append(json.loads(line)) for line in sim.stdout],  # type: ignore[union-attr]
        daemon=True,
    )
    reader.start()
    events: list[p.Message] = []
    nodes = node_ids(DEFAULT_ROOMS)
    bridge = Bridge(
        SerialLink(pattern=str(tmp_path / "tty-*"), scan_interval_s=0.05), nodes, events.append
    )
    bridge.start()
    try:
        wait_for(lambda: all(h.online for h in bridge.health()), 10, "all eight nodes online")
        bridge.set_led("room-ne", colour="#aa00ff", pattern="pulse")
        assert bridge.wait_acked(limit(5))
        wait_for(lambda: any("led" in x for x in lines), 5, "the LED line")
        led = next(x["led"] for x in lines if "led" in x)
        assert led["node"] == "room-ne" and led["colour"] == "#aa00ff"  # type: ignore[index]
        sim.stdin.write("place cards 04AABBCCDD 1\npress room-c confirm\nleds room-ne\n")
        sim.stdin.flush()
        # Two nodes, two serial links: the tag and the button may arrive in either order.
        wait_for(lambda: any(isinstance(e, p.Button) for e in events), 5, "the button")
        wait_for(lambda: any(isinstance(e, p.TagPresent) for e in events), 5, "the tag")
        tag = next(e for e in events if isinstance(e, p.TagPresent))
        assert (tag.node, tag.uid, tag.reader) == ("cards", "04aabbccdd", 1)
        wait_for(lambda: any("room-ne" in x for x in lines), 5, "the leds answer")
        shown = next(x["room-ne"] for x in lines if "room-ne" in x)
        assert shown["ring"]["pattern"] == "pulse"  # type: ignore[index]
    finally:
        bridge.stop()
        sim.stdin.write("quit\n")
        sim.stdin.flush()
        assert sim.wait(limit(10)) == 0
