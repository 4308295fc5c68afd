"""The `update-news` script: the table starts after an update recorded its outcome
(`DATA/updates/last-update.json`, tests/product/test_update_news_ui.py): the page it opens on
is reported (its title, texts, the layout checks, a screenshot), OK pressed, and where that
led; then whether the outcome would be said again."""

from __future__ import annotations

from typing import Any

from tests.ui_driver.driver import Driver


def update_news_session(driver: Driver) -> None:
    app: Any = driver.app
    seen: dict[str, Any] = {}
    driver.report["news"] = seen

    def first_page() -> None:
        screen = app.manager.get_screen(app.manager.current)
        seen["screen"] = app.manager.current
        seen["title"] = str(getattr(screen, "title_text", ""))
        seen["texts"] = [str(w.text) for w in screen.ids.content.children[::-1]
                         if hasattr(w, "text")] if "content" in screen.ids else []  # fmt: skip

    driver.then(first_page)
    driver.then(lambda: driver.shoot("update-news"))
    driver.then(lambda: driver.press("OK"))
    driver.then(lambda: seen.__setitem__("after", app.manager.current))
    driver.then(lambda: seen.__setitem__("again", app.service.update_news() is not None))
    driver.then(driver.summary)
