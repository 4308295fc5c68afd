"""A busy sign on the button that started some work (issue 40, item 5: "work over 150 ms shows
a busy sign on the button that started it").

Commands run on Kivy's thread (the table service's own), so no frame is drawn while one runs:
a sign put up after 150 ms of work would never reach the screen. The sign therefore goes up in
the frame of the tap and the work runs in the next one, once that frame is on the screen; the
screen then shows the sign for as long as the work takes. Work done within a frame or two shows
it as briefly as a pressed button's own colour. The sign is drawn over the button (a veil and
three dots along its lower edge): its size and place never change, and a second tap on it, or on
another button of the same `Busy`, while the work waits or runs, does nothing."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, InstructionGroup, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

#: the veil over a busy button, and its dots
VEIL = (0.0, 0.0, 0.0, 0.45)
DOTS = (1.0, 1.0, 1.0, 0.95)


class BusySign:
    """The sign's drawing on one widget's canvas.after, following its place and size."""

    def __init__(self, widget: Widget) -> None:
        self.widget = widget
        self.group = InstructionGroup()
        widget.canvas.after.add(self.group)
        widget.bind(pos=self._draw, size=self._draw)
        self._draw()

    def _draw(self, *_args: object) -> None:
        w = self.widget
        self.group.clear()
        self.group.add(Color(*VEIL))
        self.group.add(Rectangle(pos=w.pos, size=w.size))
        self.group.add(Color(*DOTS))
        dot = min(dp(8), w.height / 6)  # below a line of its words, in the button's margin
        gap = dot
        left = w.center_x - 1.5 * dot - gap
        for i in range(3):
            self.group.add(Ellipse(pos=(left + i * (dot + gap), w.y + dot / 2), size=(dot, dot)))

    def remove(self) -> None:
        self.widget.unbind(pos=self._draw, size=self._draw)
        self.widget.canvas.after.remove(self.group)


class Busy:
    """The work of one screen's buttons: at most one at a time, its button signed meanwhile.
    `pressed` names the button a touch just released (its action may start work through
    `start`); work started without one (the Pi's buttons, a script) runs at once."""

    def __init__(self) -> None:
        self.button: Widget | None = None  # the button whose action runs now
        self.sign: BusySign | None = None
        self.started = 0  # work started behind a sign so far (the tests read it)

    @property
    def busy(self) -> bool:
        return self.sign is not None

    def pressed(self, button: Widget, action: Callable[[], None]) -> None:
        """A button released by a finger: its action, which may `start` work behind it."""
        if self.busy:
            return
        self.button = button
        try:
            action()
        finally:
            self.button = None

    def start(self, work: Callable[[], None], button: Widget | None = None) -> None:
        """`work` behind the sign of `button` (default: the button pressed now)."""
        button = button or self.button
        if self.busy:
            return
        if button is None:
            work()
            return
        self.sign = BusySign(button)
        self.started += 1
        Clock.schedule_once(lambda _dt: self._run(work), 0)  # after this frame is drawn

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        finally:
            if self.sign is not None:
                self.sign.remove()
            self.sign = None
