"""Simulated board nodes: the far end of the bridge in tests, and the default hardware of
`./setup.sh run` (no board needed).

`SimNode` behaves like the firmware: announces itself with hello until the Pi talks to it,
reports the tags already resting on its readers once the Pi first talks to it (and again on
identify), applies LED commands and acknowledges them (a repeated `seq` is acknowledged again,
not applied twice), answers pings, and reports tags placed on or taken off its readers and
button presses. What its LEDs show is kept for inspection. Wires: `PtyWire` (a pseudo-
terminal whose path the bridge opens as a serial port; it can be unplugged and plugged back) and
`MqttWire` (firmware_bridge.mqtt_wire).
"""

from __future__ import annotations

import itertools
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from pathlib import Path

import msgspec

from firmware_bridge import protocol as p
from firmware_bridge.framing import FrameDecoder, frame
from hardware.shipped_firmware import firmware_version

Send = Callable[[bytes], bool]
FIRMWARE = "sim-1"
HELLO_EVERY_S = 0.2
#: like the firmware (SILENCE_MS): without a word from the Pi for this long it says hello again
SILENCE_S = 6.0
#: How the default fortress's room nodes and the card reader are named.
CARD_READER = "cards"
COMMANDS = ("led", "identify", "ping", "open_repl")  # what the Pi sends a node


def _first_seq() -> itertools.count[int]:
    """Like the firmware: a random first seq after each boot, so a rebooted node's messages do
    not look like repeats of the ones before."""
    return itertools.count(random.randrange(2**31))


class SimNode:
    def __init__(
        self, node: str, kind: str = "room", readers: int = 1, version: str | None = None
    ) -> None:
        self.node = node
        self.kind = kind
        self.readers = readers
        #: the firmware version its hello says: the shipped firmware's unless told ("": a node
        #: whose firmware predates the field, and says none)
        self.version = firmware_version() if version is None else version
        self.repl_opened: list[int] = []  # the seconds of every open_repl it took
        self.silence_s = SILENCE_S
        self.last_heard = time.monotonic()
        self.send: Send = lambda payload: False
        self.drops = p.DropCounter()
        self.ring: p.Led | None = None
        self.segments: dict[int, p.Led] = {}
        self.received: list[p.Message] = []  # every command applied, in order
        self.on_led: Callable[[p.Led], None] = lambda led: None
        self.tags: dict[int, str] = {}  # reader -> uid resting on it
        self._seq = _first_seq()
        self._seen: deque[int] = deque(maxlen=64)
        self._lock = threading.Lock()
        self.greeted = threading.Event()  # the Pi has talked to us since the last (re)connect
        self.ignore_next = 0  # tests: lose this many inbound messages (as on a noisy line)

    # ----- outbound ----------------------------------------------------------------------------
    def _encode(self, message_type: type[p.Message], **fields: object) -> bytes:
        message = message_type(seq=next(self._seq), node=self.node, **fields)  # type: ignore[arg-type]
        return p.encode_message(message)

    def _emit(self, message_type: type[p.Message], **fields: object) -> bool:
        return self.send(self._encode(message_type, **fields))

    def status_payload(self, state: str) -> bytes:
        """A status message for the wire to publish (MQTT: retained, and the last will)."""
        return self._encode(p.Status, state=state)

    def hello(self) -> bool:
        extra = {} if not self.version else {"version": self.version}
        return self._emit(p.Hello, kind=self.kind, firmware=FIRMWARE, readers=self.readers, **extra)

    def connected(self) -> None:
        """The wire is (back) up: announce until the Pi answers."""
        self.greeted.clear()
        self.hello()

    def place_tag(self, uid: str, reader: int = 0) -> bool:
        with self._lock:
            self.tags[reader] = uid
        return self._emit(p.TagPresent, reader=reader, uid=uid)

    def remove_tag(self, reader: int = 0) -> bool:
        with self._lock:
            uid = self.tags.pop(reader, None)
        return uid is not None and self._emit(p.TagRemoved, reader=reader, uid=uid)

    def report_tags(self) -> None:
        with self._lock:
            resting = sorted(self.tags.items())
        for reader, uid in resting:
            self._emit(p.TagPresent, reader=reader, uid=uid)

    def press(self, button: str) -> bool:
        return self._emit(p.Button, button=button, pressed=True)

    # ----- inbound -----------------------------------------------------------------------------
    def receive(self, payload: bytes) -> None:
        if self.ignore_next > 0:
            self.ignore_next -= 1
            return
        message = p.decode_message(payload, self.drops)
        if message is None:
            self._refuse(payload)
            return
        if message.node != self.node:
            self.drops.drop("not_for_me", message.node)
            return
        self.last_heard = time.monotonic()
        if not self.greeted.is_set():
            self.greeted.set()
            self.report_tags()  # the Pi may have started after they were put down
        repeat = message.seq in self._seen
        if not repeat:
            self._seen.append(message.seq)
        match message:
            case p.Led():
                if not repeat:
                    self._show(message)
                self._emit(p.Ack, ack=message.seq)
            case p.Identify():
                self._emit(p.Ack, ack=message.seq)
                self.hello()
                self.report_tags()
            case p.Ping(t=t):
                self._emit(p.Pong, t=t)
            case p.OpenRepl(s=seconds):
                self._emit(p.Ack, ack=message.seq)
                if not repeat:
                    self.repl_opened.append(seconds)
            case _:
                self._emit(p.Nack, ack=message.seq, reason=f"{type(message).__name__} not handled")

    def _refuse(self, payload: bytes) -> None:
        """Like the firmware: a command for this node whose envelope is sound but a field is
        not is answered `nack` `<field>: <why>` (nothing applied); anything else stays dropped."""
        try:
            fields = msgspec.json.decode(payload)
        except (msgspec.DecodeError, UnicodeDecodeError):
            return
        if not isinstance(fields, dict) or fields.get("node") != self.node:
            return
        seq = fields.get("seq")
        if fields.get("v") != p.PROTOCOL_VERSION or fields.get("type") not in COMMANDS:
            return
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**32:
            return
        reason = p.refusal(payload)
        if reason is not None:
            self._emit(p.Nack, ack=seq, reason=reason)

    def _show(self, led: p.Led) -> None:
        with self._lock:
            if led.target == "ring":
                self.ring = led
                self.segments.clear()
            elif led.direction is not None:
                self.segments[led.direction] = led
            self.received.append(led)
        self.on_led(led)

    def power_cycle(self) -> None:
        """Lose everything a reboot loses: LED state, seen seqs, the greeting."""
        with self._lock:
            self.ring = None
            self.segments.clear()
            self.tags.clear()
            self._seen.clear()
            self._seq = _first_seq()
        self.greeted.clear()

    def showing(self) -> dict[str, object]:
        """What the LED ring shows now, as plain data."""
        with self._lock:
            ring = msgspec.to_builtins(self.ring) if self.ring else None
            segments = {d: msgspec.to_builtins(x) for d, x in sorted(self.segments.items())}
        return {"ring": ring, "segments": segments}

    def announce_until_greeted(self, stop: threading.Event) -> None:
        """Repeat the hello until the Pi answers (the Pi may start after the node), and again
        once the Pi has been silent for `silence_s` (it may have restarted)."""
        while not stop.wait(HELLO_EVERY_S):
            if self.greeted.is_set() and time.monotonic() - self.last_heard >= self.silence_s:
                self.greeted.clear()
            if not self.greeted.is_set():
                self.hello()


