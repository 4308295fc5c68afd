"""Hardware health: every node, last seen, round trip, errors; refused input."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.hardware import HealthView

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class HardwareScreen(Screen):
    table_text = StringProperty("")

    def show_health(self, view: HealthView) -> None:
        self.table_text = "\n".join(view.lines())
