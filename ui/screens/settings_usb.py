"""The table service's USB actions as the Settings page gets them (its `UsbActions`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.app.service import TableService, UsbAsk, UsbDone, UsbOutcome


class UsbForSettings:
    """The table service's USB actions as the Settings page gets them; a restore that worked
    also tells the app (`replaced`), whose screens follow the restored settings."""

    def __init__(self, service: TableService, replaced: Callable[[], None]) -> None:
        self.service = service
        self.replaced = replaced
        self.usb_backups = service.usb_backups
        self.usb_importable = service.usb_importable
        self.usb_releases = service.usb_releases
        self.usb_backup = service.usb_backup
        self.usb_import = service.usb_import
        self.usb_update = service.usb_update

    @property
    def usb_busy(self) -> bool:
        return self.service.usb_busy

    def usb_restore(self, backup: Path, done: UsbDone, ask: UsbAsk | None = None) -> None:
        def restored(outcome: UsbOutcome) -> None:
            if outcome.ok:
                self.replaced()
            done(outcome)

        self.service.usb_restore(backup, restored, ask)
