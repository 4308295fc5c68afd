"""Nodes over MQTT (paho-mqtt 2.x), the app's side.

Subscribes to every node's `event` and `status` topic of one table and publishes commands on each
node's `cmd` topic with QoS 1. The broker's ACL ties a topic to the node allowed to write it, so
the node id in the topic is the source (`fixed_sources`); the bridge checks the payload names the
same node. paho reconnects by itself (with back-off); after each (re)connect we subscribe again,
and the retained status messages tell the bridge who is online, which makes it resend LED state.

One login, one device: the broker keeps one connection per login (`use_username_as_clientid`),
so a second client with our login cuts us off, we cut it off on our reconnect, and so on, about
once a second, each losing what was on its way. A client cut off within seconds of its welcome
several times in a row (or told "session taken over": our clients speak MQTT 5, and Mosquitto
from 2.0.15 says why it cuts one — Debian 13's 2.0.21 does, Debian 12's 2.0.11 not) takes it
as a second device on its login: it logs what to do, says so in `login_problem` (the health
view's broker line) and retries only every LONG_RETRY_S, so the other device keeps the login.
A connection that lasts clears it.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.ids import check_id
from firmware_bridge.links import Deliver, SourceChanged
from firmware_bridge.protocol import MAX_PAYLOAD, DropCounter
from firmware_bridge.topics import game_topic, node_topic, nodes_filter, parse_node_topic

log = logging.getLogger(__name__)

#: messages paho keeps while the broker is away (game events; LED commands are never queued:
#: the bridge resends the newest state itself once the node is back)
MAX_QUEUED = 1000
#: MQTT 5 DISCONNECT reason: another client connected with our client id (= our login)
SESSION_TAKEN_OVER = 0x8E
#: a connection cut this soon after the broker welcomed it counts as a quick cut; this many in a
#: row look like a second device on our login (when the broker gives no reason)
QUICK_CUT_S = 5.0
QUICK_CUTS = 3
#: how often a client retries while another device holds its login
LONG_RETRY_S = 60


def new_client(client_id: str, username: str, password: str, ca: Path | None = None) -> mqtt.Client:
    """A paho 2 client as both ends use it: reconnecting within 1-2 s, queueing at most
    MAX_QUEUED messages while the broker is away (the bridge's acks decide what is lost, not the
    queue). `ca`: speak TLS and trust only this CA (the one `provision --tls` made). MQTT 5:
    the broker says why it cut a connection (a session taken over by another client); each
    connection starts a fresh session (clean start, no session expiry), as before."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.username_pw_set(username, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(min_delay=1, max_delay=2)  # as MqttEnd._settle_login restores
    client.max_queued_messages_set(MAX_QUEUED)
    return client


def send_at_once(client: mqtt.Client) -> None:
    """Switch off Nagle's algorithm on the client's socket: our messages are small and latency
    matters (with it, each hop waits ~40 ms for the peer's delayed ACK)."""
    sock = client.socket()
    if isinstance(sock, socket.socket):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttEnd:
    """One of our paho clients (the app's, or a simulated node's): connects in the background,
    records why the broker refused it, switches Nagle off, knows whether it is connected.
    Subclasses say what to do once welcomed, when cut off and with each message."""

    def __init__(
        self,
        host: str,
        port: int,
        client_id: str,
        username: str,
        password: str,
        keepalive_s: int,
        ca: Path | None = None,
    ) -> None:
        self.connected = threading.Event()
        self.refusals: list[str] = []  # why the broker refused us, newest last
        self.cuts = 0  # connections lost (a broker restart, a network cut, a session taken)
        self.drops = DropCounter()  # what arrived and was refused, by reason
        #: since when (time.time()) another device seems to share our login, or None
        self.shared_since: float | None = None
        self.shared_certain = False  # the broker said so (MQTT 5 "session taken over")
        self.quick_cuts = 0  # connections in a row cut within QUICK_CUT_S of the welcome
        self._welcomed_at: float | None = None  # time.monotonic()
        self.username = username
        self._address = (host, port, keepalive_s)
        self._client_id = client_id
        self._connecting = False
        self.client = new_client(client_id, username, password, ca)
        self.tls = ca is not None
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def _connect(self) -> None:
        """Connect in the background (once: the app's link may also be its game publisher)."""
        if self._connecting:
            return
        self._connecting = True
        host, port, keepalive = self._address
        self.client.connect_async(host, port, keepalive)
        self.client.loop_start()

    def _welcomed(self, client: mqtt.Client) -> None:
        """Connected (again): subscribe, announce."""

    def _lost(self) -> None:
        """Cut off from the broker."""

    def _received(self, msg: mqtt.MQTTMessage) -> None:
        """A message on a subscribed topic."""

    # ----- paho callbacks (paho's network thread) ----------------------------------------------
    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            self.refusals.append(str(reason))
            log.warning("broker refused %s: %s", self._client_id, reason)
            return
        send_at_once(client)
        self._welcomed_at = time.monotonic()
        self._welcomed(client)
        self.connected.set()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if self.connected.is_set():
            self.cuts += 1
            welcomed = self._welcomed_at
            quick = welcomed is not None and time.monotonic() - welcomed <= QUICK_CUT_S
            self.quick_cuts = self.quick_cuts + 1 if quick else 0
        self.connected.clear()
        taken = reason.value == SESSION_TAKEN_OVER  # said by Mosquitto >= 2.0.15 (MQTT 5)
        if taken or self.quick_cuts >= QUICK_CUTS:
            self._shared_login(client, taken)
        self._lost()

    def _shared_login(self, client: mqtt.Client, certain: bool) -> None:
        """Another device uses our login: from now on retry only every LONG_RETRY_S, so the
        other keeps it (the newest connection wins) instead of a tug of war each second."""
        if self.shared_since is not None:
            return
        self.shared_since = time.time()
        self.shared_certain = certain
        client.reconnect_delay_set(min_delay=LONG_RETRY_S, max_delay=LONG_RETRY_S)
        log.error(
            "broker login %s is used by another device too (%s): two clients on one login cut "
            "each other off about once a second. This one now retries only every %d s and "
            "leaves the login to the other. Give each device its own login (provision --apps N "
            "and --screens N make more; the app's and serve's --login; one config per node), "
            "then restart this one.",
            self.username,
            "the broker said: session taken over"
            if certain
            else f"cut off {self.quick_cuts} times within seconds of connecting",
            LONG_RETRY_S,
        )

    def _settle_login(self) -> None:
        """A connection that lasted: whatever shared the login is gone (or lost it to us)."""
        welcomed = self._welcomed_at
        if (
            self.shared_since is not None
            and self.connected.is_set()
            and welcomed is not None
            and time.monotonic() - welcomed > QUICK_CUT_S
        ):
            self.shared_since = None
            self.quick_cuts = 0
            self.client.reconnect_delay_set(min_delay=1, max_delay=2)
            log.info("broker login %s: connected for good again", self.username)

    @property
    def login_problem(self) -> str:
        """One line on a login shared with another device, or "" when nothing suggests one."""
        self._settle_login()
        since = self.shared_since
        if since is None:
            return ""
        at = time.strftime("%H:%M:%S", time.localtime(since))
        why = "taken over" if self.shared_certain else "cut off again and again"
        return (
            f"login {self.username} {why} by another device since {at}; retrying every "
            f"{LONG_RETRY_S} s: give each device its own login (provision --apps/--screens, "
            "--login)"
        )

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        # paho's network thread: an exception here would end it (no more messages, no acks,
        # `connected` still true). Whatever one message does, it is logged, counted and skipped.
        try:
            self._received(msg)
        except Exception:  # the one place nothing may escape from
            log.exception("a message on %s could not be handled", msg.topic[:100])
            self.drops.drop("handler_error", msg.topic[:100])


