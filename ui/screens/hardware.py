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

    def show_health(self, view: HealthView, troubles: list[str] | None = None) -> None:
        """The nodes' health, after what keeps the table from working (the voice, failed
        background tasks) when there is any."""
        self.table_text = "\n".join([*(troubles or []), *view.lines()])
