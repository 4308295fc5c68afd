"""The benchmark script keeps working (figures are printed, never asserted: see benchmarks/)."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import PYTHON, ROOT


def quick_run(script: str, timeout_s: int = 300) -> str:
    """The benchmark's --quick run; its output (it must exit cleanly)."""
    done = subprocess.run(
        [PYTHON, script, "--quick"], capture_output=True, text=True, cwd=ROOT, timeout=timeout_s
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_engine_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/engine.py", 300)
    assert "Python 3." in out and "174 spaces" in out
    for label in (
        "Strigoi step",
        "line of sight from all",
        "reachable, 8 steps",
        "threat map",
        "platform rotation",
    ):
        assert label in out, label
    assert "baseline: brute force" in out and "baseline: rebuilding the geometry" in out


def test_game_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/game.py", 600)
    for label in (
        "random games (2-5 players)",
        "greedy games (2-5 players)",
        "the same seeds played at random",
        "command apply, engine",
        "durable commit",
        "bare SQLite",
        "resume a",
        "replay from the first event",
    ):
        assert label in out, label


def test_bridge_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/bridge.py", 300)
    for label in (
        "serial (PTY): event -> LED back",
        "MQTT (Mosquitto): event -> LED back",
        "MQTT over TLS: event -> LED back",
        "MQTT (Mosquitto), 7 nodes at 1,200/s",
        "MQTT over TLS, 7 nodes at 1,200/s",
    ):
        assert label in out, label
    assert out.count("baseline: bare round trip") == 3
    lost = [int(x) for x in re.findall(r"lost (\d+)", out)]
    assert len(lost) == 2 and all(n >= 0 for n in lost), out  # counted, both ways


def test_ui_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/ui.py", 600)
    for label in (
        "cold start to first frame",
        "fortress redraw after an event",
        "zoomed room redraw after an event",
        "zoom to a room",
        "tap to Strigoi card (and banner)",
        "resident memory after the game",
    ):
        assert label in out, label
    assert "baseline: bare Kivy window" in out and "engine decide" in out
    assert "baseline: a frame changing only the banner" in out
    medians = [float(x) for x in re.findall(r"median +([\d.]+) ms", out)]
    assert len(medians) >= 3 and all(0 < m < 1000 for m in medians), out  # measured, sane
    memory = float(re.search(r"after the game +([\d.]+) MB", out).group(1))  # type: ignore[union-attr]
    assert 20 < memory < 2000, out


def test_firmware_benchmark_prints_numbers_in_a_sane_range(micropython_binary: str) -> None:
    import re

    out = quick_run("benchmarks/firmware.py", 300)
    assert "(Unix port)" in out
    rows = re.findall(r"p50 +([\d.]+) ms +p99 +([\d.]+) ms .*baseline: bare MicroPython echo", out)
    assert len(rows) == 2, out  # ping and LED command
    for p50, p99 in rows:
        assert 0 < float(p50) <= float(p99) < 5000, out  # answered at all, and in order


def test_tracking_benchmark_prints_numbers_in_a_sane_range() -> None:
    import re

    out = quick_run("benchmarks/tracking.py", 300)
    rows = re.findall(r"p50 +(-?[\d.]+) ms +p99 +(-?[\d.]+) ms .*bare broker round trip", out)
    assert len(rows) == 2, out  # to the screen, to the LED
    for p50, p99 in rows:
        assert -5 < float(p50) <= float(p99) < 2000, out  # the debounce is really subtracted
