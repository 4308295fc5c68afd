"""A page with a Back button, a title and a scrolling list: the base of the settings, history,
game-over and rules screens (each fills `content` in its own module)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from ui.widgets.button_row import ButtonRow
from ui.widgets.glyphs import printable
from ui.widgets.scrolling import (  # noqa: F401  (registered for every screen's kv lists)
    ScrollArea,
    WholeRows,
)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PageScreen(Screen):
    title_text = StringProperty("")
    back_to = "home"

    def go_back(self) -> None:
        self.manager.current = self.back_to

    def clear(self, title: str) -> None:
        self.title_text = title
        self.ids.content.clear_widgets()
        self.ids.scroll.scroll_y = 1

    def text(self, text: str, markup: str = "") -> None:
        """Plain text (escaped); `markup` is put before it as Kivy markup (a rule id in bold)."""
        shown = escape_markup(printable(text))
        self.ids.content.add_widget(Factory.PageText(text=markup + shown))

    def button(self, text: str, action: Callable[[], None], markup: bool = False) -> None:
        """A button; with `markup` its text is Kivy markup (the caller escaped it)."""
        button = Factory.PageButton(text=text, markup=markup)
        button.bind(on_release=lambda _b: action())
        self.ids.content.add_widget(button)

    def row(self, buttons: list[tuple[str, Callable[[], None]]]) -> None:
        """Buttons side by side, sharing the width (each at least 48 px high); in a narrow
        window on as many lines as their longest word needs (never a word broken)."""
        made = []
        for text, action in buttons:
            button = Factory.PageButton(text=text, halign="center")
            button.bind(on_release=lambda _b, action=action: action())
            made.append(button)
        widest = max(_widest_word(b) for b in made) + dp(24)
        from kivy.core.window import Window

        width = Window.width - dp(20)  # a page spans the window (a new one is not laid out yet)
        cols = max(1, int((width + dp(4)) // (widest + dp(4))))
        if cols >= len(made):
            row: Widget = ButtonRow()  # one line, as wide as the page
        else:
            row = GridLayout(cols=cols, spacing=dp(4), size_hint_y=None)
            row.bind(minimum_height=row.setter("height"))
        for button in made:
            row.add_widget(button)
        self.ids.content.add_widget(row)


def _widest_word(button: Widget) -> float:
    from kivy.core.text import Label as CoreLabel

    measure = CoreLabel(font_size=button.font_size, font_name=button.font_name, bold=button.bold)
    return float(max(measure.get_extents(word)[0] for word in button.text.split() or [""]))
