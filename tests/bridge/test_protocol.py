"""The node protocol and the serial framing: round trips, refusals counted, fuzzing, vectors."""

from __future__ import annotations

import json
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.framing import MAX_FRAME, FrameDecoder, crc16, frame
from tests.conftest import ROOT

VECTORS = json.loads((ROOT / "firmware_bridge" / "vectors.json").read_text())


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogued check value


def test_vectors_cover_every_message_type_and_match_the_encoder() -> None:
    kinds = {v["message"]["type"] for v in VECTORS["vectors"]}
    assert kinds == {cls.__struct_config__.tag for cls in typing.get_args(p.AnyMessage)}
    for vector in VECTORS["vectors"]:
        drops = p.DropCounter()
        message = p.decode_message(vector["payload"].encode(), drops)
        assert message is not None, drops.counts
        assert p.encode_message(message) == vector["payload"].encode()
        assert frame(vector["payload"].encode()).hex() == vector["frame_hex"]
        assert FrameDecoder().feed(bytes.fromhex(vector["frame_hex"])) == [
            vector["payload"].encode()
        ]


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"not json", "malformed"),
        (b'{"v": 1}', "malformed"),
        (b'{"v": 2, "type": "hello"}', "unknown_version"),
        (b'{"v": 1, "type": "teleport", "seq": 1, "node": "a"}', "invalid"),
        (b'{"v": 1, "type": "ping", "seq": 1, "node": "a"}', "invalid"),
        (b'{"v": 1, "type": "ping", "seq": 1, "node": "a", "t": 5, "extra": 1}', "invalid"),
        (b'{"v": 1, "type": "ping", "seq": -1, "node": "a", "t": 5}', "invalid"),
        (b'{"v": 1, "type": "ping", "seq": 1, "node": "Room NE", "t": 5}', "invalid"),
        (b'{"v": 1, "type": "tag_present", "seq": 1, "node": "a", "uid": "zz"}', "invalid"),
        (b'{"v": 1, "type": "led", "seq": 1, "node": "a", "colour": "red"}', "invalid"),
        (b'{"v": 1, "type": "led", "seq": 1, "node": "a", "direction": 6}', "invalid"),
        (b'{"v": 1, "pad": "' + b"x" * 600 + b'"}', "too_large"),
        (b'{"v": 1, "type": "hello", "seq": 1, "node": "r\xff"}', "invalid"),  # bad UTF-8
        (
            b'{"v": 1, "type": "error", "seq": 1, "node": "a", "code": "\xc3(", "detail": ""}',
            "invalid",
        ),
    ],
)
def test_bad_payloads_are_dropped_counted_never_raised(payload: bytes, reason: str) -> None:
    drops = p.DropCounter()
    assert p.decode_message(payload, drops) is None
    assert drops.counts == {reason: 1}


def test_no_payload_is_ever_evaluated() -> None:
    drops = p.DropCounter()
    evil = (
        b'{"v": 1, "type": "error", "seq": 1, "node": "a", "code": "x", '
        b'"detail": "__import__(\'os\')"}'
    )
    message = p.decode_message(evil, drops)
    assert isinstance(message, p.Error) and message.detail == "__import__('os')"  # just text


def test_frames_split_at_every_position_still_decode() -> None:
    payload = p.encode_message(p.Ping(seq=1, node="room-e", t=99))
    data = frame(payload) * 2
    for cut in range(len(data) + 1):
        decoder = FrameDecoder()
        assert decoder.feed(data[:cut]) + decoder.feed(data[cut:]) == [payload, payload]


def test_corruption_is_detected_and_the_stream_resynchronises() -> None:
    payload = p.encode_message(p.Ack(seq=2, node="room-e", ack=1))
    good = frame(payload)
    bad = bytearray(good)
    bad[5] ^= 0x20  # one flipped bit inside the frame
    decoder = FrameDecoder()
    assert decoder.feed(b"\x13\x37noise\x00" + bytes(bad) + good) == [payload]
    assert decoder.drops.total == 2 and set(decoder.drops.counts) <= {"cobs", "crc", "short"}


def test_a_stream_without_delimiters_overflows_and_recovers() -> None:
    payload = p.encode_message(p.Ping(seq=1, node="room-e", t=1))
    decoder = FrameDecoder()
    assert decoder.feed(b"\x41" * (MAX_FRAME + 10)) == []
    assert decoder.feed(b"\x41" * 50 + b"\x00" + frame(payload)) == [payload]
    assert decoder.drops.counts["overflow"] == 1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data: bytes) -> None:
    decoder = FrameDecoder()
    for payload in decoder.feed(data):
        p.decode_message(payload, decoder.drops)
    assert decoder.drops.total >= 0
    p.decode_message(data, p.DropCounter())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VECTORS["vectors"]), st.data())
def test_mutated_frames_are_dropped_or_intact(vector: dict, data: st.DataObject) -> None:
    original = bytes.fromhex(vector["frame_hex"])
    mutated = bytearray(original)
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(mutated) - 1))
        mutated[index] = data.draw(st.integers(0, 255))
    decoder = FrameDecoder()
    out = decoder.feed(bytes(mutated) + b"\x00" + original)
    payload = vector["payload"].encode()
    assert out[-1] == payload  # the stream recovers: the next good frame always comes through
    drops = p.DropCounter()
    for extra in out[:-1]:
        # A 16-bit CRC lets about 1 in 65,536 corrupted frames through; the message layer is the
        # second guard: anything but the original payload must not decode as a message.
        if extra != payload:
            assert p.decode_message(extra, drops) is None
            assert drops.total >= 1


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(VECTORS["vectors"]), st.binary(min_size=1, max_size=8), st.data())
def test_any_bytes_inside_a_string_are_dropped_or_decoded_never_raised(
    vector: dict, junk: bytes, data: st.DataObject
) -> None:
    """A well-formed message with arbitrary bytes (invalid UTF-8 too) inside one of its strings:
    the decoder returns a message or counts a drop, whatever the bytes (issue 16, item 1)."""
    payload = vector["payload"].encode()
    quotes = [i for i, b in enumerate(payload) if b == ord('"')]
    at = data.draw(st.sampled_from(quotes)) + 1
    drops = p.DropCounter()
    message = p.decode_message(payload[:at] + junk + payload[at:], drops)
    assert (message is None) == (drops.total == 1)
