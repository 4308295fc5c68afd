"""Measurements inside the running app, scripted by the driver (benchmarks/ui.py prints them)."""

from __future__ import annotations

import time

from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import tap


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


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
        from companion.engine.game.flow import decide

        session = self.app.session
        assert session is not None
        if session.state.phase == "over":
            return
        task = session.waiting_for
        screen = self.app._screen()
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
            if self.app._screen().card_showing:  # the story's first card, over the panel
                self._until_shown(start)
        else:
            self.driver.play_one()

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
        self.app._screen().banner_text = f"baseline frame {len(self.frame_ms)}"
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
        """The table after the game: nobody taps for `seconds` (the app tidies up when idle)."""
        until = time.monotonic() + seconds
        self.driver.wait_until("the pause", lambda: time.monotonic() >= until, frames=10_000)

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
        if voice is None or not voice.idle(30):
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
