"""The board hardware as the app sees it: the nodes (real on serial or MQTT, or the simulated
board that stands in when there are none, the embedded default of `./setup.sh run`) and the
health view."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.engine.fortress import Fortress
from companion.engine.situation import HEROES, STRIGOI
from companion.errors import TagError
from companion.store.nfc import NfcRegistry
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard, node_ids
from firmware_bridge.bridge import Bridge, OnEvent
from firmware_bridge.mqtt_link import GamePublisher, MqttLink
from firmware_bridge.node_sim import CARD_READER as CARD_READER  # the app names the reader
from firmware_bridge.serial_link import SerialLink
from firmware_bridge.sim_table import SimRoom, SimTable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NodeRow:
    node: str
    kind: str
    online: bool
    seen_s_ago: float | None
    rtt_ms: float | None
    acked: int
    errors: dict[str, int]
    source: str | None
    offline_reason: str = ""
    last_refusal: str = ""  # the newest command the node refused, and why
    faults: int = 0  # exceptions the node's loop caught (and survived) since its boot
    last_fault: str = ""


@dataclass(frozen=True)
class HealthView:
    nodes: list[NodeRow]
    dropped: dict[str, int] = field(default_factory=dict)  # refused input, by reason
    broker: str = ""

    def lines(self) -> list[str]:
        # the broker first: it says why every node may be offline (a login another device took)
        # and stays in sight however many lines the nodes take
        out = self.broker.splitlines()
        out.append(f"{'node':9} {'kind':12} {'state':8} {'seen':>8} {'round trip':>11}  errors")
        for row in self.nodes:
            seen = "never" if row.seen_s_ago is None else f"{row.seen_s_ago:.1f}s ago"
            rtt = "-" if row.rtt_ms is None else f"{row.rtt_ms:.2f} ms"
            errors = ", ".join(f"{k} {v}" for k, v in sorted(row.errors.items())) or "none"
            state = "online" if row.online else "offline"
            out.append(f"{row.node:9} {row.kind:12} {state:8} {seen:>8} {rtt:>11}  {errors}")
            if not row.online and row.offline_reason:
                out.append(f"{'':9} offline: {row.offline_reason}")
            if row.last_refusal:
                out.append(f"{'':9} refused a command: {row.last_refusal}")
            if row.faults:
                out.append(f"{'':9} {row.faults} faults survived, last: {row.last_fault}")
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items())) or "none"
        out.append(f"refused input: {dropped}")
        return out


def broker_status(publisher: GamePublisher | None) -> str:
    """One line on where the game events go."""
    if publisher is None:
        return "broker: none configured (game events stay in the app; see --mqtt)"
    where = f"broker: {publisher.address} as {publisher.username}"
    shared = publisher.login_problem  # a second device on our login (issue 28)
    if shared:
        return f"{where}: {shared}"
    if publisher.connected.is_set():
        return f"{where}, connected"
    refused = f" (refused: {publisher.refusals[-1]})" if publisher.refusals else ""
    return f"{where}, not connected{refused}; events queued until it is back"


def health_view(bridge: Bridge, broker: str = "") -> HealthView:
    now = time.monotonic()
    rows = [
        NodeRow(
            node=h.node,
            kind=h.kind,
            online=h.online,
            seen_s_ago=None if h.last_seen is None else now - h.last_seen,
            rtt_ms=h.rtt_ms,
            acked=h.acked,
            errors=dict(h.errors),
            source=h.source,
            offline_reason=h.offline_reason,
            last_refusal=h.last_refusal,
            faults=h.faults,
            last_fault=h.last_fault,
        )
        for h in bridge.health()
    ]
    dropped: Counter[str] = Counter(bridge.drops.counts)
    link_drops = getattr(bridge.link, "drops", None)
    if link_drops is not None and link_drops is not bridge.drops:
        dropped.update(link_drops.counts)
    shared = getattr(bridge.link, "login_problem", "")  # the nodes' MQTT link, when it is one
    if shared and shared not in broker:
        broker = "\n".join(x for x in (broker, f"broker: {shared}") if x)
    return HealthView(rows, dict(dropped), broker)


class BoardHardware:
    """The nodes the app talks to: a bridge on a link, and the simulated board behind it when
    there is no real one (with the simulated table: platforms and figures on its readers).
    `start(on_event)` wires the node messages to the app; `ring(node)` is what a platform's LED
    ring shows, for the screen."""

    def __init__(
        self,
        bridge: Bridge,
        description: str,
        simulated: SimulatedBoard | None = None,
        table: SimTable | None = None,
    ):
        self.bridge = bridge
        self.description = description
        self.simulated = simulated
        self.table = table

    @classmethod
    def simulated_board(cls, fortress: Fortress) -> BoardHardware:
        nodes = node_ids(fortress.rooms)
        board = SimulatedBoard(nodes)
        table = SimTable(
            board.nodes,
            {
                room.id: SimRoom(room.platform, room.rotation, room.orientation)
                for room in fortress.rooms.values()
            },
            figures={
                **{hero: "hero" for hero in HEROES},
                **{s: "strigoi" for s in STRIGOI if s != "supreme"},
            },
        )
        return cls(
            board.bridge,
            f"a simulated board ({len(nodes)} nodes on pseudo-terminals)",
            board,
            table,
        )

    @classmethod
    def serial(cls, rooms: Iterable[str], pattern: str) -> BoardHardware:
        """Real nodes on USB serial ports matching `pattern`, found by their hello (hot-plug)."""
        nodes = node_ids(rooms)
        link = SerialLink(pattern=pattern)
        return cls(Bridge(link, nodes), f"{len(nodes)} nodes on serial ports {pattern}")

    @classmethod
    def mqtt(cls, rooms: Iterable[str], link: MqttLink) -> BoardHardware:
        nodes = node_ids(rooms)
        return cls(Bridge(link, nodes), f"{len(nodes)} nodes on the broker {link.address}")

    def start(self, on_event: OnEvent) -> None:
        self.bridge.on_event = on_event
        if self.simulated is not None:
            self.simulated.start()
            if self.table is not None:
                self.table.place_all()
        else:
            self.bridge.start()

    def stop(self) -> None:
        if self.simulated is not None:
            self.simulated.stop()
        else:
            self.bridge.stop()

    def ring(self, node: str) -> p.Led | None:
        if self.simulated is not None:  # what the simulated node really shows
            sim = self.simulated.nodes.get(node)
            return sim.ring if sim is not None else None
        return self.bridge.ring(node)  # what the real node was last told to show


def register_stickers(registry: NfcRegistry, table: SimTable) -> int:
    """Bind the simulated table's stickers in the tag registry (as players would in the setup
    wizard), once; a uid already bound to something else is left alone and logged. Returns how
    many were bound now."""
    bound = 0
    for sticker in table.stickers():
        existing = registry.lookup(sticker.uid)
        if existing is not None:
            if (existing.kind, existing.target) != (sticker.kind, sticker.target):
                log.warning("simulated sticker %s is bound to %s", sticker.uid, existing)
            continue
        try:
            registry.bind(sticker.uid, sticker.kind, sticker.target)
            bound += 1
        except TagError as exc:
            log.warning("simulated sticker %s: %s", sticker.uid, exc)
    return bound
