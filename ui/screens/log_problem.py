"""The screen the app shows instead of the table when its game log cannot be played on
(damaged, newer, cannot be opened, read-only): what is wrong and the choices —
keep it aside and start a fresh log, export what can be read, quit (read-only: go on without
playing, or quit). A small app of its own that runs before the table's (ui/__main__.py), so
the table never opens a log it must not write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.app.log_problem import (
    LogProblem,
    export_what_can_be_read,
    go_back_to_the_backup,
    keep_aside_and_start_fresh,
)
from companion.app.words import i18n

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class LogProblemScreen(Screen):
    headline = StringProperty("")
    explanation = StringProperty("")
    file_line = StringProperty("")
    details = StringProperty("")
    result = StringProperty("")
    result_good = BooleanProperty(True)  # green for an export, red when nothing was read


class LogProblemApp(App):
    """Shows the problem; `choice` says how it ended: "fresh" (a fresh log: the table starts
    next), "restored" (a newer log kept aside, a backup back in its place: the table starts),
    "continue" (read-only: the table starts, nothing is played), "quit"."""

    lang = StringProperty("en")
    text_scale = NumericProperty(1.0)

    def __init__(
        self, problem: LogProblem, ready: Callable[[LogProblemApp], None] | None = None
    ) -> None:
        super().__init__()
        self.problem = problem
        self.choice = "quit"
        self.kept_as: Path | None = None
        self.exported: list[Path] = []
        self._ready = ready  # scripts drive the screen from here (tests/ui_driver)

    def tr(self, text: str, _lang: str = "") -> str:
        return i18n.tr(text)

    def build(self) -> Widget:
        self.title = "Armata Strigoi"
        problem = self.problem
        if problem.language in i18n.LANGUAGES:  # a read-only log's settings; else English
            i18n.set_language(problem.language)
            self.lang = problem.language
        screen = LogProblemScreen(name="log-problem")
        screen.headline = problem.headline
        screen.explanation = problem.explanation
        screen.file_line = i18n.tr("File: {file}").format(file=problem.path)
        if problem.kind != "read_only":
            screen.details = i18n.tr("Details: {reason}").format(reason=problem.reason)
        choices = screen.ids.choices
        if problem.backup is not None:
            screen.result = i18n.tr("Backup of {time}: {file}").format(
                time=problem.backup_made, file=problem.backup.name
            )
            self._button(
                choices, i18n.tr("Go back to the last backup this version can read"), self.restore
            )
        if problem.can_start_fresh:
            self._button(choices, i18n.tr("Keep it aside and start a fresh log"), self.fresh)
        if problem.can_export:
            self._button(choices, i18n.tr("Export what can be read"), self.export)
        if problem.kind == "read_only":
            self._button(choices, i18n.tr("View the games without playing"), self.go_on)
        self._button(choices, i18n.tr("Quit"), self.quit)
        self.screen = screen
        if self._ready is not None:
            from kivy.clock import Clock

            Clock.schedule_once(lambda _dt: self._ready(self) if self._ready else None, 0.3)
        return screen

    def _button(self, box: Widget, text: str, action: Callable[[], None]) -> None:
        button = Factory.ProblemButton(text=text)
        button.bind(on_release=lambda _b: action())
        box.add_widget(button)

    def fresh(self) -> None:
        self.kept_as = keep_aside_and_start_fresh(self.problem)
        self.choice = "fresh"
        self.stop()

    def restore(self) -> None:
        self.kept_as = go_back_to_the_backup(self.problem)
        self.choice = "restored"
        self.stop()

    def export(self) -> None:
        self.exported = export_what_can_be_read(self.problem)
        if self.exported:
            words = (
                i18n.tr("The game was exported to {folder}")
                if len(self.exported) == 1
                else i18n.tr("The games were exported to {folder}")
            )
            self.screen.result = words.format(folder=self.exported[0].parent)
            self.screen.result_good = True
        else:
            self.screen.result = i18n.tr("Nothing could be read.")
            self.screen.result_good = False

    def go_on(self) -> None:
        self.choice = "continue"
        self.stop()

    def quit(self) -> None:
        self.choice = "quit"
        self.stop()
