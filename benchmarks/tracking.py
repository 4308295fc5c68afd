"""Table tracking speed: a room node senses a platform turned to the rotation the game asked for
(Mechanics), over a real Mosquitto with the project's config; the app's table watch (the code the
touchscreen app runs) closes the step, tells the screen and sends the room's new LED state back
to the node. p50/p99 from the rim tag published to (a) the screen's status callback and (b) the
LED command applied at the node, minus the readers' deliberate debounce (`SETTLE_S` here: the
time a reading must stay before it counts), next to the bare broker round trip measured in the
same run. Goal: p99 <= 20 ms.

    python benchmarks/tracking.py [--quick]
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bridge import mqtt_bare  # benchmarks/bridge.py: the same bare round trip
from stats import percentile

from companion.app.devices.leds import LedSync
from companion.app.devices.nodes import register_stickers
from companion.app.devices.watch import GameView, TableWatch, game_view
from companion.app.session.game import GameSession
from companion.app.table.differences import expected_from_game
from companion.app.table.taps import TagIndex
from companion.app.table.tracking import Origin, TableStatus, TableTracker
from companion.boardfile import load_board_file
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from firmware_bridge import protocol as p
from firmware_bridge.board import node_ids, room_node
from firmware_bridge.bridge import Bridge
from firmware_bridge.mqtt_link import MqttLink
from firmware_bridge.mqtt_wire import MqttWire
from firmware_bridge.node_sim import SimNode
from firmware_bridge.sim_table import SimRoom, SimTable
from firmware_bridge.tags import RIM_READER
from tests.support.standins.hardware_helpers import Broker, wait_for

GOAL_MS = 20.0
SETTLE_S = 0.1  # the benchmark's debounce (the app's is 0.5 s): subtracted from every figure
ROOM = "NE"


def figures(label: str, samples: list[float], bare: list[float]) -> None:
    p99 = percentile(samples, 0.99)
    print(
        f"{label:44} p50 {statistics.median(samples):6.2f} ms  p99 {p99:6.2f} ms   "
        f"goal p99 <= {GOAL_MS:.0f} ms   baseline: bare broker round trip p50 "
        f"{statistics.median(bare):.2f} ms, p99 {percentile(bare, 0.99):.2f} ms   "
        f"({len(samples)} turns)"
    )


class Table:
    """The default fortress's room nodes on MQTT wires, the simulated table on their readers,
    and the app side: bridge, tag registry, tracker, watch and LED sync, as the app wires them."""

    def __init__(self, broker: Broker, directory: Path) -> None:
        fortress = load_board_file()
        self.fortress = fortress
        names = node_ids(fortress.rooms)
        self.nodes = {n: SimNode(n, "room", 2) for n in names}
        self.wires = [
            MqttWire(node, "127.0.0.1", broker.port, "t1", *broker.node("t1", n))
            for n, node in self.nodes.items()
        ]
        self.sim = SimTable(
            self.nodes,
            {r.id: SimRoom(r.platform, r.rotation, r.orientation) for r in fortress.rooms.values()},
        )
        self.log = GameLog(directory / "companion.db")
        registry = NfcRegistry(self.log.db)
        register_stickers(registry, self.sim)
        tags = TagIndex(registry)
        self.bridge = Bridge(MqttLink("127.0.0.1", broker.port, "t1", *broker.app("t1")), names)
        tracker = TableTracker(
            fortress.rooms,
            tags.lookup,
            tags.rim_tagged,
            tags.figure_tagged,
            settle_s=SETTLE_S,
            online=self.bridge.is_online,
        )
        self.status_at: list[tuple[float, TableStatus]] = []
        self.watch = TableWatch(
            tracker,
            list(fortress.rooms),
            LedSync(self.bridge),
            lambda status: self.status_at.append((time.perf_counter(), status)),
        )
        self.bridge.on_event = self.watch.node_message
        self.session = GameSession.start(self.log, 1, [("matthew", "L1"), ("roel", "L2")])

    def start(self) -> None:
        self.watch.start()
        self.bridge.start()
        for wire in self.wires:
            wire.start()
        wait_for(lambda: all(self.bridge.is_online(n) for n in self.nodes), 10, "the nodes")
        self.sim.place_all()
        self.watch.game(game_view(self.session.rules, self.session.state, Origin.NEW_GAME))
        wait_for(lambda: self.watch.status.actions == (), 10, "the table set up")

    def turns(self, count: int) -> tuple[list[float], list[float]]:
        """The game asks for a turn; the node then reads the rim tag of the new rotation."""
        node = self.nodes[room_node(ROOM)]
        applied = threading.Event()
        led_at = [0.0]

        def on_led(led: p.Led) -> None:
            if led.target == "ring" and led.pattern == "off":
                led_at[0] = time.perf_counter()
                applied.set()

        node.on_led = on_led
        state = self.session.state
        room = self.sim.rooms[ROOM]
        to_status, to_led = [], []
        for i in range(count):
            rotation = (room.rotation + 1) % 6
            expected = expected_from_game(self.session.rules, state)
            expected[ROOM] = dataclasses.replace(expected[ROOM], rotation=rotation)
            # e.g. Mechanics (R-ABL): the game asks for the turn and lights the edge
            self.watch.game(GameView(state, expected, Origin.COMMAND))
            wait_for(lambda: bool(self.watch.status.actions), 5, "the turn asked")
            applied.clear()
            self.status_at.clear()
            node.remove_tag(RIM_READER)
            room.rotation = rotation
            start = time.perf_counter()
            node.place_tag(self.sim.rim_uid_of(ROOM) or "", RIM_READER)
            if not applied.wait(5):
                raise RuntimeError(f"turn {i}: no LED command came back")
            wait_for(lambda: any(not s.actions for _, s in self.status_at), 5, "the status")
            shown = next(t for t, s in self.status_at if not s.actions)
            to_status.append((shown - start - SETTLE_S) * 1000)
            to_led.append((led_at[0] - start - SETTLE_S) * 1000)
            # the game now holds the new rotation (as after the real command)
            self.watch.game(GameView(state, expected, Origin.CORRECTION))
            wait_for(lambda: self.watch.wait_idle(0.1), 5, "idle")
        return to_status, to_led

    def stop(self) -> None:
        for wire in self.wires:
            wire.stop()
        self.bridge.stop()
        self.watch.stop()
        self.log.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 20 if args.quick else 200
    print(f"armata tracking benchmark - Python {platform.python_version()}, {platform.machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        broker = Broker(directory / "broker", {"t1": node_ids(load_board_file().rooms)})
        broker.start()
        try:
            table = Table(broker, directory)
            table.start()
            try:
                table.turns(5)  # warm up
                to_status, to_led = table.turns(count)
            finally:
                table.stop()
            bare = mqtt_bare(count, broker, False, "room-c")  # the table's nodes are stopped
        finally:
            broker.stop()
    figures("sensed rotation -> status to the screen", to_status, bare)
    figures("sensed rotation -> LED command at the node", to_led, bare)
    print(f"(the debounce of {SETTLE_S * 1000:.0f} ms is subtracted; the app's is 500 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
