"""`python -m hardware.wiring`: draws the wiring of each node kind as SVG into hardware/wiring/
(room-node.svg, card-reader.svg), from the pins of the firmware's example config
(hardware/firmware/config.example.json) so the drawing and the firmware cannot disagree.
tests/hardware/test_build_guide.py checks the files in the repository are what this script draws."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "wiring"
CONFIG = HERE / "firmware" / "config.example.json"

ROW = 22  # px between pins
COLOURS = {"5V": "#d62728", "3V3": "#ff7f0e", "GND": "#222222", "SDA": "#1f77b4",
           "SCL": "#2ca02c", "DIN": "#9467bd"}  # fmt: skip


@dataclass(frozen=True)
class Part:
    name: str
    pins: tuple[str, ...]
    x: int
    y: int
    width: int = 190
    note: str = ""

    def pin_at(self, pin: str, side: str) -> tuple[int, int]:
        row = self.pins.index(pin)
        x = self.x + (self.width if side == "right" else 0)
        return x, self.y + 40 + row * ROW

    @property
    def height(self) -> int:
        return 50 + len(self.pins) * ROW


@dataclass(frozen=True)
class Wire:
    signal: str  # a COLOURS key
    start: tuple[str, str]  # (part name, pin) on the MCU (its right side)
    end: tuple[str, str]  # (part name, pin) on the device (its left side)
    label: str = ""


def _pico_pins(config: dict[str, object], readers: int) -> tuple[str, ...]:
    buses = list(config["readers"])  # type: ignore[call-overload]
    pins = ["VBUS (never to the ring)", "3V3 (out)", "GND"]
    for bus in buses[:readers]:
        pins += [f"GP{bus['sda']} (I2C{bus['id']} SDA)", f"GP{bus['scl']} (I2C{bus['id']} SCL)"]
    pins.append(f"GP{config['led_pin']} (LED data)")
    return tuple(pins)


def node_drawing(kind: str, config: dict[str, object]) -> tuple[list[Part], list[Wire]]:
    """The parts and wires of a room node (two readers and a ring) or the card reader (two
    reading spots, no ring)."""
    readers = 2
    pico = Part("Raspberry Pi Pico", _pico_pins(config, readers), 40, 60, 230, "USB to the hub")
    parts = [pico]
    wires: list[Wire] = []
    buses = list(config["readers"])  # type: ignore[call-overload]
    y = 40
    for i, bus in enumerate(buses[:readers]):
        where = ("under the platform's rim", "under the platform's centre")[i] if kind == "room" \
            else f"reading spot {i + 1}"  # fmt: skip
        reader = Part(f"PN532 reader {i}", ("VCC", "GND", "SDA", "SCL"), 520, y, note=where)
        parts.append(reader)
        wires += [
            Wire("3V3", (pico.name, "3V3 (out)"), (reader.name, "VCC")),
            Wire("GND", (pico.name, "GND"), (reader.name, "GND")),
            Wire("SDA", (pico.name, f"GP{bus['sda']} (I2C{bus['id']} SDA)"), (reader.name, "SDA")),
            Wire("SCL", (pico.name, f"GP{bus['scl']} (I2C{bus['id']} SCL)"), (reader.name, "SCL")),
        ]
        y += reader.height + 30
    if kind == "room":
        ring = Part(
            f"WS2812 ring, {config.get('led_count', 24)} LEDs",
            ("DIN", "5V", "GND"),
            520,
            y,
            note="1000 µF across 5V-GND; GND to the Pico's too",
        )
        supply = Part("LED supply 5 V (BUILD.md)", ("+5V", "GND"), 520, y + ring.height + 40)
        parts += [ring, supply]
        wires += [
            Wire("DIN", (pico.name, f"GP{config['led_pin']} (LED data)"), (ring.name, "DIN"),
                 "330 Ω"),
            Wire("GND", (pico.name, "GND"), (ring.name, "GND")),  # one ground with the supply's
            Wire("5V", (supply.name, "+5V"), (ring.name, "5V")),
            Wire("GND", (supply.name, "GND"), (ring.name, "GND")),
        ]  # fmt: skip
    return parts, wires


def svg(title: str, parts: list[Part], wires: list[Wire]) -> str:
    by_name = {p.name: p for p in parts}
    height = max(p.y + p.height for p in parts) + 60
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="{height}" '
        'font-family="DejaVu Sans, sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="20" y="28" font-size="16" font-weight="bold">{escape(title)}</text>',
    ]
    for part in parts:
        out.append(
            f'<rect x="{part.x}" y="{part.y}" width="{part.width}" height="{part.height}" '
            'rx="6" fill="#f4f4f4" stroke="#555"/>'
        )
        out.append(
            f'<text x="{part.x + 8}" y="{part.y + 18}" font-weight="bold">'
            f"{escape(part.name)}</text>"
        )
        if part.note:
            out.append(
                f'<text x="{part.x + 8}" y="{part.y + part.height + 14}" fill="#555">'
                f"{escape(part.note)}</text>"
            )
        for pin in part.pins:
            x, y = part.pin_at(pin, "left")
            out.append(f'<text x="{x + 8}" y="{y + 4}">{escape(pin)}</text>')
    for k, wire in enumerate(wires):
        start_part, end_part = by_name[wire.start[0]], by_name[wire.end[0]]
        x1, y1 = start_part.pin_at(wire.start[1], "right")
        x2, y2 = end_part.pin_at(wire.end[1], "left")
        bend = 300 + (k % 12) * 16  # each wire its own vertical lane
        colour = COLOURS[wire.signal]
        out.append(
            f'<polyline points="{x1},{y1} {bend},{y1} {bend},{y2} {x2},{y2}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        out.append(f'<circle cx="{x1}" cy="{y1}" r="3" fill="{colour}"/>')
        out.append(f'<circle cx="{x2}" cy="{y2}" r="3" fill="{colour}"/>')
        if wire.label:
            out.append(
                f'<text x="{x2 - 70}" y="{y2 - 4}" fill="{colour}">{escape(wire.label)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def drawings() -> dict[str, str]:
    """File name -> SVG text."""
    config = json.loads(CONFIG.read_text(encoding="utf-8"))
    return {
        "room-node.svg": svg("Room node (one per room)", *node_drawing("room", config)),
        "card-reader.svg": svg("Card reader node (cards)", *node_drawing("cards", config)),
    }


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, text in drawings().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {OUT / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
