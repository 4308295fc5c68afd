"""Scripted sessions for issue 40, items 3 and 8 (R-SET-3): the Strigoi placement of round 2 on
the touchscreen (`placement DIR [LANG ...]`) and a restarted embedded default that finds its
simulated table as the game left it (`resumed-table`).

`placement`: round 1 played by touch (the simulated hands follow each card), stopping when the
command that begins round 2 has told its story; its placement card shown in each language, the
rings settled, screenshot as DIR/placement-<lang>.png with the layout checks; then the cards
read by touch ("Strigoi placed": done by hand) and the table's to-dos reported.

`resumed-table`: Resume pressed on a table whose game is in round 2 or later; the driver waits
longer than a difference takes to become an alert, then reports what the screen, the watch and
the rings show."""

from __future__ import annotations

import time
from typing import Any

from kivy.uix.label import Label

from companion.app.devices.leds import ALERT_COLOUR
from companion.app.story.announcement import Announcement
from companion.app.table.tracking import ALERT_AFTER_S, Step
from companion.app.words import i18n
from tests.support.processes import limit
from tests.ui_driver.checks import walk
from tests.ui_driver.driver import Driver
from tests.ui_driver.story_scripts import rings_settled
from tests.ui_driver.touch import tap


def _placing(app: Any) -> bool:
    return any(a.kind == "strigoi_placed" for a in app.announcements)


def placement(driver: Driver, seed: int, languages: list[str]) -> None:
    app = driver.app
    report = driver.report.setdefault("placement", {})

    def story() -> list[Announcement]:
        """The story of the command that began round 2 (the service keeps this game's)."""
        told = list(app.announcements)
        at = next(i for i, a in enumerate(told) if a.kind == "strigoi_placed")
        start = at
        while start > 0 and told[start - 1].kind == "curse_skipped":
            start -= 1
        return told[start : at + 1]

    def show(lang: str) -> None:
        """The placement card, in `lang`, as the screen shows it after round 1's last card."""
        app.switch_language(lang)
        screen = app.round_screen()
        items = story()
        screen.command_done()
        for item in items:
            screen.announced(item, app.service.announcer.words(item))
        for _ in items[:-1]:
            screen.card_done()  # round 1's "no curse", read

    def shoot(lang: str) -> None:
        screen = app.round_screen()
        item = story()[-1]
        assert screen.card_showing and screen.cards[0] is item, lang
        session = app.session
        entered = dict(session.state.strigoi)
        report[lang] = {
            "title": screen.card.title,
            "headline": screen.card.headline,
            "todo": [w.text for w in reversed(screen.ids.card_todo.children) if w.text],
            "done": screen.ids.card_done.text,
            "banner_is_card": screen.banner_text == screen.card.words,
            "entered": entered,
            "rings": {room: app.service.ring_colours()[room] for room in entered.values()},
            "board_strigoi": {name: room for name, room in app.game_view.situation.strigoi.items()},
            "to_place": sorted(
                [a.room, a.figure] for a in app.table_status.actions if a.step == Step.PLACE_FIGURE
            ),
            "outlined": sorted(app.game_view.outlined),
        }
        driver.shoot(f"placement-{lang}")

    def read_by_touch() -> None:
        """The placement card's own button: the players say the figures stand there."""
        screen = app.round_screen()
        report["button"] = screen.ids.card_done.text
        tap(screen.ids.card_done)

    def after() -> None:
        report["after_touch"] = {
            "cards": len(app.round_screen().cards),
            "actions": [[a.room, a.step.value] for a in app.table_status.actions],
        }

    driver.then(lambda: app.new_game(seed))
    driver.then(lambda: driver.play_until(lambda: _placing(app), 600))
    steps: list[Any] = []
    for lang in languages:
        steps += [
            lambda lang=lang: show(lang),
            lambda: driver.wait_until("the rings", lambda: rings_settled(app), frames=600),
            lambda lang=lang: shoot(lang),
        ]
    for step in steps:
        driver.then(step)
    driver.then(lambda: app.switch_language("en"))
    driver.then(lambda: show("en"))
    driver.then(read_by_touch)
    driver.then(
        lambda: driver.wait_until(
            "the to-dos done by hand", lambda: not app.table_status.actions, frames=300
        )
    )
    driver.then(after)


def resumed_table(driver: Driver) -> None:
    app = driver.app
    report = driver.report.setdefault("resumed_table", {})
    waited: dict[str, float] = {}

    def resumed() -> None:
        waited["from"] = time.monotonic()

    def long_enough() -> bool:
        """Longer than a difference takes to become an alert, the watch idle since."""
        return time.monotonic() - waited["from"] > limit(ALERT_AFTER_S + 1.5) and bool(
            app.service.watch.wait_idle(0)
        )

    def look() -> None:
        screen = app.round_screen()
        session = app.session
        status = app.service.watch.status
        texts = [w.text for w in walk(app.root) if isinstance(w, Label) and w.text]
        report.update(
            {
                "round": session.state.round,
                "strigoi": dict(session.state.strigoi),
                "alert_text": screen.alert_text,
                "differs_shown": [t for t in texts if i18n.tr("Tap to resync.") in t],
                "alerts": [[d.room, d.kind.value] for d in status.alerts],
                "differences": [[d.room, d.kind.value] for d in status.differences],
                "actions": [[a.room, a.step.value] for a in status.actions],
                "told_alerts": sum(len(s.alerts) for s in told),
                "rings": app.service.ring_colours(),
                "board_rings": dict(app.game_view.leds),
                "amber": ALERT_COLOUR,
            }
        )

    told: list[Any] = []
    shown = app.table_changed

    def record(status: Any) -> None:
        told.append(status)
        shown(status)

    app.table_changed = record
    driver.then(lambda: driver.press("Resume game"))
    driver.then(resumed)
    driver.then(lambda: driver.wait_until("the alert time", long_enough, frames=400))
    driver.then(look)
    driver.then(driver.summary)
    driver.then(lambda: driver.shoot("resumed-table"))


__all__ = ["placement", "resumed_table"]
