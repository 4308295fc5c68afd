"""Touchscreen app speed under Xvfb, each figure next to a baseline from the same run:
cold start to the first interactive frame (goal <= 3 s; baseline: a bare Kivy window), fortress
redraw after an event, whole and zoomed to a room (goal median <= 16 ms; baseline: clearing and
drawing one rectangle), tap to the first card of a Strigoi step's story (card and banner), until
the frame showing it is drawn (goal p99 <= 17 ms, one frame; engine and commit included;
baselines: a frame where only the banner text changes, and the engine's decide alone), resident
memory after a long game (goal <= 120 MB; baseline: at start). Tap to the first card again with
ten headless Chromium pages following the table view (goal: no slower than the run without).

    python benchmarks/ui.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from stats import percentile  # benchmarks/stats.py: the script's folder is on sys.path

ROOT = Path(__file__).resolve().parent.parent
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 800x480x24"]
VIEWERS = 10  # browser pages on the table view in the second tap -> card run
BARE = """
import os, json, time
os.environ["KIVY_NO_ARGS"] = "1"; os.environ["KIVY_NO_CONSOLELOG"] = "1"
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label
class Bare(App):
    def build(self):
        Clock.schedule_once(self.first, 0)
        return Label(text="bare")
    def first(self, dt):
        print(json.dumps({"first_frame": time.time()}), flush=True)
        self.stop()
