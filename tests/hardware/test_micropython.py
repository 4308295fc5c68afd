"""The node firmware under the real MicroPython interpreter (the Unix port), not CPython: every
module imports there, its frames equal the bridge's byte for byte in both directions, bad input
never raises, and `main.py` answers the Pi over stdin/stdout at once while its two readers see
no tag (it took 6 s for a ping and 15 s for an LED command before the loop was made
non-blocking)."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_bridge import protocol as p
from firmware_bridge.framing import FrameDecoder, frame
from tests.support.processes import limit
from tests.support.standins.firmware_host import (
    FAKES,
    MicroPythonNode,
    capped,
    micropython,
    micropython_env,
    run_micropython,
)

pytestmark = [pytest.mark.usefixtures("micropython_binary"), pytest.mark.slow]

WIRE_CASES = FAKES / "wire_cases.py"
TEXTS = [
    "",
    "a",
    "é",
    "€uro",
    "😀",
    "naïve café",
    'quote " back \\ slash',
    "tab\tnew\nline",
    "\x00\x01\x1f\x7f",
    "\u2028\u2029",
    "ß" * 60,
]


def random_text(rng: random.Random, limit: int = 120) -> str:
    alphabet = 'abcXYZ019 -_:/"\\\t\n\x01\x7féß€😀中'
    if rng.random() < 0.3:
        return rng.choice(TEXTS)
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(limit + 1)))


def random_message(rng: random.Random) -> p.Message:
    seq = rng.choice([0, 1, 2**31, 2**32 - 1, rng.randrange(2**32)])
    node = rng.choice(["room-ne", "cards", "a", "room-" + "x" * 27])
    uid = "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice([8, 14, 20])))
    kind = rng.randrange(12)
    make: list[Any] = [
        lambda: p.Hello(
            seq=seq,
            node=node,
            kind=rng.choice(["room", "card_reader"]),
            firmware=random_text(rng),
            readers=rng.randrange(1, 9),
        ),
        lambda: p.Identify(seq=seq, node=node),
        lambda: p.Status(
            seq=seq,
            node=node,
            state=rng.choice(["online", "offline"]),
            uptime_s=rng.randrange(10**9),
        ),
        lambda: p.TagPresent(seq=seq, node=node, reader=rng.randrange(8), uid=uid),
        lambda: p.TagRemoved(seq=seq, node=node, reader=rng.randrange(8), uid=uid),
        lambda: p.Button(
            seq=seq,
            node=node,
            button=rng.choice(["confirm", "undo", "next_x"]),
            pressed=rng.random() < 0.5,
        ),
        lambda: p.Led(  # a segment has a direction, a ring none (Led.__post_init__)
            seq=seq,
            node=node,
            **rng.choice(
                [{"target": "ring"}, *({"target": "segment", "direction": d} for d in (0, 3, 5))]
            ),
            colour="#" + "".join(rng.choice("0123456789abcdef") for _ in range(6)),
            pattern=rng.choice(["steady", "pulse", "chase", "off"]),
            brightness=rng.randrange(256),
        ),
        lambda: p.Ping(seq=seq, node=node, t=rng.randrange(2**53)),
        lambda: p.Pong(seq=seq, node=node, t=rng.randrange(2**53)),
        lambda: p.Ack(seq=seq, node=node, ack=rng.randrange(2**32)),
        lambda: p.Nack(seq=seq, node=node, ack=rng.randrange(2**32), reason=random_text(rng)),
        lambda: p.Error(
            seq=seq, node=node, code=rng.choice(["bus_error", "ring_off"]), detail=random_text(rng)
        ),
    ]
    message: p.Message = make[kind]()
    return message


def test_every_firmware_module_imports_under_micropython() -> None:
    done = subprocess.run(
        [
            micropython(),
            "-c",
            "import sys; import main; "
            "from armata_node import wire, node, ring, pn532; "
            "print(sys.implementation.name, main.POLL_MS, node.FIRMWARE)",
        ],
        capture_output=True,
        text=True,
        env=micropython_env(),
        timeout=limit(60),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "micropython"  # really the other interpreter


def test_frames_equal_the_bridge_byte_for_byte_in_both_directions() -> None:
    rng = random.Random(20261123)
    messages = [random_message(rng) for _ in range(600)]
    fits = []
    for message in messages:
        try:
            p.encode_message(message)
            fits.append(message)
        except ValueError:  # over MAX_PAYLOAD: the firmware must refuse it too (checked below)
            pass
    assert len(fits) > 400
    cases = []
    for message in messages:
        fields = msgspec.to_builtins(message)
        kind, seq, node = fields.pop("type"), fields.pop("seq"), fields.pop("node")
        fields.pop("v")
        cases.append(
            msgspec.json.encode(
                {"op": "encode", "type": kind, "seq": seq, "node": node, "fields": fields}
            ).decode()
        )
    for message in fits:  # host -> node: the firmware reads what the bridge writes
        cases.append(
            msgspec.json.encode({"op": "decode", "hex": p.encode_message(message).hex()}).decode()
        )
    answers = run_micropython(WIRE_CASES, cases)
    encoded, decoded = answers[: len(messages)], answers[len(messages) :]
    long_texts = 0
    for message, answer in zip(messages, encoded, strict=True):
        try:
            host = p.encode_message(message)
        except ValueError:
            assert "error" in answer and "too large" in answer["error"], answer
            continue
        assert "error" not in answer, (message, answer)
        assert bytes.fromhex(answer["payload"]) == host, message  # the JSON, byte for byte
        assert bytes.fromhex(answer["frame"]) == frame(host), message
        long_texts += any(ord(ch) > 127 for ch in host.decode())
        back = p.decode_message(bytes.fromhex(answer["payload"]), p.DropCounter())
        assert back == message  # node -> host: the bridge reads what the firmware writes
    assert long_texts > 50  # non-ASCII text was really exercised
    for message, answer in zip(fits, decoded, strict=True):
        assert answer["message"] == msgspec.to_builtins(message), message


def test_frames_of_every_payload_length_up_to_the_maximum() -> None:
    rng = random.Random(7)
    payloads = [bytes(rng.randrange(256) for _ in range(n)) for n in range(1, p.MAX_PAYLOAD + 1)]
    payloads += [b"\x01" * 252, b"\x01" * 506, b"\x00" * 300, b"\x03" * 40]  # full COBS blocks
    cases = [msgspec.json.encode({"op": "frame", "hex": x.hex()}).decode() for x in payloads]
    chunks = [payloads[i : i + 32] for i in range(0, len(payloads), 32)]  # the node's small heap
    for chunk in chunks:
        stream = b"\x13\x37garbage\x00" + b"".join(frame(x) for x in chunk)
        cases.append(msgspec.json.encode({"op": "read", "hex": stream.hex()}).decode())
    answers = run_micropython(WIRE_CASES, cases)
    for payload, answer in zip(payloads, answers, strict=False):
        assert "error" not in answer, (len(payload), answer)
        assert bytes.fromhex(answer["frame"]) == frame(payload), len(payload)
        assert FrameDecoder().feed(bytes.fromhex(answer["frame"])) == [payload]
    for chunk, read in zip(chunks, answers[len(payloads) :], strict=True):
        assert [bytes.fromhex(x) for x in read["payloads"]] == chunk
        assert read["dropped"] == 1  # the garbage before the first frame


@pytest.mark.parametrize(
    "payload",
    [
        b'{"type":"ping","v":1,"seq":1,"node":"\xff","t":1}',  # invalid UTF-8 in a string
        b'{"type":{"a":1},"v":1,"seq":1,"node":"room-ne"}',  # a type that is an object
        b'{"type":"ping","v":1,"seq":"1","node":"room-ne"}',
        b'{"type":"ping","v":1,"seq":true,"node":"room-ne"}',
        b'{"type":"ping","v":1,"seq":-1,"node":"room-ne"}',
        b'{"type":"ping","v":1,"seq":1,"node":7}',
        b"[1,2,3]",
        b'{"type":"ping","v":2,"seq":1,"node":"room-ne"}',
        b"\xfe\xff",
        b"{" * 300,
        b'{"type":"ping","v":1,"seq":1,"node":"' + b"x" * 600 + b'"}',
    ],
)
def test_bad_input_is_no_message_and_never_an_exception(payload: bytes) -> None:
    case = msgspec.json.encode({"op": "decode", "hex": payload.hex()}).decode()
    [answer] = run_micropython(WIRE_CASES, [case])
    assert answer == {"message": None}


@pytest.fixture()
def node(tmp_path: Path) -> Any:
    with MicroPythonNode(tmp_path) as running:
        yield running
    assert "Traceback" not in running.errors, running.errors


def test_main_py_answers_at_once_with_two_readers_that_see_no_tag(node: MicroPythonNode) -> None:
    hello = node.expect(p.Hello, 5.0)
    assert isinstance(hello, p.Hello) and hello.readers == 2 and hello.node == "room-ne"
    ping = p.Ping(seq=node.next_seq(), node="room-ne", t=42)
    sent = node.send(ping)
    answered, pong = node.expect_timed(p.Pong, 1.0)  # it took 6 s before the loop was fixed
    assert isinstance(pong, p.Pong) and pong.t == 42 and answered - sent < limit(1.0)
    led = p.Led(seq=node.next_seq(), node="room-ne", colour="#ff8000", brightness=255)
    assert len(p.encode_message(led)) > 120  # a full LED command (15 s before the fix)
    node.send(led)
    node.expect(p.Ack, 1.0, ack=led.seq)
    deadline = time.monotonic() + limit(1.0)
    while node.pixels() != [[capped(255), capped(128), 0]] * 24:
        assert time.monotonic() < deadline, node.pixels()
        time.sleep(0.01)


def test_a_node_under_micropython_reads_tags_and_reports_them_again_when_asked(
    node: MicroPythonNode,
) -> None:
    node.expect(p.Hello, 5.0)
    node.send(p.Ping(seq=node.next_seq(), node="room-ne", t=1))  # the greeting
    node.expect(p.Pong)
    node.place_tag(0, "04a1b2c3d4e5f6")
    present = node.expect(p.TagPresent, 1.0, reader=0)
    assert isinstance(present, p.TagPresent) and present.uid == "04a1b2c3d4e5f6"
    node.place_tag(1, "11223344")
    node.expect(p.TagPresent, 1.0, reader=1, uid="11223344")
    node.send(p.Identify(seq=node.next_seq(), node="room-ne"))  # what rests on the readers?
    node.expect(p.Hello, 1.0)
    again = {m.reader: m.uid for m in [node.expect(p.TagPresent), node.expect(p.TagPresent)]}  # type: ignore[attr-defined]
    assert again == {0: "04a1b2c3d4e5f6", 1: "11223344"}
    node.lift_tag(0)
    node.expect(p.TagRemoved, 1.0, reader=0, uid="04a1b2c3d4e5f6")


def test_a_frame_full_of_0x03_and_garbage_between_frames_do_not_stop_the_node(
    node: MicroPythonNode,
) -> None:
    node.expect(p.Hello, 5.0)
    ping = next(  # a frame with 0x03 in it (Ctrl-C on a real USB port unless disabled)
        x
        for x in (p.Ping(seq=seq, node="room-ne", t=3) for seq in range(1, 5000))
        if b"\x03" in frame(p.encode_message(x))
    )
    node.send_raw(b"\x03\x03\xff\xfe garbage \x00" + frame(b'{"type":{"x":1}}'))
    node.send_raw(frame(b'{"type":"ping","v":1,"seq":9,"node":"room-ne","t":"\xff"}'))
    node.send(ping)
    pong = node.expect(p.Pong, 1.0)
    assert isinstance(pong, p.Pong) and pong.t == 3
    assert node.process.poll() is None  # still running


def test_a_missing_reader_does_not_slow_the_node(node: MicroPythonNode) -> None:
    (node.workdir / "missing-1").write_text("")  # reader 1 unplugged: its bus raises OSError
    node.expect(p.Hello, 5.0)
    for _ in range(5):
        sent = node.send(p.Ping(seq=node.next_seq(), node="room-ne", t=5))
        answered, _ = node.expect_timed(p.Pong, 1.0)
        assert answered - sent < 1.0
    node.place_tag(0, "0a0b0c0d")
    node.expect(p.TagPresent, 1.0, reader=0, uid="0a0b0c0d")
