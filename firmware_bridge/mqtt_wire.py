"""A simulated node on MQTT: its own broker user, a last will saying it went offline, a retained
status, events published on its `event` topic and commands read from its `cmd` topic."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from firmware_bridge.mqtt_link import MqttEnd
from firmware_bridge.node_sim import SimNode
from firmware_bridge.topics import node_topic


class MqttWire(MqttEnd):
    def __init__(
        self,
        node: SimNode,
        host: str,
        port: int,
        table: str,
        username: str,
        password: str,
        *,
        keepalive_s: int = 5,
        ca: Path | None = None,
    ) -> None:
        super().__init__(host, port, username, username, password, keepalive_s, ca)
        self.node = node
        self.table = table
        self.stop_event = threading.Event()
        self._fresh_will()
        node.send = self._publish
        self._announcer = threading.Thread(
            target=node.announce_until_greeted, args=(self.stop_event,), daemon=True
        )

    def _fresh_will(self) -> None:
        """A last will with a seq never used before, for the next connection: the bridge drops
        repeated seqs, so a will reused from an earlier connection would hide a second death."""
        self.client.will_set(
            self._topic("status"), self.node.status_payload("offline"), qos=1, retain=True
        )

    def _lost(self) -> None:
        self._fresh_will()  # paho's reconnect sends the will set now

    def _topic(self, leaf: str) -> str:
        return node_topic(self.table, self.node.node, leaf)

    def start(self) -> None:
        self._connect()
        self._announcer.start()

    def stop(self, gracefully: bool = True) -> None:
        """`gracefully`: publish offline first; otherwise the broker's last will says it."""
        if self.stop_event.is_set():
            return
        self.stop_event.set()
        if gracefully and self.connected.is_set():
            self.client.publish(
                self._topic("status"), self.node.status_payload("offline"), qos=1, retain=True
            ).wait_for_publish(2)
            self.client.disconnect()
            self._wait_disconnected(2.0)  # else loop_stop may drop the DISCONNECT: a late will
        self.client.loop_stop()
        if not gracefully:
            sock = self.client.socket()
            if sock is not None:
                sock.close()  # a dead node: no DISCONNECT, so the broker sends the last will
        self.connected.clear()

    def _wait_disconnected(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while self.connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)

    def _publish(self, payload: bytes) -> bool:
        info = self.client.publish(self._topic("event"), payload, qos=1)
        return info.rc == mqtt.MQTT_ERR_SUCCESS

    def _welcomed(self, client: mqtt.Client) -> None:
        client.subscribe(self._topic("cmd"), qos=1)
        client.publish(self._topic("status"), self.node.status_payload("online"), 1, True)
        self.node.connected()

    def _received(self, msg: mqtt.MQTTMessage) -> None:
        self.node.receive(bytes(msg.payload))
