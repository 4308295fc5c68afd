"""The bridge over serial on real pseudo-terminals: hot-plug by hello, ack/retry, duplicates,
garbage on the line, impersonation, and a device that disappears and comes back."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.framing import frame
from firmware_bridge.node_sim import PtyWire, SimNode
from firmware_bridge.serial_link import SerialLink
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for


class Bench:
    def __init__(self, directory: Path, known: list[str]) -> None:
        self.directory = directory
        self.events: list[p.Message] = []
        self.link = SerialLink(pattern=str(directory / "tty-*"), scan_interval_s=0.05)
        self.bridge = Bridge(self.link, known, self.events.append, retry_after_s=0.1)
        self.wires: dict[str, PtyWire] = {}

    def plug(self, node: str, port: str | None = None) -> SimNode:
        sim = SimNode(node, "card_reader" if node == "cards" else "room")
        wire = PtyWire(sim, self.directory / f"tty-{port or node}")
        wire.plug()
        self.wires[node] = wire
        return sim

    def online(self, node: str) -> bool:
        return {h.node: h for h in self.bridge.health()}[node].online

    def close(self) -> None:
        self.bridge.stop()
        for wire in self.wires.values():
            wire.close()


@pytest.fixture
def bench(tmp_path: Path) -> Iterator[Bench]:
    b = Bench(tmp_path, ["room-a", "room-b", "cards"])
    b.bridge.start()
    yield b
    b.close()


def test_nodes_are_found_by_their_hello_and_leds_acknowledged(bench: Bench) -> None:
    node = bench.plug("room-a", port="acm0")
    wait_for(lambda: bench.online("room-a"), 5, "room-a online")
    health = {h.node: h for h in bench.bridge.health()}["room-a"]
    assert health.source is not None and health.source.endswith("tty-acm0")
    bench.bridge.set_led("room-a", colour="#ff8800", pattern="pulse")
    assert bench.bridge.wait_acked(limit(5))
    assert node.showing()["ring"]["colour"] == "#ff8800"  # type: ignore[index]
    later = bench.plug("cards", port="acm1")  # hot-plugged after the bridge started
    wait_for(lambda: bench.online("cards"), 5, "cards online")
    later.place_tag("04a1b2c3d4e5f6")
    wait_for(lambda: any(isinstance(e, p.TagPresent) for e in bench.events))
    tag = next(e for e in bench.events if isinstance(e, p.TagPresent))
    assert (tag.node, tag.uid) == ("cards", "04a1b2c3d4e5f6")


def test_a_lost_command_is_resent_with_its_seq_and_applied_once(bench: Bench) -> None:
    node = bench.plug("room-a")
    wait_for(lambda: bench.online("room-a") and node.greeted.is_set())
    node.ignore_next = 2  # the first two copies are lost on the line
    seq = bench.bridge.set_led("room-a", colour="#00ff00")
    assert bench.bridge.wait_acked(limit(5))
    assert [m.seq for m in node.received] == [seq]
    assert {h.node: h for h in bench.bridge.health()}["room-a"].errors["resent"] >= 2


def test_a_command_never_acknowledged_is_given_up_and_counted(tmp_path: Path) -> None:
    bench = Bench(tmp_path, ["room-a"])
    bench.bridge.max_tries = 3
    bench.bridge.start()
    try:
        node = bench.plug("room-a")
        wait_for(lambda: bench.online("room-a") and node.greeted.is_set())
        node.ignore_next = 100
        bench.bridge.set_led("room-a", colour="#0000ff")
        assert bench.bridge.wait_acked(limit(5))
        assert len(bench.bridge.failed) == 1
        assert {h.node: h for h in bench.bridge.health()}["room-a"].errors["unacked"] == 1
    finally:
        bench.close()


def test_duplicates_garbage_and_impersonation_are_dropped_and_counted(bench: Bench) -> None:
    node = bench.plug("room-a")
    wait_for(lambda: bench.online("room-a"))
    wire = bench.wires["room-a"]
    tag = p.encode_message(p.TagPresent(seq=4242, node="room-a", uid="a1b2c3d4"))
    wire.write(tag)
    wire.write(tag)  # the same seq again: a duplicate
    assert wire._fd is not None
    os.write(wire._fd, os.urandom(300) + b"\x00")  # line noise, then a delimiter
    wire.write(p.encode_message(p.TagPresent(seq=4243, node="room-b", uid="a1b2c3d4")))
    wire.write(b'{"v":9,"seq":1,"type":"ping","node":"room-a","t":1}')  # unknown version
    node.press("confirm")
    wait_for(lambda: any(isinstance(e, p.Button) for e in bench.events), 5, "the button")
    tags = [e for e in bench.events if isinstance(e, p.TagPresent)]
    assert len(tags) == 1
    drops = bench.bridge.drops.counts + bench.link.drops.counts
    assert drops["duplicate"] == 1
    assert drops["impersonation"] == 1
    assert drops["unknown_version"] == 1
    assert drops["crc"] + drops["cobs"] + drops["short"] + drops["overflow"] >= 1


def test_an_unplugged_node_comes_back_and_gets_its_leds_again(bench: Bench) -> None:
    node = bench.plug("room-b")
    wait_for(lambda: bench.online("room-b"))
    bench.bridge.set_led("room-b", colour="#ff0000")
    bench.bridge.set_led("room-b", target="segment", direction=1, colour="#ffffff")
    assert bench.bridge.wait_acked(limit(5))
    wire = bench.wires["room-b"]
    wire.unplug()  # the cable is pulled: the node loses power and its LEDs
    wait_for(lambda: not bench.online("room-b"), 5, "room-b offline")
    assert node.showing() == {"ring": None, "segments": {}}
    bench.bridge.set_led("room-b", target="segment", direction=4, colour="#00ffff")
    wire.plug()
    wait_for(lambda: bench.online("room-b"), 5, "room-b back")
    assert bench.bridge.wait_acked(limit(5))
    shown = node.showing()
    assert shown["ring"]["colour"] == "#ff0000"  # type: ignore[index]
    assert sorted(shown["segments"]) == [1, 4]  # type: ignore[call-overload]


def test_waiting_for_acknowledgments_can_leave_out_nodes_that_are_offline(bench: Bench) -> None:
    """What closing the app relies on: "ring off" to every node, waiting only for those there."""
    bench.plug("room-a")
    wait_for(lambda: bench.online("room-a"))  # room-b is never plugged in
    bench.bridge.set_led("room-a", pattern="off")
    bench.bridge.set_led("room-b", pattern="off")
    assert bench.bridge.wait_acked(limit(5), online_only=True)
    assert bench.bridge.pending() == 1  # room-b's, still being resent
    assert not bench.bridge.wait_acked(0.3)


@contextmanager
def raw_port(
    tmp_path: Path, deliver: Callable[[str, bytes], None], changed: Callable[[str, bool], None]
) -> Iterator[tuple[SerialLink, int]]:
    """A link reading one pseudo-terminal whose far end the test writes raw bytes to (a
    simulated node that stays quiet), open before the test writes."""
    link = SerialLink(pattern=str(tmp_path / "tty-*"), scan_interval_s=0.05)
    link.start(deliver, changed)
    sim = SimNode("room-a")
    wire = PtyWire(sim, tmp_path / "tty-v")
    sim.announce_until_greeted = lambda stop: None  # type: ignore[method-assign]
    wire.plug()
    try:
        wait_for(lambda: link.sources() != [], 5, "the port open")
        assert wire._fd is not None
        yield link, wire._fd
    finally:
        link.stop()
        wire.close()


def test_frames_of_the_shared_vectors_decode_through_the_link(tmp_path: Path) -> None:
    """What the firmware sends byte for byte (vectors.json) comes out of the link intact."""
    import json

    vectors = json.loads((Path(p.__file__).parent / "vectors.json").read_text())["vectors"]
    got: list[bytes] = []

    def keep(source: str, payload: bytes) -> None:
        got.append(payload)

    with raw_port(tmp_path, keep, lambda source, up: None) as (_, fd):
        got.clear()
        for vector in vectors:
            os.write(fd, bytes.fromhex(vector["frame_hex"]))
        wait_for(lambda: len(got) >= len(vectors), 5, "every vector")
        assert got[-len(vectors) :] == [v["payload"].encode() for v in vectors]
        assert all(frame(v["payload"].encode()).hex() == v["frame_hex"] for v in vectors)


def test_a_newer_led_command_replaces_an_unacknowledged_older_one(bench: Bench) -> None:
    node = bench.plug("room-a")
    wait_for(lambda: bench.online("room-a") and node.greeted.is_set())
    node.ignore_next = 1  # red is lost once ...
    red = bench.bridge.set_led("room-a", colour="#ff0000")
    segment = bench.bridge.set_led("room-a", target="segment", direction=0, colour="#00ff00")
    blue = bench.bridge.set_led("room-a", colour="#0000ff")  # ... and replaced by blue
    assert bench.bridge.wait_acked(limit(5))
    assert ("room-a", red) in bench.bridge.superseded or red in {m.seq for m in node.received}
    assert node.showing()["ring"]["colour"] == "#0000ff"  # type: ignore[index]
    assert node.showing()["segments"] == {}  # the ring command cleared the segment
    assert segment != blue and node.received[-1].seq == blue


def test_identify_is_acknowledged_and_answered_with_a_hello(bench: Bench) -> None:
    node = bench.plug("room-b")
    wait_for(lambda: bench.online("room-b") and node.greeted.is_set())
    hellos = sum(isinstance(e, p.Hello) for e in bench.events)
    seq = bench.bridge.identify("room-b")
    assert bench.bridge.wait_acked(limit(5))
    wait_for(lambda: sum(isinstance(e, p.Hello) for e in bench.events) == hellos + 1, 5, "hello")
    assert {h.node: h for h in bench.bridge.health()}["room-b"].acked >= 1 and seq > 0


def test_a_frame_the_app_cannot_handle_never_closes_the_port(tmp_path: Path) -> None:
    """Issue 16, item 1: an error while handling one frame passed for a lost port: the port was
    closed and reopened, the node flapped offline, and the frames after it were lost uncounted."""
    got: list[bytes] = []
    changes: list[bool] = []

    def deliver(source: str, payload: bytes) -> None:
        if b"boom" in payload:
            raise ValueError("a handler that fails on this frame")
        got.append(payload)

    with raw_port(tmp_path, deliver, lambda source, up: changes.append(up)) as (link, fd):
        good = [frame(b'{"n":%d}' % i) for i in range(3)]
        os.write(fd, good[0] + frame(b'{"boom":1}') + good[1] + good[2])  # one read
        wait_for(lambda: len(got) >= 3, 5, "the frames after the bad one")
        assert got[-3:] == [b'{"n":0}', b'{"n":1}', b'{"n":2}']
        assert changes == [True]  # never reported gone
        assert link.drops.counts["handler_error"] == 1


def test_a_node_that_stops_reading_never_blocks_the_caller(tmp_path: Path) -> None:
    """Issue 16, item 7: writes had no timeout; 3,000 LED commands to a node that stopped
    reading blocked the calling (UI) thread after 120. Here the node says hello and never reads
    again: every call returns, the timeouts are counted, and the newest LED state is the one
    the bridge still holds for the node."""
    import threading
    import tty

    link = SerialLink(pattern=str(tmp_path / "tty-*"), scan_interval_s=0.05)
    bridge = Bridge(link, ["room-a"], retry_after_s=0.1)
    master, slave = os.openpty()
    tty.setraw(slave)
    (tmp_path / "tty-deaf").symlink_to(os.ttyname(slave))
    bridge.start()
    try:
        wait_for(lambda: link.sources() != [], 5, "the port open")
        hello = p.Hello(seq=1, node="room-a", kind="room", firmware="x", readers=2)
        os.write(master, frame(p.encode_message(hello)))
        wait_for(lambda: bridge.is_online("room-a"), 5, "the hello")
        done = threading.Event()

        def flood() -> None:
            for i in range(3000):
                bridge.set_led("room-a", colour=f"#{i % 256:02x}0000")
            done.set()

        threading.Thread(target=flood, daemon=True).start()
        assert done.wait(limit(60)), "set_led blocked on a node that does not read"
        drops = link.drops.counts
        assert drops["write_timeout"] >= 1 and drops["node_not_reading"] >= 1
        ring = bridge.ring("room-a")
        assert ring is not None and ring.colour == f"#{2999 % 256:02x}0000"
        assert bridge.pending() <= 2  # older LED commands were superseded, not queued up
    finally:
        bridge.stop()
        os.close(master)
        os.close(slave)


def test_stopping_while_a_port_is_being_added_never_fails(tmp_path: Path) -> None:
    """A port plugged in while the table closes: the scanner adds it as `stop` runs. `stop`
    used to find it registered but not yet started and fail to join it (seen on a loaded
    machine); no port is started once the link stops."""
    import threading

    for attempt in range(60):
        link = SerialLink()
        link.start(lambda source, payload: None, lambda source, up: None)
        paths = [str(tmp_path / f"tty-{attempt}-{n}") for n in range(20)]  # absent: retried
        adding = threading.Thread(target=lambda x=link, ps=paths: [x._add(p) for p in ps])
        adding.start()
        link.stop()  # raced with the adding thread
        adding.join()
        started = list(link._ports.values())
        assert all(port.thread.ident is not None for port in started)
        link.stop()  # again: joins whatever was started after the first stop (none may be)
        assert len(link._ports) == len(started)
