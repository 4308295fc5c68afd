"""The benchmark script keeps working (figures are printed, never asserted: see benchmarks/)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PYTHON, ROOT
from tests.support.browser import have_chromium
from tests.support.processes import run_group

pytestmark = pytest.mark.slow  # each benchmark script runs


def quick_run(script: str, timeout_s: int = 300) -> str:
    """The benchmark's --quick run; its output (it must exit cleanly)."""
    # its whole group (Xvfb, the app, Chromium) ends with it; the time scaled for the load
    done = run_group([PYTHON, script, "--quick"], timeout_s, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def timings(out: str, label: str, unit: str) -> tuple[float, float]:
    """(median, p99) of the row labelled `label`; both measured (> 0) and in order."""
    row = next((line for line in out.splitlines() if line.startswith(label)), None)
    assert row is not None, (label, out)
    found = re.search(
        rf"(?:median|p50) +([\d.]+) {unit} +(?:p90 +[\d.]+ {unit} +)?p99 +([\d.]+) {unit}", row
    )
    assert found is not None, row
    median, p99 = float(found.group(1)), float(found.group(2))
    assert 0 < median <= p99, row
    return median, p99


def rate(out: str, label: str, unit: str) -> float:
    row = next((line for line in out.splitlines() if line.startswith(label)), None)
    assert row is not None, (label, out)
    found = re.search(rf"([\d.]+) {unit}", row)
    assert found is not None, row
    return float(found.group(1))


def test_engine_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/engine.py", 300)
    assert "Python 3." in out and "174 spaces" in out
    for label, most_us in (
        ("Strigoi step", 50_000),
        ("line of sight from all", 500_000),
        ("reachable, 8 steps", 100_000),
        ("threat map", 1_000_000),
        ("platform rotation", 50_000),
    ):
        _, p99 = timings(out, label, "us")
        assert p99 < most_us, (label, p99)  # microseconds, not a unit off by 1000
    brute = float(re.search(r"baseline: brute force ([\d.]+) ms", out).group(1))  # type: ignore[union-attr]
    fast, _ = timings(out, "threat map", "us")
    assert fast / 1000 < brute, "the threat map beats its brute-force baseline"
    assert "baseline: rebuilding the geometry" in out


def test_game_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/game.py", 600)
    games = rate(out, "random games (2-5 players)", "games/s")
    greedy = rate(out, "greedy games (2-5 players)", "games/s")
    assert 1 < games < 10_000 and 0.1 < greedy < 10_000, out
    random_same = float(re.search(r"played at random ([\d.]+) games/s", out).group(1))  # type: ignore[union-attr]
    assert greedy < random_same * 2, out  # greedy games are longer than random ones
    _, apply_p99 = timings(out, "command apply, engine", "us")
    commit, _ = timings(out, "command apply + durable commit", "us")
    assert apply_p99 < 1_000_000 and commit < 1_000_000, out
    resume = float(re.search(r"resume a \d+-event game: +median +([\d.]+) ms", out).group(1))  # type: ignore[union-attr]
    assert 0 < resume < 10_000, out
    assert "bare SQLite" in out and "replay from the first event" in out


def test_bridge_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/bridge.py", 300)
    for label in (
        "serial (PTY): event -> LED back",
        "MQTT (Mosquitto): event -> LED back",
        "MQTT over TLS: event -> LED back",
    ):
        _, p99 = timings(out, label, "ms")
        assert p99 < 5_000, (label, p99)
    assert out.count("baseline: bare round trip") == 3
    for label in ("MQTT (Mosquitto), 7 nodes at 1,200/s", "MQTT over TLS, 7 nodes at 1,200/s"):
        assert 10 < rate(out, label, "events/s") < 100_000, out
    counts = re.findall(r"sent (\d+), received (\d+), lost (-?\d+)", out)
    assert len(counts) == 2, out
    for sent, got, lost in counts:  # every tag counted once, however often it was reported
        assert int(sent) > 0 and 0 <= int(got) <= int(sent) and int(lost) == int(sent) - int(got)


def test_ui_benchmark_prints_every_figure_with_its_baseline() -> None:
    out = quick_run("benchmarks/ui.py", 600)
    for label in (
        "cold start to first frame",
        "fortress redraw after an event",
        "zoomed room redraw after an event",
        "zoom to a room",
        "tap to the first card frame",
        "tap to espeak-ng started",
        "resident memory after the game",
    ):
        assert label in out, label
    assert "baseline: bare Kivy window" in out and "engine decide" in out
    assert "baseline: a frame changing only the banner" in out
    assert "baseline: starting the program directly" in out
    if have_chromium():  # the run with ten browser pages on the table view
        row = next(x for x in out.splitlines() if x.startswith("tap to card, 10 pages follow"))
        assert "10 pages connected at the end" in row, row
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


def test_web_benchmark_prints_our_part_and_the_pages_against_their_baselines() -> None:
    out = quick_run("benchmarks/web.py", 300)
    assert "headless Chromium" in out
    # issue 41: 1, 10 and 100 lightweight SSE clients, each against the bare transport
    for clients in ("1 SSE client", "10 SSE clients", "100 SSE clients"):
        label = f"command -> event received, {clients}"
        timings(out, label, "ms")
        row = next(line for line in out.splitlines() if line.startswith(label))
        assert " 0 missed" in row, row
    bare = [line for line in out.splitlines() if "baseline: bare SSE push -> received" in line]
    assert len(bare) == 3 and all(" 0 missed" in line for line in bare), out
    for label in ("command -> browser drawn, 1 viewer", "command -> browser drawn, 10 viewers"):
        timings(out, label, "ms")
        row = next(line for line in out.splitlines() if line.startswith(label))
        assert "baseline: bare SSE push -> page drawn" in row and " 0 missed" in row
    timings(out, "command + view build, service thread", "ms")
    for label in ("  of which: the command", "  of which: the page's handler -> frame drawn"):
        timings(out, label, "ms")
    assert re.search(r"frame drawn .*bare page: p50 [\d.]+ ms, p99 [\d.]+ ms +p99 ratio", out)
    for goal in ("by 100 SSE clients, p99 <= 50 ms: ", "p99 <= 1.5x the bare page's: "):
        assert re.search(rf"^goal: .*{re.escape(goal)}(met|NOT MET) \(", out, re.M), out
    # issue 38: the same with a thousand hostile connections open, against the run without
    hostile = "command -> browser drawn, 1 viewer, 1,000 hostile connections"
    timings(out, hostile, "ms")
    row = next(line for line in out.splitlines() if line.startswith(hostile))
    assert "baseline: the same without them" in row and " 0 missed" in row
    timings(out, "command + view build, service thread, 1,000 hostile", "ms")
    timings(out, "command + view build, service thread, 100 SSE clients", "ms")
    sizes = re.findall(r"bytes sent per command: p50 (\d+), max (\d+)", out)
    assert len(sizes) == 5 and all(0 < int(p50) <= int(top) for p50, top in sizes), out
