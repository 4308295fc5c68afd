"""A row of buttons side by side, as high as its highest button (at least a finger's 48 dp).

A kv rule `height: max([dp(48)] + [c.height for c in self.children])` follows the children
list, not each child's height: a button that grows after it was added (its text laid out on
two lines, a denser screen's 72 px) spilled over the text above the row, and a scroll view
around it cut the button off (issue 29; ui/checks.outside_their_box finds it)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget


class ButtonRow(BoxLayout):
    #: the row's least height: a finger's 48 dp; 0 for a row that folds away when empty (the
    #: round panel's commit box: a pooled button grown by its old text, shrunk by its new
    #: one, left it 108 px high over a 48 px Close, the list above cut with room to spare)
    least = NumericProperty(dp(48))

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", dp(4))
        kwargs.setdefault("orientation", "horizontal")
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.bind(least=self._fit)
        self._fit()

    def add_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.bind(height=self._fit)
        self._fit()

    def remove_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().remove_widget(widget, *args, **kwargs)
        widget.unbind(height=self._fit)
        self._fit()

    def _fit(self, *_: object) -> None:
        self.height = max([self.least, *(child.height for child in self.children)])
