"""Measurements inside the running app, scripted by the driver (benchmarks/ui.py prints them)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.processes import limit
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import tap


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pymalloc_parts() -> dict[str, float]:
    """Python's own small-object allocator (pymalloc: 1 MB arenas mapped directly, which a C
    heap profiler does not see): the arenas mapped now and the bytes in blocks in use, in MB
    (sys._debugmallocstats writes them to the C stderr: read back through a file)."""
    import os
    import re
    import sys
    import tempfile

    with tempfile.TemporaryFile("w+") as out:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read()
    arenas = re.search(r"(\d+) arenas \* (\d+) bytes/arena", text)
    used = re.search(r"# bytes in allocated blocks\s*=\s*([\d,]+)", text)
    if arenas is None or used is None:  # not pymalloc (PYTHONMALLOC=malloc)
        return {}
    return {
        "pymalloc_arenas": int(arenas.group(1)) * int(arenas.group(2)) / 2**20,
        "pymalloc_used": int(used.group(1).replace(",", "")) / 2**20,
    }


def memory_parts() -> dict[str, float]:
    """Where the resident memory is (MB): the C heap (glibc's brk heap and anonymous maps, which
    hold Python's objects, Kivy's and Mesa's allocations), the GL driver's own mappings (Mesa,
    LLVM: code and their writable data), other files, and glibc's count of heap bytes in use
    and free (mallinfo2: what malloc_trim could still give back)."""
    import ctypes
    import re

    parts = {"heap_anon": 0, "gl_libs": 0, "files": 0}
    name = ""
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
            if head:
                name = head.group(1)
            elif line.startswith("Rss:"):
                kb = int(line.split()[1])
                if not name or name.startswith("[heap]") or name.startswith("[anon"):
                    parts["heap_anon"] += kb
                elif re.search(r"(LLVM|gallium|dri|mesa|GL|glapi|llvmpipe)", name):
                    parts["gl_libs"] += kb
                else:
                    parts["files"] += kb
    figures = {k: v / 1024 for k, v in parts.items()}

    try:  # every arena (mallinfo2 counts only the main one; Mesa's threads have their own)
        libc = ctypes.CDLL("libc.so.6")
        libc.fopen.restype = ctypes.c_void_p
        libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
        libc.fclose.argtypes = (ctypes.c_void_p,)
    except (OSError, AttributeError):  # not glibc
        return figures
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".xml") as xml:
        stream = libc.fopen(xml.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        text = Path(xml.name).read_text()
    tail = text[text.rindex("</heap>") :]  # the totals over every arena
    free = sum(
        int(n) for n in re.findall(r'<total type="(?:fast|rest)" count="\d+" size="(\d+)"', tail)
    )
    system = int(re.search(r'<system type="current" size="(\d+)"', tail).group(1))  # type: ignore[union-attr]
    figures["malloc_arenas"] = system / 2**20
    try:  # SQLite's own heap (its page caches: the game log's connections)
        used = ctypes.CDLL("libsqlite3.so.0").sqlite3_memory_used
        used.restype = ctypes.c_int64
        figures["sqlite"] = used() / 2**20
    except (OSError, AttributeError):
        pass
    figures["malloc_free"] = free / 2**20
    figures["arenas"] = text.count("<heap nr=")
    return figures


def rest(driver: Driver, seconds: float) -> None:
    """The table after a game: nobody taps for `seconds` (the app tidies up when idle)."""
    until = time.monotonic() + seconds
    driver.wait_until("the pause", lambda: time.monotonic() >= until, frames=10_000)


class Bench:
    """Measurements inside the running app (benchmarks/ui.py prints them)."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.app = driver.app
        self.redraw_ms: list[float] = []
        self.bare_redraw_ms: list[float] = []
        self.zoomed_redraw_ms: list[float] = []
        self.zoom_ms: list[float] = []
        self.tap_ms: list[float] = []
        self.engine_ms: list[float] = []
        self.frame_ms: list[float] = []
        self.rss_start = rss_mb()
        #: (index of the sentence in the voice's queue, the tap's time) per Strigoi tap
        self.voice_taps: list[tuple[int, float]] = []
        view = self.app.game_view
        draw = view.redraw

        def timed_redraw(*args: object) -> None:  # every redraw the app makes after an event
            start = time.perf_counter()
            draw(*args)
            self.redraw_ms.append((time.perf_counter() - start) * 1000)

        view.redraw = timed_redraw  # type: ignore[method-assign]

    def measure_step(self) -> None:
        """One decision by touch; Strigoi draws are timed from the touch to the frame that
        shows the story's first card (and the banner saying its words)."""
        from kivy.clock import Clock

        from companion.engine.game.flow import decide

        session = self.app.session
        assert session is not None
        if session.state.phase == "over":
            return
        task = session.waiting_for
        screen = self.app.round_screen()
        busy = screen.card_showing or screen.table.actions  # a card or the table first
        if task is not None and task.kind == "strigoi" and not busy:
            command = session.legal_commands()[0]
            start = time.perf_counter()
            decide(session.rules, session.state, command)
            self.engine_ms.append((time.perf_counter() - start) * 1000)
            button = self.driver.option_buttons()[0]
            voice = getattr(self.app.speaker, "voice", None)  # the real voice (--voice)
            spoken = len(voice.spoken) if voice is not None else 0
            start = time.perf_counter()
            tap(button)
            if voice is not None:
                self.voice_taps.append((spoken, start))
            # the command runs in the frame after the tap's (behind its busy sign, drawn in the
            # tap's frame: ui/widgets/busy.py); the clock runs from the touch all the same
            Clock.schedule_once(lambda _dt: self._card_shown(start), 0)
        else:
            self.driver.play_one()

    def _card_shown(self, start: float) -> None:
        if self.app.round_screen().card_showing:  # the story's first card, over the panel
            self._until_shown(start)

    def until_a_strigoi_tap(self, limit: int = 300) -> None:
        """More decisions by touch until a Strigoi step's tap was timed (a short run may end
        before the first Strigoi phase)."""
        session = self.app.session
        if self.tap_ms or limit == 0 or session is None or session.state.phase == "over":
            return
        self.measure_step()
        self.driver.queue.insert(0, lambda: self.until_a_strigoi_tap(limit - 1))

    def _until_shown(self, start: float, into: list[float] | None = None) -> None:
        """Stop the clock when the frame with the banner is drawn and the GPU is done with it."""
        from kivy.core.window import Window
        from kivy.graphics.opengl import glFinish

        times = self.tap_ms if into is None else into

        def flipped(*_: object) -> None:
            glFinish()
            times.append((time.perf_counter() - start) * 1000)
            Window.unbind(on_flip=flipped)

        Window.bind(on_flip=flipped)

    def measure_banner_frame(self) -> None:
        """The baseline of tap-to-banner: a frame where nothing but the banner's text changes."""
        start = time.perf_counter()
        self.app.round_screen().banner_text = f"baseline frame {len(self.frame_ms)}"
        self._until_shown(start, self.frame_ms)

    def wait_for_viewers(self, count: int) -> None:
        """Until `count` browser pages follow the table view (benchmarks/ui.py opens them)."""
        feed = self.app.web_feed
        assert feed is not None, "the table view is off"
        server = feed.server
        self.driver.wait_until(
            f"{count} browser pages",
            lambda: len(getattr(server, "_viewers", ())) >= count,
            frames=3000,
        )

    def rest(self, seconds: float) -> None:
        rest(self.driver, seconds)

    def measure_zoomed_redraw(self) -> None:
        """The board zoomed to one room (what a player sees while choosing a space): a zoom
        (the static layer drawn for it), then redraws after events (choices changing)."""
        view = self.app.game_view
        rooms = list(view.fortress.rooms)
        for i in range(len(rooms) * 3):
            view.zoom_room = rooms[i % len(rooms)]
            start = time.perf_counter()
            view.redraw()
            self.zoom_ms.append((time.perf_counter() - start) * 1000)
            cells = list(view.shown_cells())
            for k in range(8):  # events while zoomed: a different space highlighted each time
                view.highlight = {cells[(k * 5) % len(cells)]}
                start = time.perf_counter()
                view.redraw()
                self.zoomed_redraw_ms.append((time.perf_counter() - start) * 1000)
        view.zoom_room = None
        view.highlight = set()
        view.redraw()

    def measure_bare_redraw(self) -> None:
        from kivy.graphics import Color, Rectangle

        canvas = self.app.game_view.canvas
        for _ in range(50):
            start = time.perf_counter()
            canvas.clear()
            with canvas:
                Color(0, 0, 0, 1)
                Rectangle(pos=(0, 0), size=(10, 10))
            self.bare_redraw_ms.append((time.perf_counter() - start) * 1000)
        self.app.game_view.redraw()

    def voice_started_ms(self) -> tuple[list[float], list[float]]:
        """Tap to espeak-ng started for each Strigoi tap, and the baseline: starting the same
        program directly (the process alone)."""
        import shutil
        import subprocess

        voice = getattr(self.app.speaker, "voice", None)
        if voice is None or not voice.idle(limit(30)):
            return [], []
        started = [
            (voice.started_at[index] - at) * 1000
            for index, at in self.voice_taps
            if index < len(voice.started_at)
        ]
        program = shutil.which("espeak-ng")
        direct = []
        for _ in range(30 if program else 0):
            begin = time.perf_counter()
            process = subprocess.Popen([str(program), "--", "baseline"], stderr=subprocess.PIPE)
            direct.append((time.perf_counter() - begin) * 1000)
            process.communicate()
        return started, direct

    def report(self) -> None:
        voice_ms, spawn_ms = self.voice_started_ms()
        self.driver.report["bench"] = {
            "tap_to_voice_ms": voice_ms,
            "spawn_ms": spawn_ms,
            "redraw_ms": self.redraw_ms,
            "bare_redraw_ms": self.bare_redraw_ms,
            "zoomed_redraw_ms": self.zoomed_redraw_ms,
            "zoom_ms": self.zoom_ms,
            "tap_to_banner_ms": self.tap_ms,
            "engine_ms": self.engine_ms,
            "banner_frame_ms": self.frame_ms,
            "rss_start_mb": self.rss_start,
            "rss_end_mb": rss_mb(),
            "phase": self.app.session.state.phase if self.app.session else None,
            "viewers": len(getattr(self.app.web_feed.server, "_viewers", ()))
            if self.app.web_feed is not None
            else 0,
        }


class Games:
    """Games played back to back in one app, as a kiosk plays them (a new game, played to its
    end by touch, back to Home, the table idle for a moment): the resident memory after each,
    and the live objects by type (what a game leaves behind shows as a type whose count grows
    with every game). Under PYTHONTRACEMALLOC=1 the report also says where the Python memory
    that grew since the second game was allocated."""

    def __init__(self, driver: Driver, games: int, seed: int) -> None:
        self.driver = driver
        self.app = driver.app
        self.rss: list[float] = []
        self.parts: list[dict[str, float]] = []  # memory_parts() after each game
        self.objects: list[dict[str, int]] = []
        self.steps: list[int] = []
        self.snapshots: list[Any] = []
        #: after each game: live widgets, live announcements, the last game's announcements
        self.widgets: list[int] = []
        self.announcements: list[tuple[int, int]] = []
        for game in range(games):
            driver.then(lambda game=game: self.app.new_game(seed + game))
            driver.then(self.play_to_end)
            driver.then(lambda: self.app.show("home"))
            driver.then(lambda: rest(driver, 2.5))  # the app gives freed memory back when idle
            driver.then(self.measure)
        driver.then(self.report)

    def play_to_end(self, steps: int = 0) -> None:
        session = self.app.session
        if session is not None and session.state.phase != "over" and steps < 2000:
            self.driver.play_one()
            self.driver.queue.insert(0, lambda: self.play_to_end(steps + 1))
        else:
            self.steps.append(steps)

    def measure(self) -> None:
        import gc
        import tracemalloc
        from collections import Counter

        self.driver.announced.clear()  # the script's own records are not the app's memory
        self.driver.report["steps"].clear()
        self.driver.report.get("board_touches", []).clear()
        gc.collect()
        self.rss.append(rss_mb())
        self.parts.append({**memory_parts(), **pymalloc_parts()})
        from kivy.uix.widget import Widget

        from companion.app.story.announcement import Announcement

        live = gc.get_objects()
        self.objects.append(dict(Counter(type(o).__qualname__ for o in live)))
        self.widgets.append(sum(issubclass(type(o), Widget) for o in live))
        alive = sum(type(o) is Announcement for o in live)  # type(): proxies raise
        self.announcements.append((alive, len(self.app.service.announcements)))
        del live
        print(  # as the games go (the report comes at the end)
            json.dumps({"game": len(self.rss), "rss_mb": self.rss[-1], **self.parts[-1]}),
            file=sys.stderr,
            flush=True,
        )
        if tracemalloc.is_tracing() and len(self.rss) >= 2:  # after the second game (caches
            # warm) and the latest
            self.snapshots = [*self.snapshots[:1], tracemalloc.take_snapshot()]

    def report(self) -> None:
        first, last = self.objects[min(1, len(self.objects) - 1)], self.objects[-1]
        growing = sorted(
            ((name, count - first.get(name, 0)) for name, count in last.items()),
            key=lambda item: -item[1],
        )
        self.driver.report["games"] = {
            "rss_mb": self.rss,
            "parts_mb": self.parts,
            "steps": self.steps,
            "widgets": self.widgets,
            "announcements": self.announcements,
            "objects_growing": [g for g in growing[:40] if g[1] > 0],
            "objects_by_game": {  # the top growers' counts after each game
                name: [counts.get(name, 0) for counts in self.objects] for name, _ in growing[:15]
            },
            "objects_first": sum(first.values()),
            "objects_last": sum(last.values()),
            "allocated_since_second_game": [
                str(d) for d in self.snapshots[-1].compare_to(self.snapshots[0], "lineno")[:30]
            ]
            if len(self.snapshots) == 2
            else [],
        }
