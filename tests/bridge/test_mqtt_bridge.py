"""The bridge over MQTT against a real Mosquitto with the project's config: authentication, ACL,
ack/retry, LED resync after a broker restart, last will, and 20 tables on one broker."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.mqtt_link import MqttLink
from firmware_bridge.mqtt_wire import MqttWire
from firmware_bridge.node_sim import SimNode
from firmware_bridge.topics import node_topic
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import Broker, connect_result, wait_for

pytestmark = pytest.mark.slow  # real Mosquitto brokers

NODES = ["room-a", "room-b", "cards"]


class Table:
    """One table: the app's bridge and simulated nodes, all on MQTT."""

    def __init__(self, broker: Broker, table: str, nodes: list[str], known: list[str]) -> None:
        self.events: list[p.Message] = []
        user, password = broker.app(table)
        self.link = MqttLink("127.0.0.1", broker.port, table, user, password)
        self.bridge = Bridge(self.link, known, self.events.append, retry_after_s=0.1)
        self.known = known  # the nodes the app was told about (it greets only those)
        self.nodes = {n: SimNode(n, "card_reader" if n == "cards" else "room") for n in nodes}
        self.wires = {
            n: MqttWire(node, "127.0.0.1", broker.port, table, *broker.node(table, n))
            for n, node in self.nodes.items()
        }

    def start(self) -> Table:
        self.bridge.start()
        for wire in self.wires.values():
            wire.start()
        wait_for(
            lambda: all(h.online for h in self.bridge.health() if h.node in self.wires),
            10,
            "every node online",
        )
        # and every node greeted by the bridge (its first ping): until then a node repeats its
        # hello and, once greeted, reports the tags it holds again
        greeted = [node for name, node in self.nodes.items() if name in self.known]
        wait_for(lambda: all(n.greeted.is_set() for n in greeted), 10, "greetings")
        return self

    def stop(self) -> None:
        for wire in self.wires.values():
            wire.stop()
        self.bridge.stop()


@pytest.fixture
def table(broker_factory) -> Iterator[tuple[Broker, Table]]:  # type: ignore[no-untyped-def]
    broker = broker_factory({"t1": NODES})
    t = Table(broker, "t1", NODES, NODES).start()
    yield broker, t
    t.stop()


def test_anonymous_and_wrong_passwords_are_refused(broker_factory) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory({"t1": NODES})
    user, password = broker.app("t1")
    assert connect_result(broker.port, None, None) == "Not authorized"
    assert connect_result(broker.port, user, password + "x") == "Not authorized"
    assert connect_result(broker.port, "node.t1.room-z", "whatever") == "Not authorized"
    assert connect_result(broker.port, user, password) == "Success"


def test_leds_are_acknowledged_and_shown(table) -> None:  # type: ignore[no-untyped-def]
    _, t = table
    t.bridge.set_led("room-a", colour="#ff0000", pattern="pulse", brightness=200)
    t.bridge.set_led("room-a", target="segment", direction=3, colour="#00ff00", pattern="chase")
    assert t.bridge.wait_acked(limit(5))
    shown = t.nodes["room-a"].showing()
    assert shown["ring"]["colour"] == "#ff0000" and shown["ring"]["pattern"] == "pulse"  # type: ignore[index]
    assert shown["segments"][3]["pattern"] == "chase"  # type: ignore[index]
    assert t.nodes["room-b"].showing() == {"ring": None, "segments": {}}
    health = {h.node: h for h in t.bridge.health()}
    assert health["room-a"].acked == 2 and health["room-a"].rtt_ms is not None


def test_tags_and_buttons_reach_the_app(table) -> None:  # type: ignore[no-untyped-def]
    _, t = table
    t.nodes["cards"].place_tag("04aabbccdd")
    t.nodes["cards"].remove_tag()
    t.nodes["room-b"].press("confirm")
    wait_for(lambda: len([e for e in t.events if not isinstance(e, p.Hello | p.Status)]) == 3)
    kinds = [(e.node, type(e).__name__) for e in t.events if not isinstance(e, p.Hello | p.Status)]
    # one node's messages keep their order; two nodes' connections do not order each other
    assert [k for k in kinds if k[0] == "cards"] == [
        ("cards", "TagPresent"),
        ("cards", "TagRemoved"),
    ]
    assert ("room-b", "Button") in kinds


