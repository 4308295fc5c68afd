"""What keeps the table from working as it should, beside the nodes: a voice that cannot speak
and background threads that ended with an error. One value, shown by the Hardware and Settings
screens and printed by the headless table."""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.devices.faults import ThreadFault
from companion.app.words import i18n


@dataclass(frozen=True)
class Troubles:
    voice: str | None = None  # why the voice cannot speak (None: it can, or it is off)
    thread_faults: int = 0
    last_fault: ThreadFault | None = None
    controls: str | None = None  # why the Pi's buttons do nothing (None: they work)

    def __bool__(self) -> bool:
        return self.voice is not None or self.thread_faults > 0 or self.controls is not None

    def lines(self) -> list[str]:
        """The troubles in the players' language (nothing when there are none)."""
        out = []
        if self.controls is not None:
            out.append(
                i18n.tr("The Pi's buttons do not work: {reason}").format(reason=self.controls)
            )
        if self.voice is not None:
            out.append(i18n.tr("The voice cannot speak: {reason}").format(reason=self.voice))
        if self.last_fault is not None:
            out.append(
                i18n.ngettext(
                    "{count} background task stopped with an error; the last: {error}",
                    "{count} background tasks stopped with an error; the last: {error}",
                    self.thread_faults,
                ).format(count=self.thread_faults, error=self.last_fault.error)
            )
        return out


__all__ = ["Troubles"]
