"""Nothing moves under a finger (issue 40, item 5): where a screen's layout just changed (a
list that moved up when a strip closed, a row whose words changed, a panel that opened), a
touch is ignored for a moment, so a tap aimed at what was there never lands on what came.

The moment is HOLD_S, 0.4 s: a finger already on its way when the screen changes lands within
about a quarter of a second (a person's reaction to a change on a screen takes 0.2-0.25 s, so
the tap cannot be stopped before then); a tap meant for the new layout comes after reading it,
half a second and more. Only the areas that changed are held: the rest of the screen answers
at once."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from kivy.uix.widget import Widget

#: how long a changed area ignores touches (the module's docstring says why 0.4 s)
HOLD_S = 0.4

Rect = tuple[float, float, float, float]  # x, y, width, height in window coordinates


class MovedAreas:
    """The window's areas that changed lately, each ignoring touches until its time is up."""

    #: the scripted players of the UI tests tap once two frames are alike, faster than any
    #: hand: their driver sets 0 (tests/ui_driver), the finger script the real hold
    hold_s: ClassVar[float] = HOLD_S

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._areas: list[tuple[Rect, float]] = []
        self.ignored = 0  # touches ignored so far (the tests read it)

    def moved(self, *rects: Rect | None) -> None:
        """These areas changed now (a widget's place before and after, or its whole rect)."""
        if self.hold_s <= 0:
            return
        until = self.clock() + self.hold_s
        for rect in rects:
            if rect is not None and rect[2] > 0 and rect[3] > 0:
                self._areas.append((rect, until))

    def holds(self, x: float, y: float) -> bool:
        """A touch at (x, y) now lands on an area that changed too lately."""
        now = self.clock()
        self._areas = [(rect, until) for rect, until in self._areas if until > now]
        return any(
            left <= x <= left + width and bottom <= y <= bottom + height
            for (left, bottom, width, height), _ in self._areas
        )

    def quiet(self) -> bool:
        """No area is held now."""
        now = self.clock()
        return all(until <= now for _, until in self._areas)


def window_rect(widget: Widget) -> Rect:
    x, y = widget.to_window(*widget.pos)
    return (x, y, float(widget.width), float(widget.height))


class TouchGuard:
    """Watches widgets of one screen and holds back the touches on what changed; `screen`'s
    touches pass through `touch_down` before any of its children sees them."""

    def __init__(self, screen: Widget, areas: MovedAreas | None = None) -> None:
        self.areas = areas or MovedAreas()
        self._last: dict[int, Rect] = {}
        screen.bind(on_touch_down=self.touch_down)

    def watch(self, widget: Widget, *also: str, area: Widget | None = None) -> None:
        """`widget`'s place and size, and its properties `also` (a text, the children): when
        any changes, the area `area` (default: the widget) held before and holds now is held
        back from touches for a moment."""
        shown = area or widget
        self._last[id(shown)] = window_rect(shown)

        def changed(*_args: Any) -> None:
            now = window_rect(shown)
            self.areas.moved(self._last.get(id(shown)), now)
            self._last[id(shown)] = now

        widget.bind(pos=changed, size=changed)
        for name in also:
            widget.bind(**{name: changed})

    def touch_down(self, screen: Widget, touch: Any) -> bool:
        """True (the touch ends here) when it lands where the layout just changed."""
        parent = screen.parent
        x, y = parent.to_window(*touch.pos) if parent is not None else touch.pos
        if self.areas.holds(x, y):
            self.areas.ignored += 1
            return True
        return False