def test_a_node_cannot_speak_for_another(table) -> None:  # type: ignore[no-untyped-def]
    broker, t = table
    intruder = _node_client(broker, t, "room-a", "intruder")
    fake_tag = p.TagPresent(seq=999, node="room-b", uid="0badc0de")
    # on room-b's topic: the broker's ACL drops it; on its own topic: the bridge drops it
    intruder.publish(
        node_topic("t1", "room-b", "event"), p.encode_message(fake_tag), qos=1
    ).wait_for_publish(limit(5))
    intruder.publish(
        node_topic("t1", "room-a", "event"), p.encode_message(fake_tag), qos=1
    ).wait_for_publish(limit(5))
    # and it cannot write another node's commands either
    led = p.Led(seq=77, node="room-b", colour="#123456")
    intruder.publish(node_topic("t1", "room-b", "cmd"), p.encode_message(led), qos=1)
    wait_for(lambda: t.bridge.drops.counts["impersonation"] == 1, 5, "the impersonation drop")
    time.sleep(0.3)
    intruder.disconnect()
    intruder.loop_stop()
    assert not [e for e in t.events if isinstance(e, p.TagPresent)]
    assert t.nodes["room-b"].showing()["ring"] is None


def test_the_app_ignores_nodes_it_was_not_told_about(broker_factory) -> None:  # type: ignore[no-untyped-def]
    broker = broker_factory({"t1": [*NODES, "room-x"]})
    t = Table(broker, "t1", [*NODES, "room-x"], known=NODES).start()
    try:
        t.nodes["room-x"].place_tag("01020304")
        wait_for(lambda: t.bridge.drops.counts["unknown_node"] >= 2, 5, "unknown node drops")
        assert all(e.node != "room-x" for e in t.events)
        with pytest.raises(ValueError, match="not part of this table"):
            t.bridge.set_led("room-x", colour="#ffffff")
    finally:
        t.stop()


def test_a_broker_restart_loses_no_command_and_leds_are_resent(table) -> None:  # type: ignore[no-untyped-def]
    broker, t = table
    sent: list[int] = []
    node = t.nodes["room-a"]
    for i in range(60):
        sent.append(t.bridge.set_led("room-a", colour=f"#0000{i:02x}"))
        if i == 20:
            broker.restart()  # mid-stream: every client is cut off; sessions are gone
            node.power_cycle()  # and the node reboots too: it must get its LEDs back
        time.sleep(0.01)
    assert t.bridge.wait_acked(limit(30)), f"{t.bridge.pending()} commands never acknowledged"
    assert t.bridge.failed == []
    received = {m.seq for m in node.received}
    replaced = {seq for node_id, seq in t.bridge.superseded if node_id == "room-a"}
    # every command after the restart reached the node, or a newer one for the same LEDs did
    assert set(sent[21:]) <= received | replaced
    assert node.showing()["ring"]["colour"] == "#00003b"  # type: ignore[index]
    assert t.wires["room-a"].connected.is_set() and t.link.connected.is_set()


def test_a_node_that_dies_is_reported_offline_by_its_last_will(table) -> None:  # type: ignore[no-untyped-def]
    _, t = table
    t.wires["room-b"].stop(gracefully=False)
    wait_for(lambda: not {h.node: h for h in t.bridge.health()}["room-b"].online, 15, "last will")
    assert any(isinstance(e, p.Status) and e.state == "offline" for e in t.events)


def test_twenty_tables_on_one_broker_do_not_cross_talk(broker_factory) -> None:  # type: ignore[no-untyped-def]
    names = [f"t{i:02d}" for i in range(20)]
    nodes = ["room-a", "cards"]
    broker = broker_factory({name: nodes for name in names})
    tables = [Table(broker, name, nodes, nodes) for name in names]
    try:
        for t in tables:
            t.start()
        for i, t in enumerate(tables):
            t.bridge.set_led("room-a", colour=f"#{i:02x}{i:02x}{i:02x}")
            t.nodes["cards"].place_tag(f"{i:08x}")
        for i, t in enumerate(tables):
            assert t.bridge.wait_acked(limit(10))
            wait_for(lambda t=t: any(isinstance(e, p.TagPresent) for e in t.events), 5)
            assert t.nodes["room-a"].showing()["ring"]["colour"] == f"#{i:02x}{i:02x}{i:02x}"  # type: ignore[index]
            assert len(t.nodes["room-a"].received) == 1  # only its own table's command
            tags = [e.uid for e in t.events if isinstance(e, p.TagPresent)]
            assert tags == [f"{i:08x}"]
            assert t.bridge.drops.total == 0
    finally:
        for t in tables:
            t.stop()


