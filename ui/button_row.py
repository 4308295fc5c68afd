"""A row of buttons side by side, as high as its highest button (at least a finger's 48 dp).

A kv rule `height: max([dp(48)] + [c.height for c in self.children])` follows the children
list, not each child's height: a button that grows after it was added (its text laid out on
two lines, a denser screen's 72 px) spilled over the text above the row, and a scroll view
around it cut the button off (issue 29; ui/checks.outside_their_box finds it)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget


class ButtonRow(BoxLayout):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", dp(4))
        super().__init__(orientation="horizontal", size_hint_y=None, **kwargs)
        self.height = dp(48)

    def add_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.bind(height=self._fit)
        self._fit()

    def remove_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().remove_widget(widget, *args, **kwargs)
        widget.unbind(height=self._fit)
        self._fit()

    def _fit(self, *_: object) -> None:
        self.height = max([dp(48), *(child.height for child in self.children)])
