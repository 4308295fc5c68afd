"""Layout checks run on the live widget tree: text that does not fit its widget, touch targets
smaller than 48 px."""

from __future__ import annotations

from collections.abc import Iterator

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.theme import MIN_TOUCH_PX


def walk(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def overflowing_labels(root: Widget) -> list[str]:
    """Labels (buttons too) whose rendered text is larger than the widget."""
    found = []
    for widget in walk(root):
        if isinstance(widget, Label) and widget.text and widget.opacity > 0:
            widget.texture_update()
            tw, th = widget.texture_size
            if tw > widget.width + 1 or th > widget.height + 1:
                found.append(
                    f"{type(widget).__name__} {widget.text[:40]!r}: text {tw:.0f}x{th:.0f} "
                    f"> widget {widget.width:.0f}x{widget.height:.0f}"
                )
    return found


def small_touch_targets(root: Widget) -> list[str]:
    """Buttons a finger may need, under 48 px (a hidden one, at opacity 0, is none)."""
    return [
        f"{w.text[:30]!r}: {w.width:.0f}x{w.height:.0f}"
        for w in walk(root)
        if isinstance(w, Button)
        and w.opacity > 0
        and (w.width < MIN_TOUCH_PX or w.height < MIN_TOUCH_PX)
    ]
