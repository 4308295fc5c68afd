"""The health view over a simulated board on PTYs (what the Home screen and `run` show)."""

from __future__ import annotations

import os
import re

from companion.app.devices.nodes import broker_status, health_view
from companion.app.words import i18n
from firmware_bridge.board import SimulatedBoard, node_ids
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for


def test_health_view_shows_nodes_round_trips_and_refused_input() -> None:
    board = SimulatedBoard(node_ids(["C", "NE"])).start()
    try:
        wait_for(lambda: all(h.online for h in board.bridge.health()), 10, "three nodes")
        board.bridge.ping("room-ne")
        wait_for(lambda: all(r.rtt_ms is not None for r in health_view(board.bridge).nodes), 5)
        board.nodes["room-c"].ignore_next = 1
        board.bridge.set_led("room-c", colour="#ffffff")
        assert board.bridge.wait_acked(limit(5))
        fd = board.wires["room-ne"]._fd
        assert fd is not None
        os.write(fd, b"\x05junk\x00")
        wait_for(lambda: health_view(board.bridge).dropped != {}, 5, "the refused frame")
        view = health_view(board.bridge)
        rows = {r.node: r for r in view.nodes}
        assert sorted(rows) == ["cards", "room-c", "room-ne"]
        assert all(
            r.online and r.seen_s_ago is not None and r.seen_s_ago < 5 for r in rows.values()
        )
        assert rows["room-c"].errors.get("resent", 0) >= 1 and rows["room-c"].acked >= 1
        assert sum(view.dropped.values()) == 1
        text = "\n".join(view.lines())
        # nodes by what they are on the table, never by id; no command-line flags
        assert "Centre room: online" in text and "Card reader: online" in text  # no platform
        assert "North-east room platform: online" in text and "round trip" in text
        assert "room-" not in text and "--" not in text
        assert "resent" in text
        assert "Refused input: damaged 1" in text
        i18n.set_language("de")
        try:
            german = "\n".join(view.lines())
        finally:
            i18n.set_language("en")
        assert "Mittelraum: online" in german and "Kartenleser" in german
        assert "Plattform im Mittelraum" not in german and "Plattform im Raum Nordost" in german
        # German writes a decimal comma: "Umlaufzeit 0,42 ms", never "0.42"
        assert re.search(r"Umlaufzeit \d+,\d\d\sms", german), german  # (a no-break space)
        assert re.search(r"vor \d+,\d\ss gehört", german), german
        assert not re.search(r"\d\.\d", german), german
    finally:
        board.stop()


def test_the_broker_line_names_no_command_line_flag() -> None:
    text = broker_status(None)
    assert text == "Broker: none set up; the game events stay in this app."
    assert "--" not in text
