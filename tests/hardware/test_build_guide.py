"""The build guide (hardware/BUILD.md) and its parts list (hardware/parts.csv) agree with what
they describe: the counts are recomputed from the board file (rooms, platforms), the component
catalog (cards), the figures, and the firmware's example config (LEDs per ring); the power
budget from the firmware's own brightness cap (armata_node/ring.py MAX_LEVEL, read from the
source). The wiring drawings are what hardware/wiring.py draws; README links the guide."""

from __future__ import annotations

import csv
import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.boardfile import load_board_file
from companion.engine.situation import HEROES
from firmware_bridge.board import node_ids
from hardware import wiring
from tests.conftest import ROOT

HARDWARE = ROOT / "hardware"
GUIDE = (HARDWARE / "BUILD.md").read_text(encoding="utf-8")
FIRMWARE = HARDWARE / "firmware"
#: the card reader's reading spots (as the simulated board's card reader has: board.py)
CARD_SPOTS = 2
#: the Strigoi figures with a sticker: the Supreme stands on a flipped card's figure (README)
STRIGOI_FIGURES = ("master", "apprentice")
MA_PER_PIXEL = 60  # full white, the makers' guides' upper bound (BUILD.md, Power)


def parts() -> dict[str, int]:
    with (HARDWARE / "parts.csv").open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [r["id"] for r in rows] == list(dict.fromkeys(r["id"] for r in rows))  # unique ids
    assert all("price" not in key.lower() for key in rows[0])
    return {r["id"]: int(r["count"]) for r in rows}


@pytest.fixture(scope="module")
def ring() -> ModuleType:
    """The firmware's ring module itself (it imports under CPython, hardware/test_firmware.py)."""
    sys.path.insert(0, str(FIRMWARE))
    try:
        return importlib.import_module("armata_node.ring")
    finally:
        sys.path.remove(str(FIRMWARE))


def test_the_counts_follow_the_board_file_the_catalog_and_the_firmware() -> None:
    fortress = load_board_file()
    rooms = fortress.rooms
    platforms = [room for room in rooms.values() if room.platform is not None]
    catalog = json.loads((ROOT / "companion" / "data" / "catalog.json").read_text())
    per_ring = json.loads((FIRMWARE / "config.example.json").read_text())["led_count"]
    count = parts()
    nodes = node_ids(rooms)
    assert count["mcu"] == len(nodes) == len(rooms) + 1  # a node per room and the card reader
    assert count["pn532"] == 2 * len(rooms) + CARD_SPOTS
    assert count["led_ring"] == len(platforms) == 6
    assert count["ntag_platform"] == 6 * len(platforms)  # one per rim edge
    assert count["ntag_figure"] == len(HEROES) + len(STRIGOI_FIGURES)
    cards = sum(len(catalog[k]) for k in ("action_cards", "advanced_cards", "reward_cards"))
    assert count["ntag_card"] == cards
    assert count["resistor_330"] == count["cap_1000uf"] == count["ring_connector"] == 6
    assert count["jumper_wire"] == 4 * count["pn532"] + 2 * count["led_ring"]
    assert count["usb_cable_room"] + count["usb_cable_cards"] == len(nodes)
    assert count["carrier"] == len(rooms) and count["standoff_m3"] == 4 * count["pn532"]
    assert count["standoff_m2"] == 4 * count["mcu"]
    hub = next(r for r in csv.DictReader((HARDWARE / "parts.csv").open()) if r["id"] == "usb_hub")
    assert int(re.search(r"(\d+) ports", hub["part"])[1]) >= len(nodes)  # type: ignore[index]
    # the guide says the same numbers
    leds = count["led_ring"] * per_ring
    assert f"{len(rooms)} rooms" in GUIDE and f"{len(nodes)} nodes" in GUIDE
    assert f"{count['led_ring']} rings, {leds} LEDs" in GUIDE
    table = dict(re.findall(r"^\| ([^|]+?) \| (\d+)(?: m)? \|", GUIDE, re.MULTILINE))
    assert int(table["Raspberry Pi Pico (RP2040) with MicroPython"]) == count["mcu"]
    assert int(table["PN532 NFC reader module with I2C (DIP switches)"]) == count["pn532"]
    assert int(table["WS2812B ring of 24 LEDs"]) == count["led_ring"]
    stickers = sum(int(n) for part, n in table.items() if part.startswith("NTAG213"))
    assert stickers == sum(n for k, n in count.items() if k.startswith("ntag_"))


def test_the_power_budget_comes_from_the_firmwares_brightness_cap(ring: ModuleType) -> None:
    cap = ring.MAX_LEVEL
    assert 0 < cap < 255
    # the cap is what the ring really does: full white at brightness 255 shows `cap`
    pixels: dict[int, tuple[int, int, int]] = {}

    class Strip(dict):  # type: ignore[type-arg]
        def write(self) -> None:
            pixels.update(self)

    shown = ring.Ring(Strip(), 24)
    shown.apply({"target": "ring", "colour": "#ffffff", "brightness": 255, "pattern": "steady"})
    shown.render(0)
    assert set(pixels.values()) == {(cap, cap, cap)}
    per_ring = json.loads((FIRMWARE / "config.example.json").read_text())["led_count"]
    leds = parts()["led_ring"] * per_ring
    uncapped = leds * MA_PER_PIXEL / 1000
    capped = uncapped * cap / 255
    said = re.search(r"LED worst case under the cap: ([\d.]+) A", GUIDE)
    assert said is not None, "BUILD.md gives no LED worst case under the cap"
    assert said[1] == f"{capped:.2f}", (said[1], capped)
    assert f"**{uncapped:.2f} A**" in GUIDE and f"`MAX_LEVEL = {cap}`" in GUIDE
    total = capped + leds * 0.001
    assert f"about **{total:.2f} A**" in GUIDE
    supply = re.search(r"5 V (\d+) A", next(
        line for line in (HARDWARE / "parts.csv").read_text().splitlines()
        if line.startswith("led_supply,")
    ))  # fmt: skip
    assert supply is not None and int(supply[1]) >= total  # the supply covers the worst case


def test_the_wiring_drawings_are_what_the_script_draws() -> None:
    for name, text in wiring.drawings().items():
        path = HARDWARE / "wiring" / name
        assert path.read_text(encoding="utf-8") == text, f"{path}: run python -m hardware.wiring"
        assert f"wiring/{name}" in GUIDE
    config = json.loads((FIRMWARE / "config.example.json").read_text())
    room = (HARDWARE / "wiring" / "room-node.svg").read_text()
    assert f"GP{config['led_pin']} (LED data)" in room  # drawn from the firmware's pins
    for bus in config["readers"]:
        assert f"GP{bus['sda']} (I2C{bus['id']} SDA)" in room


def test_the_readme_links_the_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "hardware/BUILD.md" in readme
    assert Path(HARDWARE / "BUILD.md").exists()
