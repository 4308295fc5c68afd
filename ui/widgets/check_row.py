"""A row with a drawn check box (or a round one for one-of choices) and its words: the whole row
is the touch target, at least 48 px high, so a finger need not find the box itself."""

from __future__ import annotations

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme


class TickBox(Widget):
    """The drawn box itself (not Kivy's CheckBox: the row, not the box, takes the touch)."""

    active_tick = BooleanProperty(False)


Builder.load_string(
    """
#:import theme ui.theme

<CheckRow>:
    size_hint_y: None
    height: max(dp(48), words.texture_size[1] + dp(12))
    spacing: dp(10)
    padding: dp(8), 0
    canvas.before:
        Color:
            rgba: theme.PANEL
        Rectangle:
            pos: self.pos
            size: self.size
    TickBox:
        active_tick: root.active and not root.radio
        size_hint_x: None
        width: dp(30)
        canvas:
            Color:
                rgba: theme.TEXT if not root.radio else (0, 0, 0, 0)
            Line:
                width: dp(1.5)
                rectangle: self.center_x - dp(13), self.center_y - dp(13), dp(26), dp(26)
            Color:
                rgba: theme.TEXT if root.radio else (0, 0, 0, 0)
            Line:
                width: dp(1.5)
                circle: self.center_x, self.center_y, dp(13)
            Color:
                rgba: theme.ACCENT if root.active else (0, 0, 0, 0)
            Rectangle:
                pos: self.center_x - dp(10), self.center_y - dp(10)
                size: (dp(20), dp(20)) if not root.radio else (0, 0)
            Ellipse:
                pos: self.center_x - dp(8), self.center_y - dp(8)
                size: (dp(16), dp(16)) if root.radio else (0, 0)
            Color:
                rgba: root.tick_colour(self.active_tick)
            Line:
                width: dp(2)
                points: root.tick(self.center)
    Label:
        id: words
        text: root.text
        font_size: sp(16) * app.text_scale
        color: theme.TEXT
        text_size: self.width, None
        halign: 'left'
        valign: 'middle'
"""
)


class CheckRow(ButtonBehavior, BoxLayout):
    """`active`: ticked (or chosen, when `radio`); bind `on_release` to change it."""

    text = StringProperty("")
    active = BooleanProperty(False)
    radio = BooleanProperty(False)  # one of several (a language): a round box with a dot

    @staticmethod
    def tick(centre: tuple[float, float]) -> list[float]:
        x, y = centre
        return [x - dp(6), y, x - dp(1), y - dp(5), x + dp(7), y + dp(6)]

    @staticmethod
    def tick_colour(shown: bool) -> tuple[float, float, float, float]:
        return theme.ink_on(theme.ACCENT) if shown else (0.0, 0.0, 0.0, 0.0)
