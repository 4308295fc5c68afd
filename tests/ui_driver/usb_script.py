"""The `usb LANG` script: Settings' and the Hardware screen's USB stick buttons by touch, the
stick a folder of the test's (`ARMATA_USB_ROOT`): back up, restore the backup, import a
transcript, save a report; each outcome waited for, its words reported, every layout check
run on each page (tests/product/test_usb_ui.py)."""

from __future__ import annotations

from typing import Any

from companion.app.words import i18n
from tests.ui_driver.driver import Driver


def usb_session(driver: Driver, language: str) -> None:
    app: Any = driver.app
    said: dict[str, str] = {}
    driver.report["usb"] = said

    def settings() -> Any:
        return app.manager.get_screen("settings")

    def status() -> str:
        screen = settings()
        return "" if screen._status is None else str(screen._status.text)

    def outcome(name: str) -> None:
        driver.then(lambda: driver.wait_until(f"{name}'s outcome", lambda: not app.service.usb_busy
                                              and not status().endswith("..."), 600))  # fmt: skip
        driver.then(lambda: said.__setitem__(name, status()))
        driver.then(lambda: driver.shoot(f"usb-{name}-{language}"))

    driver.then(lambda: driver.language(language))
    driver.then(lambda: app.new_game(app.fixed_seed))
    for _ in range(4):
        driver.then(driver.play_one)
    driver.then(lambda: app.show("home"))
    driver.then(lambda: driver.press("Settings"))
    driver.then(lambda: driver.press("Back up to a USB stick"))
    outcome("backup")
    driver.then(lambda: driver.press("Restore from a USB stick"))
    driver.then(lambda: driver.shoot(f"usb-restore-list-{language}"))

    def first_backup() -> None:
        [choice, *_] = app.service.usb_backups()
        driver.press(choice.name, translate=False)

    driver.then(first_backup)
    outcome("restore")
    driver.then(lambda: driver.press("Back"))
    driver.then(lambda: driver.press("Import a game from a USB stick"))
    driver.then(lambda: driver.press("curse.json", translate=False))
    outcome("import")
    driver.then(lambda: driver.press("Back"))
    driver.then(lambda: driver.press("Back"))
    driver.then(lambda: driver.press("Hardware"))
    driver.then(lambda: driver.press("Save a report to a USB stick"))

    def reported() -> bool:
        text = str(app.manager.get_screen("hardware").report_text)
        return bool(text) and not text.endswith("...")

    driver.then(lambda: driver.wait_until("the report", reported, 900))
    driver.then(lambda: said.__setitem__("report", app.manager.get_screen("hardware").report_text))
    driver.then(lambda: driver.shoot(f"usb-report-{language}"))
    driver.then(lambda: said.__setitem__("language", i18n.current_language()))
    driver.then(driver.summary)
