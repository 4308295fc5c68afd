"""Home and the text size steps by touch (issue 40, item 7): the board Home draws for a saved
game (started before the app, with fewer ladders than the printed layout), the language marked
among Home's buttons, every step chosen in Settings and walked by More… > Text size, and the
round screen at 150 % in the languages given, with every layout check."""

from __future__ import annotations

from typing import Any

from companion.app.session.text_size import STEPS
from companion.app.words import i18n
from tests.ui_driver.checks import walk
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import in_sight, reveal, step_to, tap
from ui.widgets.check_row import CheckRow


def _language_buttons(app: Any) -> list[Any]:
    home = app.manager.get_screen("home")
    return [w for w in walk(home) if getattr(w, "code", "") in i18n.LANGUAGES]


def _note_home(driver: Driver, key: str) -> None:
    app = driver.app
    view = app.fortress_view
    driver.report.setdefault("home", {})[key] = {
        "ladders_drawn": sorted(view.ladders_drawn),
        "languages": {b.code: [b.text, list(b.background_color)] for b in _language_buttons(app)},
        "lang": i18n.current_language(),
    }


def _tap_language(app: Any, code: str) -> None:
    tap(next(b for b in _language_buttons(app) if b.code == code))


def _step_rows(app: Any) -> list[CheckRow]:
    settings = app.manager.get_screen("settings")
    wanted = {i18n.tr("{percent}%").format(percent=step) for step in STEPS}
    rows = [w for w in walk(settings) if isinstance(w, CheckRow) and w.text in wanted]
    return sorted(rows, key=lambda row: -row.to_window(*row.pos)[1])  # as seen, top first


def _tap_step_row(driver: Driver, index: int) -> None:
    """A finger on Settings' row of this step, scrolled into sight first."""
    row = _step_rows(driver.app)[index]
    if not in_sight(row):
        reveal(row)
        driver.queue.insert(0, lambda: _tap_step_row(driver, index))
        return
    tap(row)


def _note_settings(driver: Driver) -> None:
    rows = _step_rows(driver.app)
    driver.report.setdefault("settings", []).append(
        {"scale": driver.app.text_scale, "rows": [[r.text, r.active] for r in rows]}
    )


def _quick_label(app: Any) -> str:
    return i18n.tr("Text size: {percent}%").format(percent=round(app.text_scale * 100))


def home_and_text_steps(driver: Driver, languages: list[str]) -> None:
    app = driver.app
    driver.then(lambda: _note_home(driver, "started"))
    driver.then(lambda: driver.shoot("home-saved"))
    for code in ("de", "en"):  # by touch, as a player changes it
        driver.then(lambda code=code: _tap_language(app, code))
        driver.then(lambda code=code: _note_home(driver, code))
    driver.then(lambda: driver.press("Settings"))
    for index in [*range(1, len(STEPS)), 0]:
        driver.then(lambda index=index: _tap_step_row(driver, index))
        driver.then(lambda: _note_settings(driver))
    driver.then(lambda: driver.shoot("settings-steps"))
    driver.then(lambda: app.show("home"))
    driver.then(lambda: driver.press("Resume game"))
    quick: list[float] = driver.report.setdefault("quick", [])
    for _ in STEPS:  # More… > Text size: the next step each time, then the first again
        driver.then(lambda: app.round_screen().close_hero())
        driver.then(lambda: driver.press("More…"))
        driver.then(lambda: driver.press(_quick_label(app), translate=False))
        driver.then(lambda: quick.append(app.text_scale))
    for lang in languages:  # the round screen at 150 %, looked at
        driver.then(lambda lang=lang: driver.language(lang))
        driver.then(lambda: step_to(app, 150))
        driver.then(lambda lang=lang: driver.shoot(f"round-150-{lang}"))
    driver.then(lambda: step_to(app, 100))
