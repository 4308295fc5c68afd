"""`python -m companion nodes test NODE`: a freshly built node on the bench, before it goes
under a tile. Its ring runs a pattern (each of the six segments in turn, then the whole ring
pulsing), every LED command must be acknowledged; then each reader is asked for a tag and what
it read is reported. What the Hardware screen shows of the node (version, round trip, faults,
errors) is reported too."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.app.devices.firmware import shipped_version
from companion.app.devices.node_scan import DEFAULT_WAIT_S, NodeScan
from companion.errors import NodeNotFound
from firmware_bridge import protocol as p

#: the pattern: (colour, where) — red, orange, yellow, green, blue, violet round the ring
SEGMENT_COLOURS = ("#ff0000", "#ff6000", "#ffff00", "#40ff40", "#0000ff", "#8000ff")
STEP_S = 0.3  # each segment stays this long, so a person sees it run round
TAG_WAIT_S = 30.0
READER_PLACES = {"room": ("the platform's rim", "the platform's centre")}


@dataclass
class BringUp:
    node: str
    port: str
    version: str
    leds_sent: int = 0
    leds_acked: int = 0
    reads: dict[int, str | None] = field(default_factory=dict)  # reader -> uid, None: nothing
    faults: int = 0

    @property
    def ok(self) -> bool:
        return (
            self.leds_acked == self.leds_sent
            and all(uid is not None for uid in self.reads.values())
            and self.version == shipped_version()
        )


def reader_place(kind: str, reader: int) -> str:
    places = READER_PLACES.get(kind, ())
    return places[reader] if reader < len(places) else f"reading spot {reader + 1}"


def bring_up(
    scan_pattern: str,
    node: str,
    *,
    wait_s: float = DEFAULT_WAIT_S,
    tag_wait_s: float = TAG_WAIT_S,
    step_s: float = STEP_S,
    report: Callable[[str], None] = print,
) -> BringUp:
    with NodeScan(scan_pattern) as scan:
        health = scan.wait(wait_s, [node]).get(node)
        if health is None or health.source is None:
            raise NodeNotFound(f"{node}: said no hello on {scan_pattern}")
        result = BringUp(node, health.source, health.version)
        scan.wait_rtt([node])
        bridge = scan.bridge
        report(f"{node} on {health.source}: {health.kind}, firmware {health.version or '?'}")
        report("ring: each segment in turn, then the whole ring pulsing white")
        seqs = [bridge.set_led(node, colour="#000000", pattern="off", brightness=0)]
        for direction, colour in enumerate(SEGMENT_COLOURS):
            seqs.append(
                bridge.set_led(
                    node, target="segment", direction=direction, colour=colour, brightness=255
                )
            )
            time.sleep(step_s)
        seqs.append(bridge.set_led(node, colour="#ffffff", pattern="pulse", brightness=255))
        bridge.wait_acked(5.0)
        result.leds_sent = len(seqs)
        result.leds_acked = sum(bridge.outcome(node, s) == "" for s in seqs)
        report(f"ring: {result.leds_acked} of {result.leds_sent} LED commands acknowledged")
        readers = next((h.readers for h in scan.hellos_since(0) if h.node == node), 1)
        for reader in range(readers):
            result.reads[reader] = _ask_for_tag(scan, node, health.kind, reader, tag_wait_s, report)
        bridge.set_led(node, pattern="off", brightness=0)
        bridge.wait_acked(2.0)
        after = {h.node: h for h in bridge.health()}[node]
        result.faults = after.faults
        rtt = "?" if after.rtt_ms is None else f"{after.rtt_ms:.1f} ms"
        errors = ", ".join(f"{k} {v}" for k, v in sorted(after.errors.items())) or "none"
        report(f"health: round trip {rtt}, faults {after.faults}, errors {errors}")
        if result.version != shipped_version():
            report(
                f"firmware {result.version or '(none named)'} is not the shipped "
                f"{shipped_version()}: python -m companion nodes flash {node}"
            )
    return result


def _ask_for_tag(
    scan: NodeScan,
    node: str,
    kind: str,
    reader: int,
    wait_s: float,
    report: Callable[[str], None],
) -> str | None:
    start = len(scan.events)
    report(f"reader {reader} ({reader_place(kind, reader)}): put a tag on it")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        for message in scan.events[start:]:
            if isinstance(message, p.TagPresent) and (message.node, message.reader) == (
                node,
                reader,
            ):
                report(f"reader {reader}: read {message.uid}")
                return message.uid
        time.sleep(0.05)
    report(f"reader {reader}: nothing read within {wait_s:g} s")
    return None