def test_game_topics_are_the_apps_and_state_is_retained(table) -> None:  # type: ignore[no-untyped-def]
    broker, t = table
    assert t.link.publish_game("state", b'{"round":3}', retain=True)
    assert t.link.publish_game("event", b'{"event":"phase_changed"}')
    got: dict[str, list[bytes]] = {"app": [], "node": []}

    def listener(who: str, user: tuple[str, str]) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"late-{who}")
        client.username_pw_set(*user)
        client.on_message = lambda c, u, m: got[who].append(m.payload)
        client.connect("127.0.0.1", broker.port)
        client.subscribe("armata/t1/game/#", 1)
        client.loop_start()
        return client

    late_screen = listener("app", broker.screen("t1", 1))  # a second screen joining later
    nosy_node = listener("node", broker.node("t1", "room-a"))
    try:
        # (the event may arrive too if the subscription overtakes it: only the state is retained)
        wait_for(lambda: b'{"round":3}' in got["app"], 5, "the retained state")
        time.sleep(0.3)
        assert got["node"] == []  # a node reads nothing but its own commands
    finally:
        for client in (late_screen, nosy_node):
            client.disconnect()
            client.loop_stop()


def test_oversized_payloads_are_refused(table) -> None:  # type: ignore[no-untyped-def]
    broker, t = table
    client = _node_client(broker, t, "room-a", "big-talker")
    try:
        big = (
            b'{"type":"error","v":1,"seq":1,"node":"room-a","code":"x","detail":"'
            + b"y" * 700
            + b'"}'
        )
        client.publish(node_topic("t1", "room-a", "event"), big, qos=1).wait_for_publish(limit(5))
        wait_for(lambda: t.link.drops.counts["too_large"] == 1, 5, "the app's size check")
        huge = b"z" * 70_000  # over the broker's packet limit: the broker cuts the client off
        client.publish(node_topic("t1", "room-a", "event"), huge, qos=1)
        wait_for(lambda: not client.is_connected(), 5, "the broker closing the connection")
    finally:
        client.disconnect()
        client.loop_stop()
    assert not [e for e in t.events if isinstance(e, p.Error)]


