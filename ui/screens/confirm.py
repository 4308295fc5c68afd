"""A question before something that cannot be taken back by a tap: a title, what is at stake in
a few lines, and the answers as large buttons (the first is the safe one)."""

from __future__ import annotations

from collections.abc import Callable

from ui.screens.page import PageScreen


class ConfirmScreen(PageScreen):
    def ask(
        self,
        title: str,
        lines: list[str],
        answers: list[tuple[str, Callable[[], None]]],
        back_to: str = "home",
    ) -> None:
        self.back_to = back_to
        self.clear(title)
        for line in lines:
            self.text(line)
        for text, action in answers:
            self.button(text, action)
