"""The board's nodes from the Pi (issue 43): `nodes flash` with a stand-in mpremote on PATH
(standins/mpremote_standin.py, the only stand-in: it records its calls, keeps each node's flash as
a folder and runs the app's on-node code under the real MicroPython interpreter) and simulated
nodes on real pseudo-terminals that boot, after their reset, the firmware version now in their
flash; a flash that fails leaves that node on its old firmware, named, and the others flashed.
`nodes list`, `check --nodes` and the Hardware screen name a node on another firmware;
`nodes test` runs its bring-up against a simulated node."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.__main__ import main
from companion.app.devices.bringup import SEGMENT_COLOURS, bring_up
from companion.app.devices.nodes import health_view
from companion.app.words import i18n
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard
from firmware_bridge.node_sim import CARD_READER, PtyWire, SimNode
from hardware.shipped_firmware import FIRMWARE_DIR, firmware_files, firmware_version
from tests.support.standins import mpremote_standin
from tests.support.standins.firmware_host import micropython_path
from tests.support.standins.hardware_helpers import wait_for

pytestmark = pytest.mark.slow

OLD = "0.2"
SHIPPED = firmware_version()
CONFIG = '{"node": "%s", "kind": "room", "transport": "usb"}'


@dataclass
class BenchNode:
    """A simulated node on a PTY whose flash is a folder; on each reset the stand-in records,
    it reboots (port gone, then back) with the version of the firmware now in its flash."""

    sim: SimNode
    wire: PtyWire
    flash: Path
    resets: int = 0


class Bench:
    def __init__(
        self,
        root: Path,
        nodes: list[str],
        monkeypatch: pytest.MonkeyPatch,
        fresh: tuple[str, ...] = (),
    ) -> None:
        """`fresh`: boards with MicroPython only: an empty flash, no hello until flashed."""
        self.ports = root / "ports"
        self.ports.mkdir()
        self.calls = root / "calls.jsonl"
        self.flash_root = root / "flash"
        mpremote_standin.install(root / "bin")
        monkeypatch.setenv("PATH", f"{root / 'bin'}:{os.environ['PATH']}")
        monkeypatch.setenv("MPREMOTE_CALLS", str(self.calls))
        monkeypatch.setenv("MPREMOTE_FLASH", str(self.flash_root))
        # the code the app runs on a node runs under MicroPython (CPython where it has no wheel)
        monkeypatch.setenv("MPREMOTE_MICROPYTHON", micropython_path() or sys.executable)
        self.nodes: dict[str, BenchNode] = {}
        for node in nodes:
            flash = self.flash_root / f"tty-{node}"
            shutil.copytree(FIRMWARE_DIR, flash, ignore=shutil.ignore_patterns("config.*"))
            version = flash / "armata_node" / "version.py"
            version.write_text(version.read_text().replace(f'"{SHIPPED}"', f'"{OLD}"'))
            (flash / "config.json").write_text(CONFIG % node)
            kind = "card_reader" if node == CARD_READER else "room"
            sim = SimNode(node, kind, 2, version=firmware_version(flash))
            sim.silence_s = 1.0  # greeted by one tool, it speaks up for the next one sooner
            self.nodes[node] = BenchNode(sim, PtyWire(sim, self.ports / f"tty-{node}"), flash)
        self.fresh = set(fresh)
        for node in fresh:
            flash = self.flash_root / f"tty-{node}"
            flash.mkdir(parents=True)
            sim = SimNode(node, "room", 2, version="")
            self.nodes[node] = BenchNode(sim, PtyWire(sim, self.ports / f"tty-{node}"), flash)
        self.stop = threading.Event()
        self.watcher = threading.Thread(target=self._watch, daemon=True)

    @property
    def glob(self) -> str:
        return str(self.ports / "tty-*")

    def start(self) -> None:
        for node, bench in self.nodes.items():
            if node not in self.fresh:
                bench.wire.plug()
        self.watcher.start()

    def _watch(self) -> None:
        done = 0
        while not self.stop.wait(0.05):
            recorded = mpremote_standin.calls(self.calls)
            for call in recorded[done:]:
                if ["reset"] in call["commands"]:  # type: ignore[operator]
                    self._reboot(Path(str(call["port"])).name.removeprefix("tty-"))
            done = len(recorded)

    def _reboot(self, node: str) -> None:
        bench = self.nodes[node]
        bench.resets += 1
        bench.wire.unplug()
        bench.sim.version = firmware_version(bench.flash)  # what it boots now
        bench.wire.plug()

    def commands(self, node: str) -> list[list[str]]:
        port = str(self.ports / f"tty-{node}")
        return [
            c
            for call in mpremote_standin.calls(self.calls)
            if call["port"] == port
            for c in call["commands"]  # type: ignore[attr-defined]
        ]

    def close(self) -> None:
        self.stop.set()
        self.watcher.join(timeout=2)
        for bench in self.nodes.values():
            bench.wire.close()


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bench]:
    made = Bench(tmp_path, ["room-e", "room-ne", CARD_READER], monkeypatch)
    made.start()
    try:
        yield made
    finally:
        made.close()


def steps(commands: list[list[str]]) -> list[str]:
    """The calls as steps: stage/swap (exec), cp, sha256sum, reset."""
    named = []
    for c in commands:
        if c[0] == "exec":
            named.append("swap" if "'.prev/'" in c[1] and "rename('.next/'" in c[1] else "exec")
        else:
            named.append(c[1] if c[0] == "fs" else c[0])
    return named


def test_flash_writes_verifies_resets_and_a_failing_node_keeps_its_firmware(
    bench: Bench, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MPREMOTE_FAIL", "tty-room-ne:corrupt")  # its copies arrive cut short
    code = main(["nodes", "flash", "--serial-glob", bench.glob, "--wait", "5"])
    out = capsys.readouterr()
    assert code == 1
    lines = out.out.splitlines()
    assert f"room-e: flashed, runs firmware {SHIPPED} (was {OLD})" in lines
    assert f"cards: flashed, runs firmware {SHIPPED} (was {OLD})" in lines
    failed = next(line for line in lines if line.startswith("room-ne:"))
    assert "NOT flashed" in failed and "verify copy" in failed and "keeps its old" in failed
    assert "failed: room-ne" in out.err
    files = firmware_files()
    for node in ("room-e", CARD_READER):
        done = bench.nodes[node]
        # staged, copied, checked, swapped, checked in place, reset: in that order
        expected = ["exec", *(["cp"] * len(files)), "sha256sum", "swap", "sha256sum", "reset"]
        assert steps(bench.commands(node)) == expected
        copied = [c[-1] for c in bench.commands(node) if c[:2] == ["fs", "cp"]]
        assert copied == [f":.next/{f.remote}" for f in files]
        for item in files:  # the node's flash holds the shipped files, byte for byte
            assert (done.flash / item.remote).read_bytes() == item.local.read_bytes()
        assert not (done.flash / ".next").exists() and (done.flash / ".prev" / "main.py").exists()
        assert (done.flash / "config.json").read_text() == CONFIG % node  # its own, untouched
        assert done.sim.version == SHIPPED and done.resets == 1
        assert done.sim.repl_opened == [300]  # asked to let mpremote in first
    broken = bench.nodes["room-ne"]
    assert steps(bench.commands("room-ne")) == ["exec", *["cp"] * len(files), "sha256sum", "reset"]
    assert firmware_version(broken.flash) == OLD  # nothing of the running firmware replaced
    assert (broken.flash / "main.py").read_bytes() == (FIRMWARE_DIR / "main.py").read_bytes()
    assert broken.sim.version == OLD and broken.resets == 1  # restarted on its old firmware


def test_a_node_mpremote_cannot_reach_is_named_and_never_reset_into_anything(
    bench: Bench, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MPREMOTE_FAIL", "tty-cards:connect")
    asked = ["room-e", "cards", "room-w", "--serial-glob", bench.glob, "--wait", "3"]
    code = main(["nodes", "flash", *asked])
    lines = [x for x in capsys.readouterr().out.splitlines() if "writing firmware" not in x]
    assert code == 1
    assert lines[0] == f"room-e: flashed, runs firmware {SHIPPED} (was {OLD})"
    assert lines[1].startswith("cards: NOT flashed: stage: mpremote: could not enter raw repl")
    assert lines[2] == "room-w: NOT flashed: said no hello on any port"
    assert bench.nodes["cards"].sim.version == OLD
    assert bench.commands("room-ne") == []  # not named: not touched


def test_list_check_and_the_hardware_screen_name_each_node_on_another_firmware(
    bench: Bench,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench.nodes["room-e"].sim.version = SHIPPED
    bench.nodes[CARD_READER].sim.version = ""  # firmware from before the version field
    for node in ("room-e", CARD_READER):
        bench.nodes[node].sim.hello()
    assert main(["nodes", "list", "--serial-glob", bench.glob]) == 1
    listing = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in listing[1:4]}
    assert rows["room-e"][1:4] == ["usb", str(bench.ports / "tty-room-e"), SHIPPED]
    assert rows["room-ne"][3:5] == [OLD, "*"] and rows["cards"][3:5] == ["?", "*"]
    assert "online," in rows["room-ne"] and "trip" in rows["room-ne"]  # health: round trip
    monkeypatch.setenv("ARMATA_DATA_DIR", str(tmp_path / "data"))
    assert main(["check", "--nodes", "--serial-glob", bench.glob]) == 1
    said = capsys.readouterr().out
    assert f"node room-ne runs firmware {OLD}, this release ships {SHIPPED}" in said
    assert "node cards runs firmware a version older than 0.3 (it names none)" in said
    assert "room-e runs" not in said and f"nodes: 1 of 3 run firmware {SHIPPED}" in said


def test_the_hardware_screen_names_a_node_on_another_firmware() -> None:
    board = SimulatedBoard(["room-e", "room-ne", CARD_READER])
    board.nodes["room-ne"].version = OLD
    board.nodes[CARD_READER].version = ""
    board.start()
    try:
        wait_for(lambda: all(h.online for h in board.bridge.health()), 10, "three nodes")
        view = health_view(board.bridge)
        text = "\n".join(view.lines())
        assert f"firmware {OLD}, this app ships {SHIPPED}: update the node" in text
        assert f"firmware too old to name its version, this app ships {SHIPPED}" in text
        assert text.count("this app ships") == 2  # the east room's node is in step
        i18n.set_language("de")
        try:
            german = "\n".join(view.lines())
        finally:
            i18n.set_language("en")
        assert "this app ships" not in german and f"Firmware {OLD}" in german
    finally:
        board.stop()


def test_nodes_test_lights_the_ring_and_reports_each_reader(bench: Bench) -> None:
    node = bench.nodes["room-e"].sim
    said: list[str] = []

    def report(text: str) -> None:
        said.append(text)
        if text.startswith("reader 0 ("):  # the person at the bench puts a tag on it
            node.place_tag("04a1b2c3d4e5f6", 0)

    result = bring_up(bench.glob, "room-e", tag_wait_s=1.5, step_s=0.01, report=report)
    assert result.reads == {0: "04a1b2c3d4e5f6", 1: None} and not result.ok
    assert result.leds_sent == result.leds_acked == 8
    leds = [m for m in node.received if isinstance(m, p.Led)]
    segments = [(m.direction, m.colour) for m in leds if m.target == "segment"]
    assert segments == list(enumerate(SEGMENT_COLOURS))  # each segment in turn
    assert leds[-1].pattern == "off"  # dark again at the end
    assert "reader 0 (the platform's rim): put a tag on it" in said
    assert "reader 0: read 04a1b2c3d4e5f6" in said
    assert "reader 1: nothing read within 1.5 s" in said
    assert any(f"firmware {OLD} is not the shipped {SHIPPED}" in line for line in said)


def test_nodes_test_on_the_command_line_passes_a_node_in_order(
    bench: Bench, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    node = bench.nodes["room-ne"].sim
    node.version = SHIPPED
    node.hello()

    def at_the_bench(text: str) -> None:
        print(text)
        for reader, uid in ((0, "04000000000001"), (1, "04000000000002")):
            if text.startswith(f"reader {reader} ("):
                node.place_tag(uid, reader)

    monkeypatch.setattr("companion.nodes_cli._say", at_the_bench)
    glob = bench.glob
    assert main(["nodes", "test", "room-ne", "--serial-glob", glob, "--tag-wait", "3"]) == 0
    out = capsys.readouterr().out
    assert "ring: 8 of 8 LED commands acknowledged" in out
    assert "reader 1: read 04000000000002" in out and out.rstrip().endswith("room-ne: passed")
    assert main(["nodes", "test", "room-w", "--serial-glob", glob, "--wait", "1"]) == 2
    assert "room-w: said no hello" in capsys.readouterr().err  # one line, the node named


def test_a_fresh_board_gets_the_firmware_and_its_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = Bench(tmp_path, [], monkeypatch, fresh=("room-sw",))
    bench.start()
    try:
        config = tmp_path / "room-sw.json"
        config.write_text(CONFIG % "room-sw")
        port = str(bench.ports / "tty-room-sw")
        assert main(["nodes", "flash", "--port", port]) == 2  # without its config: refused
        assert "needs both --port and --config" in capsys.readouterr().err
        assert main(["nodes", "flash", "--port", port, "--config", str(config)]) == 0
        assert f"room-sw: flashed, runs firmware {SHIPPED} (was ?)" in capsys.readouterr().out
        fresh = bench.nodes["room-sw"]
        assert (fresh.flash / "config.json").read_text() == config.read_text()
        for item in firmware_files():
            assert (fresh.flash / item.remote).read_bytes() == item.local.read_bytes()
        assert steps(bench.commands("room-sw"))[-2:] == ["cp", "reset"]  # its config, then reset
        assert fresh.sim.version == SHIPPED
    finally:
        bench.close()