def test_the_simulator_process_speaks_mqtt(broker_factory, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    broker = broker_factory({"t1": NODES})
    events: list[p.Message] = []
    bridge = Bridge(
        MqttLink("127.0.0.1", broker.port, "t1", *broker.app("t1")), NODES, events.append
    )
    bridge.start()
    sim = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_bridge.simulated_nodes",
            "--nodes",
            ",".join(NODES),
            "--mqtt",
            f"127.0.0.1:{broker.port}",
            "--table",
            "t1",
            "--credentials",
            str(broker.files.credentials),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert sim.stdin is not None
    try:
        wait_for(lambda: all(h.online for h in bridge.health()), 15, "the simulated nodes")
        sim.stdin.write("place cards 0a0b0c0d\n")
        sim.stdin.flush()
        wait_for(lambda: any(isinstance(e, p.TagPresent) for e in events), 5, "the tag")
        bridge.set_led("room-b", colour="#abcdef")
        assert bridge.wait_acked(limit(5))
    finally:
        bridge.stop()
        sim.stdin.write("quit\n")
        sim.stdin.flush()
        assert sim.wait(limit(10)) == 0


def _node_client(broker: Broker, t: Table | None, node: str, client_id: str) -> mqtt.Client:
    """A rogue firmware on `node`: its own credentials (its simulated wire stopped first: the
    broker binds the client id to the user, so one user has one session)."""
    if t is not None and node in t.wires:
        t.wires[node].stop()
    connected = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
    client.username_pw_set(*broker.node("t1", node))
    client.on_connect = lambda *args: connected.set()
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert connected.wait(limit(5)), "the rogue node could not connect"
    return client


def test_a_node_cannot_take_the_apps_session_by_its_client_id(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 2: a node's credentials with the client id `app-t1` used to kick the app
    off the broker (and every reconnect of either kicked the other)."""
    broker, t = table
    assert t.link.connected.is_set() and t.link.cuts == 0
    rogue = _node_client(broker, t, "room-a", "app-t1")
    try:
        time.sleep(0.5)
        assert t.link.cuts == 0 and t.link.connected.is_set()
        t.nodes["cards"].place_tag("04aabbccdd")  # and the app still hears the table
        wait_for(lambda: any(isinstance(e, p.TagPresent) for e in t.events), 5, "the tag")
    finally:
        rogue.disconnect()
        rogue.loop_stop()


def test_one_invalid_utf8_byte_is_dropped_and_the_table_goes_on(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 1: the byte used to kill paho's network thread: no tag reached the app
    after it, while every node still showed online."""
    broker, t = table
    client = _node_client(broker, t, "room-a", "room-a-bytes")
    try:
        bad = b'{"v":1,"type":"tag_present","seq":900,"node":"room-a","uid":"04\xffaa"}'
        client.publish(node_topic("t1", "room-a", "event"), bad, qos=1).wait_for_publish(limit(5))
        wait_for(lambda: t.bridge.drops.total >= 1, 5, "the drop of the bad message")
    finally:
        client.disconnect()
        client.loop_stop()
    t.nodes["cards"].place_tag("04aabbccdd")  # the link still reads and delivers
    wait_for(lambda: any(isinstance(e, p.TagPresent) for e in t.events), 5, "the next tag")
    assert t.link.connected.is_set()


def test_a_retained_event_is_not_replayed_as_a_tap(broker_factory) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 5: a node's retained tag_present reached every app start as a live tap."""
    broker = broker_factory({"t1": NODES})
    client = _node_client(broker, None, "cards", "cards-retained")
    try:
        old_tap = p.encode_message(p.TagPresent(seq=5, node="cards", uid="04aabbccdd"))
        client.publish(
            node_topic("t1", "cards", "event"), old_tap, qos=1, retain=True
        ).wait_for_publish(limit(5))
    finally:
        client.disconnect()
        client.loop_stop()
    t = Table(broker, "t1", NODES, NODES).start()  # the app starts after the retained message
    try:
        wait_for(lambda: t.link.drops.counts["retained"] == 1, 5, "the retained event refused")
        t.nodes["cards"].place_tag("04ddccbbaa")  # a real tap still arrives
        wait_for(lambda: any(isinstance(e, p.TagPresent) for e in t.events), 5, "the real tap")
        # the old tap never arrives (the real one may twice: a resting tag is reported again
        # when the node is greeted)
        assert {e.uid for e in t.events if isinstance(e, p.TagPresent)} == {"04ddccbbaa"}
    finally:
        t.stop()


def _cut(wire: MqttWire) -> None:
    """The node's connection dies without a DISCONNECT (power, Wi-Fi): the broker sends its
    will; paho inside the wire reconnects by itself, as the firmware's loop does."""
    import socket

    sock = wire.client.socket()
    assert isinstance(sock, socket.socket)
    sock.shutdown(socket.SHUT_RDWR)  # not close(): paho's thread still owns the descriptor


def test_a_node_that_dies_twice_is_seen_dead_twice(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 6: the will carried the seq of the first connection, so the second death
    was dropped as a duplicate and the node showed online."""
    _, t = table
    wire = t.wires["room-b"]

    def online() -> bool:
        return {h.node: h for h in t.bridge.health()}["room-b"].online

    for death in (1, 2):
        _cut(wire)
        wait_for(lambda: not online(), 10, f"death {death} seen")
        wait_for(online, 15, f"back after death {death}")
    offline = [e for e in t.events if isinstance(e, p.Status) and e.state == "offline"]
    assert len(offline) == 2 and offline[0].seq != offline[1].seq


def test_a_node_that_stops_answering_goes_offline_with_the_reason(broker_factory) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 6: the bridge never derived "offline" from unanswered pings: a node
    silent for 45 s showed online. Now N missed pings mark it offline, saying why; its next
    word brings it back."""
    broker = broker_factory({"t1": NODES})
    t = Table(broker, "t1", NODES, NODES)
    t.bridge.ping_every_s = limit(0.1)  # the others must answer within 3 pings, emulated too
    t.bridge.offline_after_missed = 3
    t.start()
    try:
        node = t.nodes["room-a"]
        node.ignore_next = 10**9  # alive on the broker, deaf to the Pi
        wait_for(lambda: not t.bridge.is_online("room-a"), 5, "offline after missed pings")
        health = {h.node: h for h in t.bridge.health()}
        assert health["room-a"].offline_reason.startswith("no answer to 3 pings")
        assert health["room-b"].online and health["cards"].online  # the others answer
        node.ignore_next = 0
        wait_for(lambda: t.bridge.is_online("room-a"), 5, "back with the next pong")
        assert {h.node: h for h in t.bridge.health()}["room-a"].offline_reason == ""
    finally:
        t.stop()


def test_an_outage_grows_no_queue_and_the_node_gets_the_newest_state(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 7: paho's send queue had no bound and every LED retry during an outage
    added a copy. Now LED commands wait in the bridge (the newest per ring), game events in a
    bounded queue whose overflow is counted."""
    from firmware_bridge.mqtt_link import MAX_QUEUED

    broker, t = table
    broker.stop()
    wait_for(lambda: not t.link.connected.is_set(), 10, "the cut")
    for i in range(3000):
        t.bridge.set_led("room-a", colour=f"#0000{i % 256:02x}")
    assert t.bridge.pending() <= 2  # superseded, not piled up
    published = [t.link.publish_game("event", b'{"n":%d}' % i) for i in range(MAX_QUEUED + 200)]
    assert published.count(True) <= MAX_QUEUED and t.link.drops.counts["queue_full"] >= 200
    broker.start()
    wait_for(lambda: t.link.connected.is_set(), 15, "the reconnect")
    want = f"#0000{2999 % 256:02x}"
    wait_for(
        lambda: (t.nodes["room-a"].showing()["ring"] or {}).get("colour") == want,  # type: ignore[union-attr]
        15,
        "the newest LED state at the node",
    )


def test_messages_lost_on_the_way_are_counted_per_node(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, item 8: 247 of 20,000 events were lost in the broker's per-client queue and no
    counter moved. A node numbers what it sends: the bridge counts the holes, per node."""
    broker, t = table
    client = _node_client(broker, t, "room-a", "room-a-gaps")
    try:
        hello = p.Hello(seq=4999, node="room-a", kind="room", firmware="x", readers=2)
        sent: list[p.Message] = [hello]  # a (re)started node: a new series of seqs
        sent += [
            p.TagPresent(seq=seq, node="room-a", uid=f"04aa{seq:06x}")
            for seq in (5000, 5001, 5002, 5006, 5007, 5010)  # 3 + 2 never arrive
        ]
        # the last will of the connection before, given late by the broker (a keepalive ran out
        # after the restart): its seq is from the old series and must not start a new one
        late_will = p.Status(seq=1_234_567, node="room-a", state="offline")
        sent.insert(4, late_will)
        # and a message the node sent just before it restarted, delivered after the new hello
        # (under load it happened with the simulated wire's last pong): late, not a new series
        sent.insert(0, p.Hello(seq=900_000, node="room-a", kind="room", firmware="x", readers=2))
        sent.insert(4, p.TagRemoved(seq=900_001, node="room-a", uid="04aa000000"))
        for message in sent:
            client.publish(
                node_topic("t1", "room-a", "event"), p.encode_message(message), qos=1
            ).wait_for_publish(limit(5))
        health = lambda: {h.node: h for h in t.bridge.health()}["room-a"]  # noqa: E731
        wait_for(lambda: health().errors["lost_in_transit"] == 5, 30, "the holes counted")
        replay = p.TagPresent(seq=5001, node="room-a", uid="04aa001389")
        client.publish(
            node_topic("t1", "room-a", "event"), p.encode_message(replay), qos=1
        ).wait_for_publish(limit(5))
        wait_for(lambda: t.bridge.drops.counts["duplicate"] >= 1, 5, "the replay dropped")
        assert health().errors["lost_in_transit"] == 5  # a replay is no loss
        # one overtaken on the way (two of the node's threads sending, a redelivery) is no loss
        # either once it arrives; then one real hole (5014) shows the bridge has read them all
        for seq in (5011, 5013, 5012, 5015):
            overtaken = p.TagPresent(seq=seq, node="room-a", uid=f"04aa{seq:06x}")
            client.publish(
                node_topic("t1", "room-a", "event"), p.encode_message(overtaken), qos=1
            ).wait_for_publish(limit(5))
        wait_for(lambda: health().errors["lost_in_transit"] == 6, 10, "5014 lost, 5012 late")
        assert {h.node: h for h in t.bridge.health()}["room-b"].errors["lost_in_transit"] == 0
    finally:
        client.disconnect()
        client.loop_stop()
