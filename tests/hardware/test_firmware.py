"""The MicroPython node firmware under CPython, with small fakes of `machine`, `neopixel`, the
PN532 and umqtt: same wire bytes as the bridge (shared vectors), protocol behaviour, LEDs, tags."""

from __future__ import annotations

import importlib
import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.framing import FrameDecoder, frame

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
VECTORS = json.loads((Path(p.__file__).parent / "vectors.json").read_text())["vectors"]


@pytest.fixture(scope="module")
def fw() -> types.SimpleNamespace:
    sys.path.insert(0, str(FIRMWARE))
    try:
        modules = {
            name: importlib.import_module(f"armata_node.{name}")
            for name in ("wire", "node", "ring", "pn532")
        }
        modules["main"] = importlib.import_module("main")
    finally:
        sys.path.remove(str(FIRMWARE))
    return types.SimpleNamespace(**modules)


def shown(fw: Any, level: int, brightness: int = 255) -> int:
    """A colour channel at `level` as the ring shows it: under the firmware's brightness cap."""
    return int(level * brightness * fw.ring.MAX_LEVEL // 65025)


# ----- fakes -----------------------------------------------------------------------------------
class FakeNeoPixel:
    def __init__(self, pin: object, count: int) -> None:
        self.pixels = [(0, 0, 0)] * count
        self.writes = 0

    def __setitem__(self, index: int, value: tuple[int, int, int]) -> None:
        self.pixels[index] = value

    def write(self) -> None:
        self.writes += 1


class FakePn532Bus:
    """Answers like a PN532 on I2C: ready, ACK, then the response queued for each command."""

    def __init__(self) -> None:
        self.uid: bytes | None = None
        self.written: list[bytes] = []
        self._queue: list[bytes] = []

    def writeto(self, address: int, data: bytes) -> None:
        self.written.append(bytes(data))
        command = data[6]
        self._queue = [b"\x00\x00\xff\x00\xff\x00"]
        if command == 0x14:
            self._queue.append(self._response(0x15, b""))
        elif command == 0x4A:
            if self.uid is None:
                self._queue.append(self._response(0x4B, b"\x00"))
            else:
                body = b"\x01\x01\x00\x04\x08" + bytes([len(self.uid)]) + self.uid
                self._queue.append(self._response(0x4B, body))

    @staticmethod
    def _response(code: int, data: bytes) -> bytes:
        body = bytes([0xD5, code]) + data
        return (
            b"\x00\x00\xff"
            + bytes([len(body), (-len(body)) & 0xFF])
            + body
            + bytes([(-sum(body)) & 0xFF, 0])
        )

    def readfrom(self, address: int, count: int) -> bytes:
        if count == 1:
            return b"\x01"  # ready
        data = self._queue.pop(0) if self._queue else b""
        return (b"\x01" + data + bytes(count))[:count]


def fake_machine(bus: FakePn532Bus) -> types.SimpleNamespace:
    return types.SimpleNamespace(Pin=lambda number: number, I2C=lambda *a, **k: bus)


# ----- wire format -------------------------------------------------------------------------------
def test_the_shared_vectors_are_byte_identical(fw: Any) -> None:
    for vector in VECTORS:
        message = dict(vector["message"])
        kind, seq, node = message.pop("type"), message.pop("seq"), message.pop("node")
        message.pop("v")
        assert fw.wire.encode(kind, seq, node, **message).decode() == vector["payload"]
        assert fw.wire.frame(vector["payload"].encode()).hex() == vector["frame_hex"]
        reader = fw.wire.FrameReader()
        assert reader.feed(bytes.fromhex(vector["frame_hex"])) == [vector["payload"].encode()]


@given(st.binary(max_size=600))
def test_cobs_matches_the_bridge_package(data: bytes) -> None:
    sys.path.insert(0, str(FIRMWARE))
    try:
        wire = importlib.import_module("armata_node.wire")
    finally:
        sys.path.remove(str(FIRMWARE))
    assert wire.cobs_encode(data) == bytes(cobs.encode(data))
    assert wire.cobs_decode(bytes(cobs.encode(data))) == data


def test_damaged_frames_are_dropped_and_the_reader_resynchronises(fw: Any) -> None:
    payload = b'{"type":"ping","v":1,"seq":3,"node":"room-a","t":5}'
    good = frame(payload)
    damaged = bytearray(good)
    damaged[5] ^= 0xFF
    reader = fw.wire.FrameReader()
    assert reader.feed(b"\x13\x37garbage\x00" + bytes(damaged) + good) == [payload]
    assert reader.dropped == 2


# ----- the node ----------------------------------------------------------------------------------
def make_node(fw: Any, readers: int = 1) -> tuple[Any, list[Any], FakeNeoPixel, FakePn532Bus]:
    sent: list[Any] = []
    bus = FakePn532Bus()
    neopixel = types.SimpleNamespace(NeoPixel=FakeNeoPixel)
    config = {
        "node": "room-ne",
        "kind": "room",
        "led_pin": 16,
        "led_count": 24,
        "readers": [{"id": 0, "scl": 5, "sda": 4}] * readers,
    }
    node = fw.main.build(config, fake_machine(bus), neopixel, sent.append)
    decoded = types.SimpleNamespace(messages=sent)
    return node, decoded.messages, node.ring.pixels, bus


def messages(sent: list[bytes]) -> list[p.Message]:
    drops = p.DropCounter()
    out = [p.decode_message(x, drops) for x in sent]
    assert drops.total == 0, drops.counts  # everything the firmware says passes the bridge schema
    return [m for m in out if m is not None]


def test_the_node_announces_until_greeted_and_answers_like_the_simulator(fw: Any) -> None:
    node, sent, pixels, bus = make_node(fw)
    assert [x[6] for x in bus.written] == [0x14, 0x32]  # configured at boot: SAM, retries
    node.poll(0)
    node.poll(500)
    node.poll(1000)
    hellos = [m for m in messages(sent) if isinstance(m, p.Hello)]
    assert len(hellos) == 2 and hellos[0].node == "room-ne"
    led = p.Led(seq=7, node="room-ne", colour="#ff0000", pattern="steady", brightness=255)
    node.on_payload(p.encode_message(led))
    node.on_payload(p.encode_message(led))  # a resend: acknowledged again, applied once
    node.on_payload(p.encode_message(p.Ping(seq=8, node="room-ne", t=1234)))
    node.on_payload(p.encode_message(p.Led(seq=9, node="room-b", colour="#00ff00")))  # not ours
    node.on_payload(b"not json")
    sent.clear()
    node.poll(5000)  # greeted: no more hellos
    assert not [m for m in messages(sent) if isinstance(m, p.Hello)]
    assert node.dropped == 2
    assert pixels.pixels == [(shown(fw, 255), 0, 0)] * 24
    assert fw.ring.MAX_LEVEL < 255  # capped: a full white ring never draws the LEDs' full current


def test_acks_pongs_and_nacks(fw: Any) -> None:
    node, sent, _, _ = make_node(fw)
    node.on_payload(p.encode_message(p.Led(seq=7, node="room-ne", colour="#ff0000")))
    node.on_payload(p.encode_message(p.Led(seq=7, node="room-ne", colour="#ff0000")))
    node.on_payload(p.encode_message(p.Ping(seq=8, node="room-ne", t=1234)))
    node.on_payload(p.encode_message(p.Pong(seq=9, node="room-ne", t=1)))
    replies = messages(sent)
    assert [type(m).__name__ for m in replies] == ["Ack", "Ack", "Pong", "Nack"]
    assert replies[0].ack == 7 and replies[2].t == 1234  # type: ignore[attr-defined]
    assert len({m.seq for m in replies}) == 4


def test_segments_and_patterns_on_the_ring(fw: Any) -> None:
    node, _, pixels, _ = make_node(fw)
    node.on_payload(
        p.encode_message(p.Led(seq=1, node="room-ne", colour="#0000ff", brightness=255))
    )
    segment = p.Led(
        seq=2,
        node="room-ne",
        target="segment",
        direction=2,
        colour="#ffffff",
        pattern="chase",
        brightness=255,
    )
    node.on_payload(p.encode_message(segment))
    node.poll(0)
    span = node.ring.segment_pixels(2)
    assert span == [8, 9, 10, 11]
    white = (shown(fw, 255),) * 3
    lit = [i for i in span if pixels.pixels[i] == white]
    assert lit == [8]  # one pixel of the segment runs
    node.poll(80)
    assert [i for i in span if pixels.pixels[i] == white] == [9]
    assert pixels.pixels[0] == (0, 0, shown(fw, 255))  # the rest of the ring keeps its colour
    node.on_payload(
        p.encode_message(
            p.Led(seq=3, node="room-ne", pattern="pulse", colour="#ff0000", brightness=200)
        )
    )
    node.poll(0)
    dark = pixels.pixels[0]
    node.poll(600)
    bright = pixels.pixels[0]
    # a ring command clears the segments
    assert dark == (0, 0, 0) and bright == (shown(fw, 255, 200), 0, 0)


def reads(node: Any, start: int, count: int) -> int:
    """Poll until `count` tag reads have completed (each takes a few non-blocking steps)."""
    now = start
    for _ in range(count):
        for _ in range(3):  # send the command, read the ACK, read the answer
            now += 1
            node.poll(now)
    return now


def test_tags_placed_and_lifted_are_reported_once(fw: Any) -> None:
    node, sent, _, bus = make_node(fw)
    node.greeted = True
    bus.uid = bytes.fromhex("04a1b2c3")
    now = reads(node, 0, 2)  # read twice: still there
    bus.uid = None
    now = reads(node, now, 1)  # one missed read: not lifted yet (reads flicker)
    assert not any(isinstance(m, p.TagRemoved) for m in messages(sent))
    reads(node, now, 1)
    found = messages(sent)
    assert [(type(m).__name__, m.uid) for m in found] == [  # type: ignore[attr-defined]
        ("TagPresent", "04a1b2c3"),
        ("TagRemoved", "04a1b2c3"),
    ]


def test_a_poll_never_waits_on_a_reader(fw: Any) -> None:
    """One poll does at most one short I2C transfer per reader; the chip's busy status is
    looked at, never waited on (a command from the Pi is never delayed by a reader)."""
    node, _, _, bus = make_node(fw, readers=2)
    busy = {"ready": False}
    original = bus.readfrom
    bus.readfrom = lambda address, count: (  # type: ignore[method-assign]
        b"\x00" if count == 1 and not busy["ready"] else original(address, count)
    )
    slept: list[int] = []
    for reader in node.readers:
        reader.sleep_ms = slept.append
    before = len(bus.written)
    for now in range(1, 50):
        node.poll(now)
    assert slept == []  # nothing waited
    assert len(bus.written) - before == 2  # each reader sent its command once and waits
    node.poll(200)  # no answer within READ_TIMEOUT_MS: "no tag"; the next turn reads again
    node.poll(201)
    assert len(bus.written) - before == 4


def test_greeting_reports_the_tags_already_resting_and_silence_brings_the_hello_back(
    fw: Any,
) -> None:
    node, sent, _, bus = make_node(fw)
    bus.uid = bytes.fromhex("04a1b2c3")
    reads(node, 0, 1)  # the tag was read before the Pi listened
    sent.clear()
    node.on_payload(p.encode_message(p.Ping(seq=1, node="room-ne", t=1)), 100)
    first = messages(sent)
    assert [type(m).__name__ for m in first] == ["TagPresent", "Pong"]
    sent.clear()
    node.poll(100 + fw.node.SILENCE_MS - 1)
    assert not any(isinstance(m, p.Hello) for m in messages(sent))
    node.poll(100 + fw.node.SILENCE_MS)  # the Pi said nothing for 6 s: it may have restarted
    assert any(isinstance(m, p.Hello) for m in messages(sent))


@pytest.mark.parametrize(
    "answer",
    [
        b"",
        b"\x00\x00\xff",
        b"\x00\x00\xff\x09\xf7\xd5\x4b\x01\x01",  # cut short after the target count
        b"\x00\x00\xff\x04\xfc\xd5\x4b\x01\x01\xde\x00",  # one target, no uid
        bytes(40),
    ],
)
def test_a_corrupt_reader_answer_is_no_tag_never_an_exception(fw: Any, answer: bytes) -> None:
    bus = FakePn532Bus()
    reader = fw.pn532.PN532(bus, sleep_ms=lambda ms: None)
    bus.writeto = lambda address, data: setattr(  # type: ignore[method-assign]
        bus, "_queue", [b"\x00\x00\xff\x00\xff\x00", answer]
    )
    assert reader.read_uid() is None
    results = [reader.step(now) for now in range(1, 4)]
    assert results[:2] == [fw.pn532.READING, fw.pn532.READING] and results[2] is None


def test_frames_from_the_firmware_over_usb_reach_the_bridge_decoder(fw: Any) -> None:
    out = io.BytesIO()
    link = fw.main.UsbLink(io.BytesIO(), out)
    node, _, _, _ = make_node(fw)
    node.send = link.send
    node.press("confirm")
    decoder = FrameDecoder()
    [payload] = decoder.feed(out.getvalue())
    button = p.decode_message(payload, p.DropCounter())
    assert isinstance(button, p.Button) and button.button == "confirm"
    link.pump(node, frame(p.encode_message(p.Ping(seq=5, node="room-ne", t=9))))
    assert any(
        isinstance(p.decode_message(x, p.DropCounter()), p.Pong)
        for x in decoder.feed(out.getvalue())
    )


def test_mqtt_link_uses_the_nodes_own_topics_and_a_last_will(fw: Any) -> None:
    calls: list[tuple[str, Any]] = []

    class FakeClient:
        def set_last_will(self, topic: str, msg: bytes, retain: bool, qos: int) -> None:
            calls.append(("will", (topic, json.loads(msg)["state"], retain)))

        def set_callback(self, callback: Any) -> None:
            self.callback = callback

        def connect(self) -> None:
            calls.append(("connect", None))

        def subscribe(self, topic: str, qos: int) -> None:
            calls.append(("subscribe", topic))

        def publish(self, topic: str, msg: bytes, retain: bool, qos: int) -> None:
            calls.append(("publish", (topic, json.loads(msg)["type"], retain)))

    client = FakeClient()
    link = fw.main.MqttLink(client, "t1", "room-ne")
    node, _, _, _ = make_node(fw)
    node.send = link.send
    link.connect(node)
    node.press("undo")
    client.callback(
        b"armata/t1/node/room-ne/cmd", p.encode_message(p.Ping(seq=3, node="room-ne", t=1))
    )
    assert calls[0] == ("will", ("armata/t1/node/room-ne/status", "offline", True))
    assert ("subscribe", "armata/t1/node/room-ne/cmd") in calls
    assert ("publish", ("armata/t1/node/room-ne/status", "status", True)) in calls
    assert ("publish", ("armata/t1/node/room-ne/event", "button", False)) in calls
    assert ("publish", ("armata/t1/node/room-ne/event", "pong", False)) in calls


def test_pn532_frames(fw: Any) -> None:
    assert fw.pn532.command_frame(0x4A, b"\x01\x00").hex() == "0000ff04fcd44a0100e100"
    bus = FakePn532Bus()
    reader = fw.pn532.PN532(bus, sleep_ms=lambda ms: None)
    assert reader.read_uid() is None
    bus.uid = bytes.fromhex("04112233445566")
    assert reader.read_uid() == bytes.fromhex("04112233445566")