class GamePublisher(MqttEnd):
    """The app's client for the game topics only: `armata/<table>/game/event` and the retained
    `.../game/state`. Enough when the nodes are on serial (or simulated) and the broker serves
    observers; `MqttLink` adds the nodes on top. Messages published while the broker is away
    are queued by paho (at most MAX_QUEUED; beyond, counted as `queue_full`) and go out after
    the reconnect."""

    def __init__(
        self,
        host: str,
        port: int,
        table: str,
        username: str,
        password: str,
        *,
        client_id: str | None = None,
        keepalive_s: int = 5,
        ca: Path | None = None,
    ) -> None:
        super().__init__(host, port, client_id or username, username, password, keepalive_s, ca)
        self.table = check_id("table id", table)

    @property
    def address(self) -> str:
        host, port, _keepalive = self._address
        return f"{host}:{port}"

    def start_publishing(self) -> None:
        self._connect()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def publish_game(self, leaf: str, payload: bytes, retain: bool = False) -> bool:
        """`armata/<table>/game/event` (every game event) or `.../state` (retained)."""
        info = self.client.publish(game_topic(self.table, leaf), payload, qos=1, retain=retain)
        if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
            self.drops.drop("queue_full", leaf)  # a long outage: the oldest kept, this one lost
        return info.rc in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN)  # queued until back


class MqttLink(GamePublisher):
    """The app's link to the nodes of one table (and its game topics)."""

    fixed_sources = True

    def __init__(
        self,
        host: str,
        port: int,
        table: str,
        username: str,
        password: str,
        *,
        client_id: str | None = None,
        keepalive_s: int = 5,
        drops: DropCounter | None = None,
        ca: Path | None = None,
    ) -> None:
        super().__init__(
            host,
            port,
            table,
            username,
            password,
            client_id=client_id,
            keepalive_s=keepalive_s,
            ca=ca,
        )
        self.drops = drops or DropCounter()
        self._nodes_seen: set[str] = set()
        self.deliver: Deliver = lambda source, payload: None
        self.changed: SourceChanged = lambda source, up: None

    def start(self, deliver: Deliver, changed: SourceChanged) -> None:
        self.deliver, self.changed = deliver, changed
        self._connect()

    def send(self, source: str, payload: bytes) -> bool:
        """Only while connected: a command queued during an outage would go out late beside its
        own resends; the bridge keeps it pending and shows the node its newest state anyway."""
        if not self.connected.is_set():
            return False
        info = self.client.publish(node_topic(self.table, source, "cmd"), payload, qos=1)
        return info.rc == mqtt.MQTT_ERR_SUCCESS

    def _welcomed(self, client: mqtt.Client) -> None:
        client.subscribe(
            [
                (nodes_filter(self.table, "event"), 1),
                (nodes_filter(self.table, "status"), 1),
            ]
        )

    def _lost(self) -> None:
        for node in sorted(self._nodes_seen):  # unknown until the broker tells us again
            self.changed(node, False)

    def _received(self, msg: mqtt.MQTTMessage) -> None:
        parsed = parse_node_topic(msg.topic)
        if parsed is None or parsed[0] != self.table or parsed[2] not in ("event", "status"):
            self.drops.drop("topic", msg.topic[:100])
            return
        if len(msg.payload) > MAX_PAYLOAD:
            self.drops.drop("too_large", f"{len(msg.payload)} bytes on {msg.topic[:100]}")
            return
        if msg.retain and parsed[2] == "event":  # an old event replayed by the broker, not
            self.drops.drop("retained", msg.topic[:100])  # a tap made now
            return
        node = parsed[1]
        self._nodes_seen.add(node)
        self.deliver(node, bytes(msg.payload))