class PtyWire:
    """A node on a pseudo-terminal: the bridge opens `path` (a stable symlink to the PTY) as its
    serial port. `unplug()` closes the PTY (the port vanishes); `plug()` makes a new one."""

    def __init__(self, node: SimNode, path: Path) -> None:
        self.node = node
        self.path = path
        self.stop_event = threading.Event()
        self._fd: int | None = None
        self._slave: int | None = None  # held open so the PTY lives while the bridge is away
        self._write = threading.Lock()
        self._reader: threading.Thread | None = None
        node.send = self.write
        self._announcer = threading.Thread(
            target=node.announce_until_greeted, args=(self.stop_event,), daemon=True
        )

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        self._slave = slave
        # made aside under a hidden name, then renamed over the port's: a bridge scanning the
        # folder for `tty-*` never sees the half-made link (it opened `tty-room-c.new` too, a
        # second reader on the same PTY splitting its frames)
        tmp = self.path.with_name(f".{self.path.name}.new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(name)
        tmp.replace(self.path)
        self._fd = master
        self._reader = threading.Thread(target=self._read, args=(master,), daemon=True)
        self._reader.start()
        if not self._announcer.is_alive() and not self.stop_event.is_set():
            self._announcer.start()
        self.node.connected()

    def unplug(self, power_loss: bool = True) -> None:
        """Pull the cable: the port vanishes and (USB-powered) the node forgets its LEDs."""
        if power_loss:
            self.node.power_cycle()
        fd, self._fd = self._fd, None
        slave, self._slave = self._slave, None
        self.path.unlink(missing_ok=True)
        if fd is not None:
            with self._write:
                os.close(fd)
        if slave is not None:
            os.close(slave)
        if self._reader is not None:
            self._reader.join(timeout=2)

    def write(self, payload: bytes) -> bool:
        with self._write:
            if self._fd is None:
                return False
            try:
                os.write(self._fd, frame(payload))
                return True
            except OSError:
                return False

    def _read(self, fd: int) -> None:
        decoder = FrameDecoder(self.node.drops)
        while self._fd == fd:
            try:
                ready, _, _ = select.select([fd], [], [], 0.05)
                data = os.read(fd, 4096) if ready else b""
            except (OSError, ValueError):
                data = b""
            if not data:
                if self._fd != fd:
                    return  # unplugged
                time.sleep(0.01)
                continue
            for payload in decoder.feed(data):
                self.node.receive(payload)

    def close(self) -> None:
        self.stop_event.set()
        self.unplug()
