"""Layout checks run on the live widget tree: text that does not fit its widget, touch targets
smaller than 48 px."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.theme import MIN_TOUCH_PX


def walk(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown(widget: Widget) -> bool:
    """Seen on the screen: neither it nor a parent is hidden (opacity 0) or folded (no
    height)."""
    node: Widget | None = widget
    while isinstance(node, Widget):
        if node.opacity <= 0 or node.height <= 0:
            return False
        node = node.parent if node.parent is not node else None
    return True


def overflowing_labels(root: Widget) -> list[str]:
    """Labels (buttons too) whose rendered text is larger than the widget."""
    found = []
    for widget in walk(root):
        if isinstance(widget, Label) and widget.text and shown(widget):
            widget.texture_update()
            tw, th = widget.texture_size
            if tw > widget.width + 1 or th > widget.height + 1:
                found.append(
                    f"{type(widget).__name__} {widget.text[:40]!r}: text {tw:.0f}x{th:.0f} "
                    f"> widget {widget.width:.0f}x{widget.height:.0f}"
                )
    return found


def small_touch_targets(root: Widget) -> list[str]:
    """Buttons a finger may need, under 48 px (a hidden one, at opacity 0, is none), and the
    board's spaces while one is being chosen: a tap on the whole fortress only zooms to a room,
    so the spaces a finger picks are the zoomed room's, and those must be 48 px too."""
    from ui.fortress_view import FortressView

    found = [
        f"{w.text[:30]!r}: {w.width:.0f}x{w.height:.0f}"
        for w in walk(root)
        if isinstance(w, Button)
        and shown(w)
        and (w.width < MIN_TOUCH_PX or w.height < MIN_TOUCH_PX)
    ]
    for view in walk(root):
        if not isinstance(view, FortressView) or not shown(view) or not view.highlight:
            continue
        direct = view.zoom_room is not None or not view.zoom_on_tap  # spaces tapped directly
        if direct and view.space_px() < MIN_TOUCH_PX:
            found.append(f"board space to choose: {view.space_px():.0f} px")
    return found


#: What a player must never read: component ids (tokens, cards), coordinates, ladder and platform
#: ids, compass abbreviations of rooms.
INTERNAL_ID = re.compile(
    r"\b(?:red|grey|wound|master|apprentice|token)-[\w-]+"
    r"|\b(?:attila|falk_maria|matthew|charles|roel)/[a-z0-9-]+"
    r"|\[-?\d+, ?-?\d+\]"
    r"|\bL\d\b|\bp\d\b"
    r"|\b(?:NE|NW|SE|SW)\b"
)
MIN_TEXT_PX = 16


def _visible_texts(root: Widget) -> Iterator[Label]:
    for widget in walk(root):
        if isinstance(widget, Label) and widget.text and shown(widget):
            yield widget


def internal_ids(root: Widget) -> list[str]:
    """Visible texts that show an internal id (INTERNAL_ID)."""
    found = []
    for label in _visible_texts(root):
        match = INTERNAL_ID.search(label.text)
        if match:
            found.append(f"{match.group(0)!r} in {label.text[:60]!r}")
    return found


def small_texts(root: Widget) -> list[str]:
    """Visible texts under 16 px: too small to read at arm's length on the 7" panel."""
    return [
        f"{label.text[:30]!r}: {label.font_size:.0f} px"
        for label in _visible_texts(root)
        if label.font_size < MIN_TEXT_PX - 0.01
    ]
