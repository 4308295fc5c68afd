"""Hardware health: every node, last seen, round trip, errors; refused input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.devices.nodes import HealthView
from companion.app.service import UsbOutcome
from companion.app.words.i18n import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class HardwareScreen(Screen):
    table_text = StringProperty("")
    #: under the report's button: what it does, how it ended (the button never moves)
    report_text = StringProperty("")
    #: the table service's `usb_report` (None: no button's action yet)
    save_report: Callable[[Callable[[UsbOutcome], None]], None] | None = None

    def report_to_usb(self) -> None:
        """`python -m companion report`'s archive onto the USB stick."""
        if self.save_report is None:
            return
        self.report_text = tr("Saving the report to the USB stick...")
        self.save_report(self._reported)

    def _reported(self, outcome: UsbOutcome) -> None:
        self.report_text = outcome.text

    def show_health(
        self, view: HealthView, troubles: list[str] | None = None, notes: list[str] | None = None
    ) -> None:
        """The nodes' health, after what keeps the table from working (the voice, failed
        background tasks) when there is any, and before `notes` (the phones' server)."""
        lines = [*(troubles or []), *view.lines(), *(notes or [])]
        self.table_text = "\n".join(lines)
        box = self.ids.lines
        rows = list(reversed(box.children))
        if len(rows) != len(lines):  # a row each: a line wraps on its own, the list stays a list
            box.clear_widgets()
            rows = [Factory.HealthLine() for _ in lines]
            for row in rows:
                box.add_widget(row)
        for row, line in zip(rows, lines, strict=True):  # refreshed in place, as it is polled
            row.text = line
