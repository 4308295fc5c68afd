"""The board hardware as the app sees it: the nodes (real on serial or MQTT, or the simulated
board that stands in when there are none, the embedded default of `./setup.sh run`) and the
health view."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from companion.app.devices.firmware import shipped_version
from companion.app.words.i18n import N_, capital_first, decimal, ngettext, tr
from companion.app.words.names import room_name
from companion.engine.fortress import Fortress
from companion.engine.situation import HEROES, STRIGOI
from companion.errors import TagError
from companion.store.nfc import NfcRegistry
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard, node_ids
from firmware_bridge.bridge import Bridge, OnEvent
from firmware_bridge.node_sim import CARD_READER as CARD_READER  # the app names the reader
from firmware_bridge.serial_link import SerialLink
from firmware_bridge.sim_table import SimRoom, SimTable

if TYPE_CHECKING:  # paho-mqtt is imported only where a broker is set up (--mqtt, --nodes mqtt)
    from firmware_bridge.mqtt_link import GamePublisher, MqttEnd, MqttLink

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
    version: str = ""  # the firmware version of its hello ("" when it named none)


@dataclass(frozen=True)
class HealthView:
    nodes: list[NodeRow]
    dropped: dict[str, int] = field(default_factory=dict)  # refused input, by reason
    broker: str = ""
    shipped: str = ""  # the firmware version this app ships ("": not compared)

    def lines(self) -> list[str]:
        """What the Hardware screen shows, in the players' language: each node named by what
        it is on the table ("north-east room platform", "card reader"), no ids, no flags."""
        # the broker first: it says why every node may be offline (a login another device took)
        # and stays in sight however many lines the nodes take
        out = self.broker.splitlines()
        for row in self.nodes:
            name = capital_first(node_name(row.node))  # it opens the line
            parts = [
                tr("{node}: online").format(node=name)
                if row.online
                else tr("{node}: offline").format(node=name)
            ]
            if row.seen_s_ago is None:
                parts.append(tr("never heard"))
            else:
                parts.append(tr("heard {seconds} s ago").format(seconds=decimal(row.seen_s_ago, 1)))
            if row.rtt_ms is not None:
                parts.append(tr("round trip {ms} ms").format(ms=decimal(row.rtt_ms, 2)))
            parts.append(_counts(row.errors, tr("no errors"), tr("errors: {counts}")))
            out.append(", ".join(parts))
            outdated = firmware_line(row, self.shipped)
            if outdated:
                out.append("    " + outdated)
            if not row.online and row.offline_reason:
                out.append("    " + tr("offline: {reason}").format(reason=row.offline_reason))
            if row.last_refusal:
                out.append("    " + tr("refused a command: {what}").format(what=row.last_refusal))
            if row.faults:
                out.append(
                    "    "
                    + ngettext(
                        "{count} fault survived, the last: {fault}",
                        "{count} faults survived, the last: {fault}",
                        row.faults,
                    ).format(count=row.faults, fault=row.last_fault)
                )
        out.append(_counts(self.dropped, tr("Refused input: none"), tr("Refused input: {counts}")))
        return out


def firmware_line(row: NodeRow, shipped: str) -> str:
    """ "" when the node runs the firmware this app ships (or has not said hello yet), else
    the words naming the difference (issue 43)."""
    if not shipped or row.kind == "?" or row.version == shipped:
        return ""
    if not row.version:
        return tr(
            "firmware too old to name its version, this app ships {shipped}: update the node "
            "(hardware/BUILD.md)"
        ).format(shipped=shipped)
    return tr(
        "firmware {version}, this app ships {shipped}: update the node (hardware/BUILD.md)"
    ).format(version=row.version, shipped=shipped)


#: error counters and refused input the players may meet, in words (others keep the bridge's
#: short name, for whoever reads the log)
ERROR_NAMES = {
    "resent": N_("resent"),
    "unacked": N_("never confirmed"),
    "lost_in_transit": N_("lost on the way"),
    "crc": N_("damaged"),
    "cobs": N_("garbled"),
    "malformed": N_("malformed"),
    "short": N_("too short"),
    "too_large": N_("too long"),
    "duplicate": N_("repeated"),
    "unknown_node": N_("from an unknown node"),
    "node_not_reading": N_("node not reading"),
    "write_timeout": N_("sending timed out"),
    "queue_full": N_("queue full"),
}


def _counts(counts: dict[str, int], none: str, template: str) -> str:
    if not counts:
        return none
    named = ", ".join(
        f"{tr(ERROR_NAMES[k]) if k in ERROR_NAMES else k} {v}" for k, v in sorted(counts.items())
    )
    return template.format(counts=named)


def node_name(node: str) -> str:
    """A node as players know it: the card reader, or the platform of a room by the room's
    name ("north-east room platform"); an id nobody named stays as it is."""
    if node == CARD_READER:
        return tr("card reader")
    if node.startswith("room-"):
        room = node.removeprefix("room-").upper()
        if room == "C":  # the centre room has no platform (R-TEL-3): its node is the room's
            return room_name(room)
        return tr("{room} platform").format(room=room_name(room))
    return node


#: colours the rings show, by name (the nearest one names any other colour)
COLOUR_NAMES: dict[tuple[int, int, int], str] = {
    (0xC0, 0x00, 0x00): N_("red"),
    (0xFF, 0x00, 0x00): N_("red"),
    (0xFF, 0x60, 0x00): N_("orange"),
    (0xFF, 0xB0, 0x00): N_("amber"),
    (0xFF, 0xFF, 0x00): N_("yellow"),
    (0x40, 0xFF, 0x40): N_("green"),
    (0x00, 0xC0, 0xFF): N_("light blue"),
    (0x00, 0x00, 0xFF): N_("blue"),
    (0x80, 0x00, 0xFF): N_("violet"),
    (0xFF, 0x00, 0xA0): N_("pink"),
    (0xFF, 0xFF, 0xFF): N_("white"),
}


def colour_name(colour: str) -> str:
    """ "#c00000" -> "red": the nearest named colour, in the players' language."""
    value = colour.lstrip("#")
    try:
        rgb = tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return colour
    nearest = min(
        COLOUR_NAMES, key=lambda c: sum((a - b) ** 2 for a, b in zip(c, rgb, strict=True))
    )
    return tr(COLOUR_NAMES[nearest])


