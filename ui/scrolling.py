"""Scrolled lists: the scroll view every screen uses, which one holds a widget, and bringing one
to rest. Kivy's scroll view keeps a glide (its scroll effect's velocity) going after a list
changes size; while it lasts it sets the scroll position every frame, over anything else that
sets it."""

from __future__ import annotations

from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

__all__ = ["ScrollArea", "at_rest", "scroll_view_of", "to_top"]


class ScrollArea(ScrollView):
    """Kivy's ScrollView without its binding leak (Kivy 2.3): each scroll update binds
    `bar_color` once more and the fade half a second later unbinds it once, so a list scrolled
    or refilled often kept a binding per update (~250 a game on the round screen's lists)."""

    def update_from_scroll(self, *largs: object) -> None:
        self.funbind("bar_color", self._change_bar_color)  # at most the one it binds again
        super().update_from_scroll(*largs)


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
