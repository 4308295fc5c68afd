"""The Why? panel mid-game (issue 29, item 1; the `why DIR [LANG] [large]` script of
tests/ui_driver/__main__.py): a game played by touch, and after each decision that has reasons,
Why? opened and every layout check run on it, then closed again. Each panel with a problem is
screenshot (`why-<n>`), and the first few without one too."""

from __future__ import annotations

import os
from typing import Any

from tests.ui_driver.driver import Driver


def why_session(driver: Driver, seed: int, lang: str, large: bool, decisions: int = 150) -> None:
    app = driver.app
    checked: list[dict[str, Any]] = driver.report.setdefault("why", [])

    def look() -> None:
        screen = app.round_screen()
        if screen.showing_why:
            return
        if screen.cards and screen.card_showing:
            screen.card_why()  # the card's own Why?
        elif screen.can_explain and not screen.cards:
            screen.toggle_why()
        else:
            return
        driver.queue.insert(0, shoot)

    def shoot() -> None:
        screen = app.round_screen()
        name = f"why-{len(checked)}"
        driver.shoot(name)
        entry = driver.report["screens"][name]
        problems = [p for check, found in entry.items() if check != "png" for p in found]
        rows = [w.text for w in reversed(screen.ids.options.children) if getattr(w, "text", "")]
        checked.append({"name": name, "problems": problems, "rows": rows})
        if not problems and len(checked) > 3 and "png" in entry:  # keep the telling ones
            os.remove(entry["png"])
            del entry["png"]
        screen.toggle_why()

    driver.then(lambda: driver.language(lang))
    driver.then(lambda: driver.text_size("large" if large else "normal"))
    driver.then(lambda: app.new_game(seed))
    for _ in range(decisions):
        driver.then(driver.play_one)
        driver.then(look)
