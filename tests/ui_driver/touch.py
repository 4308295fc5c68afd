"""Touches as a finger makes them: on widgets a player could reach (in sight, not covered)."""

from __future__ import annotations

from typing import Any

from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from companion.app.session.text_size import STEPS, percent
from tests.ui_driver.checks import walk
from ui.widgets.scrolling import at_rest, scroll_view_of


def tap(widget: Widget) -> None:
    """A touch down and up on the widget's centre, through the window like a finger."""
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def reveal(widget: Widget) -> None:
    """Scroll the widget's scroll view to it, so that a finger can reach it (next frame). A
    finger put on a list still gliding stops it first, as Kivy's scroll view does for a touch:
    else the glide would move the list back past the widget every frame."""
    view = scroll_view_of(widget)
    if view is not None:
        at_rest(view)
        view.scroll_to(widget, padding=10, animate=False)


def in_sight(widget: Widget) -> bool:
    """Its centre is inside the visible part of its scroll view (or it has none)."""
    view = scroll_view_of(widget)
    if view is None:
        return True
    x, y = widget.to_window(*widget.center)
    left, bottom = view.to_window(*view.pos)
    return bottom <= y <= bottom + view.height and left <= x <= left + view.width


def sight(widget: Widget) -> dict[str, object]:
    """Where the widget is against its scroll view's window (for a failure's message)."""
    found: dict[str, object] = {"centre": list(widget.to_window(*widget.center))}
    view = scroll_view_of(widget)
    if view is not None:
        found["view"] = [*view.to_window(*view.pos), *view.size]
        found["scroll_y"] = view.scroll_y
        found["content"] = list(view.children[0].size) if view.children else None
        effect = view.effect_y
        found["glide"] = {"value": effect.value, "velocity": effect.velocity}
    return found


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def covered(widget: Widget) -> bool:
    """A finger cannot press it: it is on the hidden Strigoi card (which waits off to the
    side), or it lies under the shown card (which takes every touch on it)."""
    from ui.screens.round.screen import CardPanel

    node = widget
    while isinstance(node.parent, Widget):
        if isinstance(node, CardPanel) and not node.showing:
            return True
        siblings = node.parent.children
        above = siblings[: siblings.index(node)]  # children[0] is drawn last, on top
        if any(isinstance(w, CardPanel) and w.showing for w in above):
            return True
        node = node.parent
    return False


def find_button(root: Widget, text: str) -> Button:
    for widget in walk(root):
        if (
            isinstance(widget, Button)
            and widget.text == text
            and not widget.disabled
            and not covered(widget)
        ):
            return widget
    raise LookupError(f"no enabled button {text!r}")


def step_to(app: Any, wanted: int) -> None:
    """Step the text size as More… > Text size does, until it is `wanted` percent."""
    for _ in STEPS:
        if percent(app.service.settings.get("text_size")) == wanted:
            return
        app.step_text_size()
    assert percent(app.service.settings.get("text_size")) == wanted, wanted
