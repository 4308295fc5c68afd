"""The `usb LANG` script: Settings' and the Hardware screen's USB stick buttons by touch, the
stick a folder of the test's (`ARMATA_USB_ROOT`): back up, play a second game, restore the
backup (asked first: answered "keep" once, then "restore"; the number of games on the table
reported at each step), import a transcript, save a report; each outcome waited for, its words
reported, every layout check run on each page (tests/product/test_usb_ui.py)."""

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
    driver.then(lambda: driver.press("Back"))
    driver.then(lambda: app.new_game(app.fixed_seed))  # a second game, not in the backup
    driver.then(driver.play_one)
    driver.then(lambda: app.show("home"))
    driver.then(lambda: driver.press("Settings"))
    driver.then(lambda: driver.press("Restore from a USB stick"))
    driver.then(lambda: driver.shoot(f"usb-restore-list-{language}"))
    games: dict[str, int] = {}
    driver.report["games"] = games

    def count(step: str) -> None:
        games[step] = len(app.service.log.games())

    def first_backup() -> None:
        [choice, *_] = app.service.usb_backups()
        driver.press(choice.name, translate=False)

    def asked() -> None:
        driver.wait_until("the question", lambda: settings()._answer is not None, 600)

    driver.then(lambda: count("before"))
    driver.then(first_backup)
    driver.then(asked)
    driver.then(lambda: count("asked"))
    driver.then(lambda: said.__setitem__("question", " ".join(
        w.text for w in settings().ids.content.children[::-1] if hasattr(w, "text"))))  # fmt: skip
    driver.then(lambda: driver.shoot(f"usb-restore-ask-{language}"))
    driver.then(lambda: driver.press("Keep the games as they are"))
    driver.then(lambda: count("kept"))
    driver.then(lambda: said.__setitem__("kept", status()))
    driver.then(first_backup)
    driver.then(asked)
    driver.then(lambda: driver.press("Restore the backup"))
    outcome("restore")
    driver.then(lambda: count("restored"))

    def restored_exports() -> None:  # the log's games just after the restore, as transcripts
        from tests.support.standins.pi_releases import exports

        driver.report["restored_exports"] = exports(app.service.log.path)

    driver.then(restored_exports)
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