def ring_words(ring: p.Led | None) -> str:
    """What a ring shows, as a player would say it: "pulses red at 86 % brightness"."""
    if ring is None or ring.pattern == "off" or ring.brightness == 0:
        return tr("is dark")
    percent = round(ring.brightness * 100 / 255)
    template = {
        "steady": N_("glows {colour} at {percent} % brightness"),
        "pulse": N_("pulses {colour} at {percent} % brightness"),
        "chase": N_("runs round in {colour} at {percent} % brightness"),
    }[ring.pattern]
    return tr(template).format(colour=colour_name(ring.colour), percent=percent)


def _login_words(end: MqttEnd, address: str) -> str:
    """A login another device shares, and what to do about it, without command-line flags
    (the log and the docs name them: docs/mqtt.md)."""
    since = end.shared_since
    at = time.strftime("%H:%M:%S", time.localtime(since)) if since is not None else "?"
    template = (
        tr(
            "Broker {address}: another device took over the login {login} at {time}; "
            "retrying every {seconds} s. Give each device its own login."
        )
        if end.shared_certain
        else tr(
            "Broker {address}: the login {login} has been cut off again and again by another "
            "device since {time}; retrying every {seconds} s. Give each device its own login."
        )
    )
    from firmware_bridge.mqtt_link import LONG_RETRY_S  # a broker is set up: imported

    return template.format(address=address, login=end.username, time=at, seconds=LONG_RETRY_S)


def broker_status(publisher: GamePublisher | None) -> str:
    """One line on where the game events go."""
    if publisher is None:
        return tr("Broker: none set up; the game events stay in this app.")
    address = publisher.address
    if publisher.login_problem:  # a second device on our login (issue 28)
        return _login_words(publisher, address)
    if publisher.connected.is_set():
        return tr("Broker {address}, login {login}: connected.").format(
            address=address, login=publisher.username
        )
    if publisher.refusals:
        return tr(
            "Broker {address}, login {login}: not connected (refused: {reason}); the game "
            "events wait until it is back."
        ).format(address=address, login=publisher.username, reason=publisher.refusals[-1])
    return tr(
        "Broker {address}, login {login}: not connected; the game events wait until it is back."
    ).format(address=address, login=publisher.username)


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
            version=h.version,
        )
        for h in bridge.health()
    ]
    dropped: Counter[str] = Counter(bridge.drops.counts)
    link_drops = getattr(bridge.link, "drops", None)
    if link_drops is not None and link_drops is not bridge.drops:
        dropped.update(link_drops.counts)
    link = bridge.link
    if getattr(link, "login_problem", ""):  # only the nodes' MQTT link has one
        publisher = cast("GamePublisher", link)
        shared = _login_words(publisher, publisher.address)
        if shared not in broker:
            broker = "\n".join(x for x in (broker, shared) if x)
    return HealthView(rows, dict(dropped), broker, shipped_version())


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
