"""Home: the fortress as the board shows it now, new game, resume, history, hardware, language."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from ui.board.view import FortressView

#: a tick in a font that has it (Kivy's Roboto has none)
TICK = "[font=DejaVuSans]\u2713[/font]"


class LanguageButton(Button):
    """One language of Home's row (`code`: "de"); the one shown is marked (home.kv)."""

    code = StringProperty("")
    chosen = BooleanProperty(False)  # the table's language now

    def on_code(self, *_: object) -> None:
        self._words()

    def on_chosen(self, *_: object) -> None:
        self._words()

    def _words(self) -> None:
        """The code; the chosen one ticked, bold and underlined: not marked by colour alone."""
        code = self.code.upper()
        self.text = f"{TICK} [b][u]{code}[/u][/b]" if self.chosen else code


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class HomeScreen(Screen):
    def attach_board(self, view: FortressView) -> None:
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)
