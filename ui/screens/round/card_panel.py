"""The panel a Strigoi card or a hero's panel covers the round screen with."""

from __future__ import annotations

from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout


class CardPanel(BoxLayout):
    """The Strigoi card over the panel. It takes every touch that lands on it, so nothing under
    it is pressed; disabling the panel instead would redraw each of its labels in grey, a whole
    frame's work on the Pi at the moment the card should appear."""

    showing = BooleanProperty(False)

    def on_touch_down(self, touch: object) -> bool:
        if super().on_touch_down(touch):
            return True
        return self.showing and self.collide_point(*touch.pos)  # type: ignore[attr-defined]
