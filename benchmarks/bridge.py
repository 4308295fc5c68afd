"""Bridge speed: node event -> app handler -> LED command back at the node, p50/p99, over serial
(PTY) and MQTT (a local Mosquitto with the project's config), each next to the bare transport's
round trip measured in the same run; and sustained events from 7 nodes over MQTT — each MQTT figure
once in clear text and once over TLS (the listener of `provision --tls`).
Goals: p99 <= bare p99 + 2 ms; >= 1,000 node events/s from 7 nodes with zero loss.

    python benchmarks/bridge.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import ssl
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import serial
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stats import percentile  # benchmarks/stats.py: the script's folder is on sys.path

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.mqtt_link import MqttLink, send_at_once
from firmware_bridge.mqtt_wire import MqttWire
from firmware_bridge.node_sim import PtyWire, SimNode
from firmware_bridge.serial_link import SerialLink
from firmware_bridge.topics import node_topic
from tests.support.standins.hardware_helpers import Broker, wait_for


def figures(label: str, samples: list[float], bare: list[float]) -> None:
    p99, bare99 = percentile(samples, 0.99), percentile(bare, 0.99)
    print(
        f"{label:34} p50 {statistics.median(samples):6.2f} ms  p99 {p99:6.2f} ms   "
        f"goal p99 <= {bare99 + 2:.2f}   baseline: bare round trip p50 "
        f"{statistics.median(bare):.2f} ms, p99 {bare99:.2f} ms   ({len(samples)} events)"
    )


def through_bridge(node: SimNode, bridge_events: list[p.Message], count: int) -> list[float]:
    """Time from a tag placed at the node to the LED command the app sends in reply, applied."""
    applied = threading.Event()
    node.on_led = lambda led: applied.set()
    samples = []
    for i in range(count):
        applied.clear()
        start = time.perf_counter()
        node.place_tag(f"{i:08x}")
        if not applied.wait(5):
            raise RuntimeError(f"event {i}: no LED command came back")
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def reply_with_led(bridge: Bridge) -> Callable[[p.Message], None]:
    def handler(message: p.Message) -> None:
        if isinstance(message, p.TagPresent):
            bridge.set_led(message.node, colour="#ff0000", pattern="pulse")

    return handler


# ----- serial ------------------------------------------------------------------------------------
def serial_bridge(count: int, directory: Path) -> list[float]:
    node = SimNode("room-a")
    wire = PtyWire(node, directory / "tty-room-a")
    wire.plug()
    bridge = Bridge(SerialLink([str(directory / "tty-room-a")]), ["room-a"])
    bridge.on_event = reply_with_led(bridge)
    bridge.start()
    try:
        wait_for(lambda: bridge.health()[0].online, 10, "the node")
        through_bridge(node, [], 50)  # warm up
        return through_bridge(node, [], count)
    finally:
        bridge.stop()
        wire.close()


def serial_bare(count: int) -> list[float]:
    """The same PTY path with nothing in it: bytes out, echoed back by a pyserial reader."""
    master, slave = os.openpty()
    port = serial.serial_for_url(os.ttyname(slave), baudrate=115_200, timeout=0.05)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            data = port.read(port.in_waiting or 1)
            if data:
                port.write(data)

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    message = b"x" * 60 + b"\x00"
    samples = []
    try:
        for _ in range(count + 50):
            start = time.perf_counter()
            os.write(master, message)
            got = b""
            while len(got) < len(message):
                got += os.read(master, 4096)
            samples.append((time.perf_counter() - start) * 1000)
    finally:
        stop.set()
        thread.join(timeout=2)
        port.close()
        os.close(master)
        os.close(slave)
    return samples[50:]


# ----- MQTT --------------------------------------------------------------------------------------
def mqtt_bridge(count: int, broker: Broker, tls: bool) -> list[float]:
    port, ca = broker.endpoint(tls)
    node = SimNode("room-a")
    wire = MqttWire(node, "127.0.0.1", port, "t1", *broker.node("t1", "room-a"), ca=ca)
    bridge = Bridge(MqttLink("127.0.0.1", port, "t1", *broker.app("t1"), ca=ca), ["room-a"])
    bridge.on_event = reply_with_led(bridge)
    bridge.start()
    wire.start()
    try:
        wait_for(lambda: bridge.health()[0].online, 10, "the node")
        through_bridge(node, [], 50)
        return through_bridge(node, [], count)
    finally:
        wire.stop()
        bridge.stop()


def mqtt_bare(count: int, broker: Broker, tls: bool, node: str = "room-a") -> list[float]:
    """Raw paho on the bridge's own path without the bridge: the app user publishes on a node's
    cmd topic, the node user echoes it on its event topic (QoS 1; one session per user)."""
    back = threading.Event()
    asker = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bare-asker")
    echo = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bare-echo")
    asker.username_pw_set(*broker.app("t1"))
    echo.username_pw_set(*broker.node("t1", node))
    ask, answer = node_topic("t1", node, "cmd"), node_topic("t1", node, "event")
    port, ca = broker.endpoint(tls)
    for client in (asker, echo):
        if ca is not None:
            client.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.connect("127.0.0.1", port)
        send_at_once(client)  # the same socket option the bridge uses
        client.loop_start()
    echo.subscribe(ask, 1)
    asker.subscribe(answer, 1)
    echo.on_message = lambda c, u, m: echo.publish(answer, m.payload, 1)
    asker.on_message = lambda c, u, m: back.set()
    time.sleep(0.3)
    samples = []
    try:
        for _ in range(count + 50):
            back.clear()
            start = time.perf_counter()
            asker.publish(ask, b"x" * 60, 1)
            if not back.wait(5):
                raise RuntimeError("the bare echo did not come back")
            samples.append((time.perf_counter() - start) * 1000)
    finally:
        for client in (asker, echo):
            client.disconnect()
            client.loop_stop()
    return samples[50:]


def mqtt_throughput(
    broker: Broker, nodes: int, seconds: float, rate: float, tls: bool
) -> tuple[int, int, float]:
    """Every node sends tag events at its share of `rate` per second; the app counts what
    arrives (a real node sends a few a second: this is the bridge's headroom)."""
    names = [f"room-{i}" for i in range(nodes)]
    # distinct tags, not messages: a node greeted again reports its resting tag once more
    received: set[tuple[str, str]] = set()
    lock = threading.Lock()

    def count(message: p.Message) -> None:
        if isinstance(message, p.TagPresent):
            with lock:
                received.add((message.node, message.uid))

    port, ca = broker.endpoint(tls)
    bridge = Bridge(MqttLink("127.0.0.1", port, "t7", *broker.app("t7"), ca=ca), names, count)
    sims = [SimNode(n) for n in names]
    wires = [MqttWire(s, "127.0.0.1", port, "t7", *broker.node("t7", s.node), ca=ca) for s in sims]
    bridge.start()
    for wire in wires:
        wire.start()
    sent = [0] * nodes
    try:
        wait_for(lambda: all(h.online for h in bridge.health()), 10, "seven nodes")
        stop = time.perf_counter() + seconds

        gap = nodes / rate

        def pump(i: int) -> None:
            due = time.perf_counter()
            while due < stop:
                sims[i].place_tag(f"{sent[i]:08x}")
                sent[i] += 1
                due += gap
                time.sleep(max(0.0, due - time.perf_counter()))

        threads = [threading.Thread(target=pump, args=(i,)) for i in range(nodes)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        end = time.perf_counter() + 30
        while len(received) < sum(sent) and time.perf_counter() < end:
            time.sleep(0.01)
        elapsed = time.perf_counter() - start
    finally:
        for wire in wires:
            wire.stop()
        bridge.stop()
    return sum(sent), len(received), elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 200 if args.quick else 2000
    print(f"armata bridge benchmark - Python {platform.python_version()}, {platform.machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        figures(
            "serial (PTY): event -> LED back", serial_bridge(count, directory), serial_bare(count)
        )
        broker = Broker(
            directory / "broker",
            {"t1": ["room-a"], "t7": [f"room-{i}" for i in range(7)]},
            tls=True,
        )
        broker.start()
        try:
            for tls in (False, True):
                over = "MQTT over TLS" if tls else "MQTT (Mosquitto)"
                figures(
                    f"{over}: event -> LED back",
                    mqtt_bridge(count, broker, tls),
                    mqtt_bare(count, broker, tls),
                )
                seconds = 1.0 if args.quick else 10.0
                sent, got, elapsed = mqtt_throughput(broker, 7, seconds, 1200, tls)
                print(
                    f"{(over + ', 7 nodes at 1,200/s'):34} {got / elapsed:8.0f} events/s   "
                    f"goal >= 1000 with zero loss   sent {sent}, received {got}, "
                    f"lost {sent - got}   baseline: the offered rate 1200/s"
                )
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
