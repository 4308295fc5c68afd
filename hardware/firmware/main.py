# Node firmware entry point (MicroPython on RP2040 or ESP32). Copy this file, config.json and the
# armata_node/ folder to the board (README.md). Runs at boot.
#
# The loop never waits on anything but the next input byte, and at most POLL_MS for it: every
# byte waiting on the USB port is read and every complete frame answered before the readers get
# their (non-blocking) step, so a command from the Pi is answered within a loop turn.
#
# The loop never ends on an exception: whatever any part raises is a fault, counted and reported
# to the Pi in the next status message (Node.fault), and the loop goes on. Only the end of input
# (the Unix port, when the Pi side closes the pipe) ends it.
import json
import os
import sys
import time

from armata_node import wire
from armata_node.node import Node
from armata_node.pn532 import PN532
from armata_node.ring import Ring

POLL_MS = 2  # longest wait for input in one loop turn
MAX_BYTES_PER_TURN = 1024  # then the readers and LEDs get their turn even under a flood
QUICK_CUT_MS = 5000  # an MQTT connection cut this soon after it was made is a quick cut
QUICK_CUTS = 3  # this many in a row: another board uses this node's login (the same config)
RETRY_S = 1  # wait before connecting again after a cut
LONG_RETRY_S = 60  # ... while another board holds the login: it keeps it, this one waits


def ticks_ms():
    return time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.monotonic() * 1000)


def ticks_diff(a, b):
    return time.ticks_diff(a, b) if hasattr(time, "ticks_diff") else a - b


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
        if hasattr(self.out, "flush"):
            self.out.flush()

    def pump(self, node, data, now_ms=None):
        for payload in self.reader.feed(data):
            try:
                node.on_payload(payload, now_ms)
            except Exception as exc:  # one bad message must never stop the node
                node.fault("command", exc)


class MqttLink:
    """umqtt.simple on the ESP32: the node's own user, its cmd topic, a retained status + will."""

    def __init__(self, client, table, node_id):
        self.client = client
        self.prefix = "armata/%s/node/%s/" % (table, node_id)
        self.node_id = node_id

    def status(self, seq, state):
        return wire.encode("status", seq, self.node_id, state=state)

    def connect(self, node):
        # a fresh seq for the will of every connection: the bridge drops repeated seqs, so a will
        # with a seq used before would hide this node's second death
        will = self.status(node.next_seq(), "offline")
        self.client.set_last_will(self.prefix + "status", will, True, 1)
        self.client.set_callback(lambda topic, payload: self._deliver(node, payload))
        self.client.connect()
        self.client.subscribe(self.prefix + "cmd", 1)
        self.client.publish(self.prefix + "status", self.status(node.next_seq(), "online"), True, 1)

    @staticmethod
    def _deliver(node, payload):
        try:
            node.on_payload(payload, ticks_ms())
        except Exception as exc:  # one bad message must never stop the node
            node.fault("command", exc)

    def send(self, payload):
        self.client.publish(self.prefix + "event", payload, False, 1)


class Reconnects:
    """When to connect to the broker again after a cut. Two boards flashed with one config share
    one login, and the broker keeps one connection per login: each connection cuts the other,
    about once a second, for ever. Three cuts in a row within seconds of connecting look like
    that: then this board waits LONG_RETRY_S between tries (the other keeps the login) and says
    why in its next status; a connection that lasts ends it."""

    def __init__(self):
        self.connected_at = None
        self.quick = 0

    def connected(self, now_ms):
        self.connected_at = now_ms

    def cut(self, now_ms):
        """Seconds to wait before the next try."""
        if self.connected_at is not None:
            lasted = ticks_diff(now_ms, self.connected_at)
            self.quick = self.quick + 1 if lasted < QUICK_CUT_MS else 0
            self.connected_at = None
        return LONG_RETRY_S if self.quick >= QUICK_CUTS else RETRY_S

    @property
    def shared(self):
        return self.quick >= QUICK_CUTS


def interrupt_char(code):
    """-1: on the USB port a 0x03 byte is data inside a COBS frame, not Ctrl-C. 3: Ctrl-C stops
    the loop (main.py ends, the REPL takes the port: how mpremote gets in)."""
    try:
        import micropython

        micropython.kbd_intr(code)
    except (ImportError, AttributeError):
        pass


def quiet_interrupt_char():
    interrupt_char(-1)


class ReplWindow:
    """The Pi's `open_repl` command (before `nodes flash`): Ctrl-C stops the loop for a while,
    so mpremote can take the port; when nothing came, 0x03 is data again."""

    def __init__(self):
        self.opened = None
        self.ms = 0

    def open(self, seconds):
        self.opened = ticks_ms()
        self.ms = seconds * 1000
        interrupt_char(3)

    def check(self, now_ms):
        if self.opened is not None and ticks_diff(now_ms, self.opened) >= self.ms:
            self.opened = None
            quiet_interrupt_char()


def run_usb(config, machine, neopixel):
    import select

    quiet_interrupt_char()
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    link = UsbLink(inp, out)
    node = build(config, machine, neopixel, link.send)
    window = ReplWindow()
    node.open_repl = window.open
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while True:
        try:
            if not usb_turn(poll, inp, link, node):
                return  # end of input (the Unix port when the Pi side closes the pipe)
            window.check(ticks_ms())
        except Exception as exc:  # MemoryError, a port error...: counted, reported, go on
            node.fault("loop", exc)


def usb_turn(poll, inp, link, node):
    """One turn of the USB loop: the bytes waiting (at most MAX_BYTES_PER_TURN), then the
    readers and LEDs. False at the end of input."""
    got = 0
    while got < MAX_BYTES_PER_TURN and poll.poll(POLL_MS if got == 0 else 0):
        data = inp.read(1)
        if not data:
            return False
        link.pump(node, data, ticks_ms())
        got += 1
    node.poll(ticks_ms())
    return True


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
    secure = None
    if broker.get("ca"):  # TLS (provision --tls): port 8883, the CA copied as ca.der
        import ssl

        from armata_node import tls

        secure = tls.load(ssl, broker["ca"])
    port = broker.get("port", 8883 if secure else 1883)
    client = MQTTClient(user, broker["host"], port, user, broker["password"], ssl=secure)
    link = MqttLink(client, config["table"], config["node"])
    node = build(config, machine, neopixel, link.send)
    node.log = print  # the USB port is free for the REPL on an MQTT node
    reconnects = Reconnects()
    while True:
        try:
            link.connect(node)
            reconnects.connected(ticks_ms())
            node.greeted = False
            while True:
                client.check_msg()
                node.poll(ticks_ms())
                time.sleep(0.005)
        except OSError:  # the broker or Wi-Fi went away, or cut us off: connect again
            wait = reconnects.cut(ticks_ms())
            if reconnects.shared:
                node.trouble(
                    "link",
                    "login %s cut off %d times within seconds: another board with this config?"
                    % (user, reconnects.quick),
                )
            time.sleep(wait)
        except Exception as exc:  # anything else: counted, reported once connected, go on
            node.fault("loop", exc)
            time.sleep(RETRY_S)


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
