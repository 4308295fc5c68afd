"""Issue 16, item 11: after a kill -9 and a restart the rings the killed process had lit stayed
lit. The nodes here outlive the app (simulated nodes on a real Mosquitto, as ESP32 nodes on
Wi-Fi do); the app is started twice on the same SQLite log, the first one never cleaned up.
The cause was the command seqs: a restarted bridge counted from 1 again, and a node that had
applied those seqs from the killed process acknowledged the new commands as repeats without
showing them. The bridge now starts at a random seq, as nodes do."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.devices.leds import LedSync, Light, RingShow, table_leds
from companion.app.devices.nodes import BoardHardware
from companion.app.devices.watch import TableWatch, game_view
from companion.app.session.game import GameSession
from companion.app.table.tracking import Origin, TableTracker
from companion.boardfile import load_board_file
from companion.store.gamelog import GameLog
from firmware_bridge.board import node_ids, room_node
from firmware_bridge.mqtt_link import MqttLink
from firmware_bridge.mqtt_wire import MqttWire
from firmware_bridge.node_sim import SimNode
from tests.support.standins.hardware_helpers import Broker, wait_for

pytestmark = pytest.mark.slow  # two app processes on one log

FORTRESS = load_board_file()
NODES = node_ids(FORTRESS.rooms)
ROOM_NODES = [room_node(r) for r in FORTRESS.rooms]
LIT = Light("#ff0000", "pulse", 255)


class App:
    """The app's hardware half as ui/app.py wires it: bridge, tracker, LED sync, table watch."""

    def __init__(self, broker: Broker, watching: bool = True) -> None:
        link = MqttLink("127.0.0.1", broker.port, "t1", *broker.app("t1"))
        self.hardware = BoardHardware.mqtt(FORTRESS.rooms, link)
        tracker = TableTracker(
            FORTRESS.rooms, lambda uid: None, lambda room: False, lambda room: False
        )
        self.leds = LedSync(self.hardware.bridge)
        self.watch = TableWatch(tracker, list(FORTRESS.rooms), self.leds, lambda status: None)
        self.hardware.start(self.watch.node_message)
        if watching:
            self.watch.start()


def ring_of(node: SimNode) -> RingShow:
    def light(led: object) -> Light:
        return Light(led.colour, led.pattern, led.brightness)  # type: ignore[attr-defined]

    ring = light(node.ring) if node.ring is not None else Light()
    return RingShow(ring, tuple(sorted((d, light(x)) for d, x in node.segments.items())))


def test_a_restarted_app_shows_what_the_resumed_game_says(broker_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory({"t1": NODES})
    nodes = {n: SimNode(n, "card_reader" if n == "cards" else "room") for n in NODES}
    wires = [
        MqttWire(node, "127.0.0.1", broker.port, "t1", *broker.node("t1", n))
        for n, node in nodes.items()
    ]
    for wire in wires:
        wire.start()
    log = GameLog(tmp_path / "companion.db")
    session = GameSession.start(log, 5, [("matthew", "L1"), ("roel", "L2")])
    first = App(broker, watching=False)  # it lights rings through the same LED sync
    try:
        wait_for(lambda: all(first.hardware.bridge.is_online(n) for n in NODES), 10, "nodes")
        # the first app lights every ring (a new game's guides, a step, an alert ...) ...
        first.leds.show({n: RingShow(LIT) for n in ROOM_NODES}, force=True)
        wait_for(lambda: all(ring_of(nodes[n]) == RingShow(LIT) for n in ROOM_NODES), 5, "lit")
        # ... and dies there: no goodbye, its bridge simply gone
        first.hardware.bridge.link.stop()
        state = session.state
        log.close()

        log = GameLog(tmp_path / "companion.db")
        resumed = GameSession.resume(log)
        assert resumed is not None and resumed.state.round == state.round
        second = App(broker)
        try:
            second.watch.game(game_view(resumed.rules, resumed.state, Origin.RESUME))
            want = table_leds(FORTRESS.rooms, resumed.state, (), second.watch.status)
            assert any(show == RingShow() for show in want.values())  # rings to switch off

            def as_the_game_says() -> bool:
                return all(ring_of(nodes[n]) == want[n] for n in ROOM_NODES)

            wait_for(as_the_game_says, 10, "every ring as the resumed game says")
        finally:
            second.watch.stop()
            second.hardware.stop()
    finally:
        for wire in wires:
            wire.stop()
        log.close()
