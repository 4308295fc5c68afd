"""A simulated node on MQTT: its own broker user, a last will saying it went offline, a retained
status, events published on its `event` topic and commands read from its `cmd` topic."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.mqtt_link import new_client, send_at_once
from firmware_bridge.node_sim import SimNode
from firmware_bridge.topics import node_topic


class MqttWire:
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
    ) -> None:
        self.node = node
        self.table = table
        self.connected = threading.Event()
        self.refusals: list[str] = []
        self.stop_event = threading.Event()
        self._address = (host, port, keepalive_s)
        self.client = new_client(username, username, password)
        self.client.will_set(
            self._topic("status"), node.status_payload("offline"), qos=1, retain=True
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        node.send = self._publish
        self._announcer = threading.Thread(
            target=node.announce_until_greeted, args=(self.stop_event,), daemon=True
        )

    def _topic(self, leaf: str) -> str:
        return node_topic(self.table, self.node.node, leaf)

    def start(self) -> None:
        host, port, keepalive = self._address
        self.client.connect_async(host, port, keepalive)
        self.client.loop_start()
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
        self.client.loop_stop()
        if not gracefully:
            sock = self.client.socket()
            if sock is not None:
                sock.close()  # a dead node: no DISCONNECT, so the broker sends the last will
        self.connected.clear()

    def _publish(self, payload: bytes) -> bool:
        info = self.client.publish(self._topic("event"), payload, qos=1)
        return info.rc == mqtt.MQTT_ERR_SUCCESS

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
            return
        send_at_once(client)
        client.subscribe(self._topic("cmd"), qos=1)
        client.publish(self._topic("status"), self.node.status_payload("online"), 1, True)
        self.connected.set()
        self.node.connected()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self.connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        self.node.receive(bytes(msg.payload))
