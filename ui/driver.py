"""Scripted sessions for tests and screenshots, driven through real (simulated) touches on the
running app: `python -m ui --script shots|play|resume ...` (see __main__)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from companion.engine.game import commands as c
from ui import i18n
from ui.app import ArmataApp
from ui.checks import overflowing_labels, small_touch_targets, walk


def tap(widget: Widget) -> None:
    """A touch down and up on the widget's centre, through the window like a finger."""
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def find_button(root: Widget, text: str) -> Button:
    for widget in walk(root):
        if isinstance(widget, Button) and widget.text == text and not widget.disabled:
            return widget
    raise LookupError(f"no enabled button {text!r}")


class Driver:
    def __init__(self, app: ArmataApp, out: Path | None) -> None:
        self.app = app
        self.out = out
        self.report: dict[str, Any] = {"screens": {}, "steps": []}
        self.queue: list[Callable[[], None]] = []
        self.holding = False  # stop driving, keep the app running (to be killed)

    def then(self, step: Callable[[], None]) -> Driver:
        self.queue.append(step)
        return self

    def start(self, delay_s: float = 0.5) -> None:
        Clock.schedule_once(lambda _dt: self._next(), delay_s)

    def _layout(self) -> list[tuple[float, ...]]:
        return [(*w.pos, *w.size) for w in walk(self.app.root)]

    def _next(self, last: list[tuple[float, ...]] | None = None, waited: int = 0) -> None:
        """Run the next step once the layout has settled (two frames alike): a touch on a
        widget that is still being laid out would land somewhere else."""
        if self.holding:
            return
        layout = self._layout()
        if layout != last and waited < 100:
            Clock.schedule_once(lambda _dt: self._next(layout, waited + 1), 0.05)
            return
        if not self.queue:
            print(json.dumps(self.report), flush=True)
            self.app.stop()
            return
        step = self.queue.pop(0)
        step()
        Clock.schedule_once(lambda _dt: self._next(), 0.05)

    # ----- steps ---------------------------------------------------------------------------------
    def shoot(self, name: str) -> None:
        root = self.app.root
        entry: dict[str, Any] = {
            "overflow": overflowing_labels(root),
            "small_targets": small_touch_targets(root),
        }
        if self.out is not None:
            path = self.out / f"{name}.png"
            root.export_to_png(str(path))
            entry["png"] = str(path)
        self.report["screens"][name] = entry

    def language(self, code: str) -> None:
        self.app.switch_language(code)

    def press(self, text: str) -> None:
        button = find_button(self.app.root, i18n.tr(text))
        self.report.setdefault("pressed", []).append(
            [text, list(button.to_window(*button.center)), list(button.size)]
        )
        tap(button)

    def play_one(self) -> None:
        """One decision by touch: a highlighted space when the game waits for a move, otherwise
        the first option button."""
        session = self.app.session
        assert session is not None
        before = session.state.event_count
        options = session.legal_commands()
        moves = [x for x in options if isinstance(x, c.Move) and not x.stealth]
        view = self.app.game_view
        if moves:
            cell = (moves[-1].to[0], moves[-1].to[1])
            tap_at(*view.to_window(*view.to_pixel(cell)))
        else:
            box = self.app._screen().ids.options
            buttons = [b for b in reversed(box.children) if isinstance(b, Button)]
            tap(buttons[0])
        self.report["steps"].append(
            {"waiting": session.waiting_text(), "events": session.state.event_count - before}
        )

    def summary(self) -> None:
        session = self.app.session
        board = self.app.board
        self.report["game"] = (
            None
            if session is None
            else {
                "id": session.game_id,
                "round": session.state.round,
                "phase": session.state.phase,
                "events": session.state.event_count,
                "waiting": session.waiting_text(),
                "screen": self.app.manager.current,
            }
        )
        self.report["announcements"] = [a.kind for a in self.app.announcements]
        self.report["headlines"] = [a.headline for a in self.app.announcements]
        self.report["published"] = len(self.app.published)
        self.report["spoken"] = list(getattr(self.app.speaker, "said", []))
        self.report["refusals"] = list(self.app.refusals)
        self.report["leds"] = (
            {} if board is None else {n: node.showing() for n, node in board.nodes.items()}
        )

    def hold(self) -> None:
        """Print the report so far and stop driving (the test kills the process)."""
        self.summary()
        print(json.dumps(self.report), flush=True)
        self.holding = True


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
        self.tap_ms: list[float] = []
        self.engine_ms: list[float] = []
        self.rss_start = rss_mb()

    def measure_step(self) -> None:
        """One decision by touch; Strigoi draws are timed from the touch to the banner."""
        import time

        from companion.engine.game.flow import decide

        session = self.app.session
        assert session is not None
        if session.state.phase == "over":
            return
        task = session.waiting_for
        if task is not None and task.kind == "strigoi":
            command = session.legal_commands()[0]
            start = time.perf_counter()
            decide(session.rules, session.state, command)
            self.engine_ms.append((time.perf_counter() - start) * 1000)
            box = self.app._screen().ids.options
            button = next(b for b in reversed(box.children) if isinstance(b, Button))
            start = time.perf_counter()
            tap(button)
            if self.app._screen().banner_text:
                self.tap_ms.append((time.perf_counter() - start) * 1000)
        else:
            self.driver.play_one()
        view = self.app.game_view
        start = time.perf_counter()
        view.redraw()
        self.redraw_ms.append((time.perf_counter() - start) * 1000)

    def measure_bare_redraw(self) -> None:
        import time

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

    def report(self) -> None:
        self.driver.report["bench"] = {
            "redraw_ms": self.redraw_ms,
            "bare_redraw_ms": self.bare_redraw_ms,
            "tap_to_banner_ms": self.tap_ms,
            "engine_ms": self.engine_ms,
            "rss_start_mb": self.rss_start,
            "rss_end_mb": rss_mb(),
            "phase": self.app.session.state.phase if self.app.session else None,
        }
