"""What the round screen may call (the App gives it, ARCHITECTURE.md: screens get what they may
call, never the App): the phones' feed and page, the text size, and the other screens it opens."""

from __future__ import annotations

from typing import Protocol

from ui.screens.round.phones import PhonesHost


class RoundHost(PhonesHost, Protocol):
    @property
    def text_scale(self) -> float: ...
    def open_log(self) -> None: ...
    def open_rules(self, rule: str | None = None) -> None: ...
    def open_table(self) -> None: ...
    def step_text_size(self) -> None: ...
    def show(self, name: str) -> None: ...


__all__ = ["RoundHost"]