Bare().run()
"""


def under_xvfb(
    command: list[str], data: Path, timeout_s: int, env: dict[str, str] | None = None
) -> str:
    """Run `command` on a virtual screen with its own data folder; its standard output."""
    done = subprocess.run(
        [*XVFB, *command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout_s,
        env={**os.environ, "ARMATA_DATA_DIR": str(data), **(env or {})},
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return done.stdout


def first_frame(command: list[str], data: Path) -> float:
    start = time.time()
    out = under_xvfb(command, data, 120)
    line = next(x for x in out.splitlines() if "first_frame" in x)
    return float(json.loads(line)["first_frame"]) - start


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def with_viewers(
    command: list[str], port: int, data: Path, standin: Any, viewers: int
) -> dict[str, Any] | None:
    """The bench script again, `viewers` headless Chromium pages on its table view (they
    connect before the first tap: the script waits for them); its report, or None without
    Chromium."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from web import close_pages, open_pages

    from tests.browser import chromium, have_chromium

    if not have_chromium():
        print("(tap to card with browser pages: needs chromium and chromium-driver)")
        return None
    data.mkdir()
    env = {**os.environ, "ARMATA_DATA_DIR": str(data), "ARMATA_BENCH_VIEWERS": str(viewers)}
    app = subprocess.Popen(
        [*XVFB, *command],
        cwd=ROOT,
        env={**env, **standin.env()},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    driver = chromium(1024, 768)
    try:
        deadline = time.monotonic() + 120
        while True:  # the app's table view listening
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if time.monotonic() > deadline or app.poll() is not None:
                    raise RuntimeError("the app's table view never listened") from None
                time.sleep(0.2)
        handles = open_pages(driver, port, viewers)
        out, err = app.communicate(timeout=900)
        if app.returncode != 0:
            raise RuntimeError(err[-2000:])
        close_pages(driver, handles)
    finally:
        driver.quit()
        if app.poll() is None:
            os.killpg(app.pid, 9)
            app.wait()
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])["bench"]
    return report


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    steps = 60 if args.quick else 600
    print(f"armata ui benchmark - Python {platform.python_version()}, {platform.machine()}, Xvfb")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app_start = min(
            first_frame([sys.executable, "-m", "tests.ui_driver", "--script", "first-frame"], data)
            for _ in range(1 if args.quick else 3)
        )
        bare_script = data / "bare_kivy.py"  # a file: Kivy looks up the app class's source
        bare_script.write_text(BARE)
        bare_start = min(
            first_frame([sys.executable, str(bare_script)], data)
            for _ in range(1 if args.quick else 3)
        )
        print(
            f"{'cold start to first frame':32} {app_start:7.2f} s      goal <= 3 s     "
            f"baseline: bare Kivy window {bare_start:.2f} s (includes Xvfb start)"
        )
        # the voice on its real path, espeak-ng replaced by a stand-in that records and ends
        # at once (no sound device here; a real sentence would hold the next one back)
        sys.path.insert(0, str(ROOT))
        from tests.voice_standin import StandIn

        standin = StandIn(data / "voice")
        port = free_port()
        bench_app = [
            *(sys.executable, "-m", "tests.ui_driver", "--voice"),
            *("--web", f"127.0.0.1:{port}", "--script", "bench", str(steps)),
        ]
        out = under_xvfb(bench_app, data, 900, standin.env())
        bench = json.loads(out.strip().splitlines()[-1])["bench"]
        # the same again with ten browser pages following the table view (benchmarks/web.py's
        # headless Chromium), the touchscreen's tap -> card next to the run without them
        watched = with_viewers(bench_app, port, data / "viewers", standin, VIEWERS)
    redraw, bare = bench["redraw_ms"], bench["bare_redraw_ms"]
    print(
        f"{'fortress redraw after an event':32} median {statistics.median(redraw):6.2f} ms  "
        f"p99 {percentile(redraw, 0.99):6.2f} ms   goal median <= 16   baseline: one rectangle "
        f"{statistics.median(bare):.3f} ms   ({len(redraw)} redraws)"
    )
    zoomed, zooms = bench["zoomed_redraw_ms"], bench["zoom_ms"]
    print(
        f"{'zoomed room redraw after an event':32} median {statistics.median(zoomed):6.2f} ms  "
        f"p99 {percentile(zoomed, 0.99):6.2f} ms   goal median <= 16   baseline: one rectangle "
        f"{statistics.median(bare):.3f} ms   ({len(zoomed)} redraws, each room in turn)"
    )
    print(
        f"{'zoom to a room (layer drawn)':32} median {statistics.median(zooms):6.2f} ms  "
        f"p99 {percentile(zooms, 0.99):6.2f} ms   (a tap on the board; {len(zooms)} zooms)"
    )
    taps, engine, frame = bench["tap_to_banner_ms"], bench["engine_ms"], bench["banner_frame_ms"]
    if taps:
        print(
            f"{'tap to the first card frame':32} median {statistics.median(taps):6.2f} ms  "
            f"p99 {percentile(taps, 0.99):6.2f} ms   goal p99 <= 17 (one frame)   "
            "baseline: a frame changing only the banner (same run) "
            f"p99 {percentile(frame, 0.99):.2f} ms "
            f"(median {statistics.median(frame):.2f}), engine decide p99 "
            f"{percentile(engine, 0.99):.2f} ms   ({len(taps)} Strigoi steps, each from the "
            "touch to its drawn frame: card, banner, the command's commit)"
        )
    if watched is not None and taps:
        seen = watched["tap_to_banner_ms"]
        print(
            f"{f'tap to card, {VIEWERS} pages follow':32} "
            f"median {statistics.median(seen):6.2f} ms  p99 {percentile(seen, 0.99):6.2f} ms   "
            f"goal: no slower than without   baseline: the run above, no page "
            f"(median {statistics.median(taps):.2f}, p99 {percentile(taps, 0.99):.2f})   "
            f"({len(seen)} Strigoi steps, {watched['viewers']} pages connected at the end; "
            f"the banner-only frame in this run: median "
            f"{statistics.median(watched['banner_frame_ms']):.2f}, p99 "
            f"{percentile(watched['banner_frame_ms'], 0.99):.2f})"
        )
    voice, spawn = bench["tap_to_voice_ms"], bench["spawn_ms"]
    if voice:
        print(
            f"{'tap to espeak-ng started':32} median {statistics.median(voice):6.2f} ms  "
            f"p99 {percentile(voice, 0.99):6.2f} ms   goal p99 <= 100   baseline: starting the "
            f"program directly p99 {percentile(spawn, 0.99):.2f} ms   ({len(voice)} Strigoi steps; "
            f"espeak-ng is a stand-in that records its call)"
        )
    print(
        f"{'resident memory after the game':32} {bench['rss_end_mb']:7.1f} MB      goal <= 120    "
        f"baseline: at start {bench['rss_start_mb']:.1f} MB   (game phase: {bench['phase']})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
