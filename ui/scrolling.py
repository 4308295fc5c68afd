"""Scrolled lists: which one holds a widget, and bringing one to rest. Kivy's scroll view keeps
a glide (its scroll effect's velocity) going after a list changes size; while it lasts it sets
the scroll position every frame, over anything else that sets it."""

from __future__ import annotations

from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

__all__ = ["at_rest", "scroll_view_of", "to_top"]


def scroll_view_of(widget: Widget) -> ScrollView | None:
    """The scroll view the widget lies in, if any."""
    parent = widget.parent
    while isinstance(parent, Widget) and not isinstance(parent, ScrollView):
        parent = parent.parent  # the Window above the root is no widget: the climb ends there
    return parent if isinstance(parent, ScrollView) else None


def at_rest(view: ScrollView) -> None:
    """Stop the list's glide, as a finger put on it does."""
    for effect in (view.effect_x, view.effect_y):
        if effect is not None:
            effect.velocity = 0


def to_top(view: ScrollView) -> None:
    """The list back at its top, at rest: a glide left from the list before would otherwise
    carry on and move the new list under the finger."""
    at_rest(view)
    view.scroll_y = 1
