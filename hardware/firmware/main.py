# Node firmware entry point (MicroPython on RP2040 or ESP32). Copy this file, config.json and the
# armata_node/ folder to the board (README.md). Runs at boot.
import json
import os
import sys
import time

from armata_node import wire
from armata_node.node import Node
from armata_node.pn532 import PN532
from armata_node.ring import Ring


def ticks_ms():
    return time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.monotonic() * 1000)


def load_config(path="config.json"):
    with open(path) as stream:
        return json.load(stream)


def build(config, machine, neopixel, send):
    """The node from its config: LED ring on `led_pin`, one PN532 per I2C bus in `readers`."""
    count = config.get("led_count", 24)
    pixels = neopixel.NeoPixel(machine.Pin(config["led_pin"]), count)
    ring = Ring(pixels, count, config.get("first_direction_pixel", 0))
    readers = []
    for bus in config.get("readers", []):
        i2c = machine.I2C(
            bus["id"], scl=machine.Pin(bus["scl"]), sda=machine.Pin(bus["sda"]), freq=400000
        )
        reader = PN532(i2c)
        try:
            reader.configure()
        except Exception:  # a missing reader must not stop the ring and the other readers
            pass
        readers.append(reader)
    seq_start = int.from_bytes(os.urandom(4), "big") >> 1
    return Node(config["node"], config["kind"], send, ring, readers, seq_start)


class UsbLink:
    """Frames over the USB CDC serial port (sys.stdin/stdout in binary on the RP2040)."""

    def __init__(self, inp, out):
        self.inp = inp
        self.out = out
        self.reader = wire.FrameReader()

    def send(self, payload):
        self.out.write(wire.frame(payload))

    def pump(self, node, data):
        for payload in self.reader.feed(data):
            node.on_payload(payload)


class MqttLink:
    """umqtt.simple on the ESP32: the node's own user, its cmd topic, a retained status + will."""

    def __init__(self, client, table, node_id):
        self.client = client
        self.prefix = "armata/%s/node/%s/" % (table, node_id)
        self.node_id = node_id

    def status(self, seq, state):
        return wire.encode("status", seq, self.node_id, state=state)

    def connect(self, node):
        self.client.set_last_will(self.prefix + "status", self.status(0, "offline"), True, 1)
        self.client.set_callback(lambda topic, payload: node.on_payload(payload))
        self.client.connect()
        self.client.subscribe(self.prefix + "cmd", 1)
        self.client.publish(self.prefix + "status", self.status(node.seq + 1, "online"), True, 1)
        node.seq += 1

    def send(self, payload):
        self.client.publish(self.prefix + "event", payload, False, 1)


def run_usb(config, machine, neopixel):
    import select

    link = UsbLink(sys.stdin.buffer, sys.stdout.buffer)
    node = build(config, machine, neopixel, link.send)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while True:
        if poll.poll(10):
            link.pump(node, sys.stdin.buffer.read(1))
        node.poll(ticks_ms())


def run_mqtt(config, machine, neopixel):
    import network
    from umqtt.simple import MQTTClient

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    wlan.connect(config["wifi"]["ssid"], config["wifi"]["password"])
    while not wlan.isconnected():
        time.sleep(0.2)
    broker = config["mqtt"]
    user = "node.%s.%s" % (config["table"], config["node"])
    client = MQTTClient(user, broker["host"], broker.get("port", 1883), user, broker["password"])
    link = MqttLink(client, config["table"], config["node"])
    node = build(config, machine, neopixel, link.send)
    while True:
        try:
            link.connect(node)
            node.greeted = False
            while True:
                client.check_msg()
                node.poll(ticks_ms())
                time.sleep(0.01)
        except OSError:
            time.sleep(1)  # the broker or Wi-Fi went away: connect again


def main():
    import machine
    import neopixel

    config = load_config()
    if config.get("transport", "usb") == "mqtt":
        run_mqtt(config, machine, neopixel)
    else:
        run_usb(config, machine, neopixel)


if __name__ == "__main__":
    main()
