"""Scripted session for issue 40, item 6: a fight with Protection on the touchscreen
(`protection DIR [LANG ...]`), at large text.

The game is played through the app's own command path (the engine's legal commands, a seeded
choice) until the game asks a hero to block with Protection; that command's cards are on the
screen. For each language: the cards told again in it, the one that asks shown (screenshot
DIR/protection-ask-<lang>.png), the cards read by touch, the Protection choice shown
(protection-choose-<lang>.png), a source ticked and the block committed by touch, the banner
that confirms it (protection-blocked-<lang>.png); the next language in a new game of the same
seed, so no Redo button is left on the screen by an undo."""

from __future__ import annotations

import random
from typing import Any

from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.app.story.announcement import Announcement
from companion.engine.game.queries import protection_sources
from companion.engine.game.tasks import ProtectTask
from tests.ui_driver.checks import walk
from tests.ui_driver.driver import Driver
from tests.ui_driver.table_scripts import follow_the_game
from tests.ui_driver.touch import tap

#: the story items that may ask for Protection (R-LOS-2, R-ENC-2, R-CUR-1)
ASKING = ("strigoi_step", "fight", "curse")


def _asking(app: Any) -> bool:
    """The game waits for a hero to block, and that hero holds a source of Protection."""
    session = app.session
    task = session.state.tasks[0] if session.state.tasks else None
    if not isinstance(task, ProtectTask) or not task.protectable:
        return False
    return bool(protection_sources(session.rules, session.state.hero(task.hero)))


def _to_protection(app: Any, seed: int) -> None:
    """Commands by the app's own path (`execute`, as a tap runs them), a seeded choice among
    the legal ones, until the game asks for Protection."""
    rng = random.Random(seed)
    session = app.session
    for _ in range(3000):
        if _asking(app) or session.state.phase == "over":
            return
        app.execute(rng.choice(session.legal_commands()))
    raise AssertionError("no Protection asked in 3000 commands")


def protection(driver: Driver, seed: int, languages: list[str]) -> None:
    app = driver.app
    report = driver.report.setdefault("protection", {})
    held: dict[str, list[Announcement]] = {}

    def keep() -> None:
        screen = app.round_screen()
        assert _asking(app), "the game ended before it asked for Protection"
        held["items"] = list(screen.cards)
        report["kinds"] = [a.kind for a in held["items"]]
        task = app.session.state.tasks[0]
        report["hero"], report["wounds"] = task.hero, task.wounds

    def show(lang: str) -> None:
        """The command's cards told again in `lang`; those before the asking one read."""
        app.switch_language(lang)
        screen = app.round_screen()
        screen.command_done()
        for item in held["items"]:
            screen.announced(item, app.service.announcer.words(item))
        app._refresh()  # the options of the state, as after the command itself
        while screen.cards and not (
            screen.cards[0].kind in ASKING and screen.cards[0].facts.get("asked")
        ):
            screen.card_done()

    def look_at_card(lang: str) -> None:
        screen = app.round_screen()
        card = screen.card
        report[lang] = {
            "hero": report["hero"],
            "ask": {
                "kind": screen.cards[0].kind,
                "headline": card.headline,
                "figures": [f.value for f in card.figures],
                "todo": [w.text for w in reversed(screen.ids.card_todo.children) if w.text],
                "banner": screen.banner_text,
            },
        }
        driver.shoot(f"protection-ask-{lang}")

    def read_cards() -> None:
        screen = app.round_screen()
        if screen.cards:
            tap(screen.ids.card_done)
            driver.queue.insert(0, read_cards)

    def texts() -> list[str]:
        screen = app.round_screen()
        return [w.text for w in walk(screen) if isinstance(w, Label) and w.text]

    def sources() -> list[Button]:
        return [b for b in driver.option_buttons() if b.text.startswith("[  ] ")]

    def look_at_choice(lang: str) -> None:
        report[lang]["choose"] = [b.text for b in driver.option_buttons()]
        report[lang]["choose_texts"] = texts()
        driver.shoot(f"protection-choose-{lang}")

    def ticked() -> bool:
        return any(b.text.startswith("[x] ") for b in driver.option_buttons())

    def tick(tries: int = 20) -> None:
        """A finger on the first source (scrolled into sight first), until it shows ticked."""
        if ticked():
            return
        assert tries > 0, [b.text for b in driver.option_buttons()]
        driver.touch_button(sources()[0])
        driver.queue.insert(0, lambda: tick(tries - 1))

    def commit(tries: int = 20) -> None:
        """A finger on the block button, until the game has taken it."""
        if app.session.state.event_count != at[0]:
            return
        assert tries > 0, [b.text for b in driver.option_buttons()]
        commits = [b for b in driver.option_buttons() if getattr(b, "commit", False)]
        report[lang_now[0]]["committed"] = commits[0].text
        driver.touch_button(commits[0])
        driver.queue.insert(0, lambda: commit(tries - 1))

    def blocked() -> bool:
        return any(a.kind == "protect" for a in app.announcements[told[0] :])

    def before_commit() -> None:
        at[0], told[0] = app.session.state.event_count, len(app.announcements)

    def look_at_block(lang: str) -> None:
        screen = app.round_screen()
        report[lang]["blocked"] = {
            "banner": screen.banner_text,
            "told": [a.kind for a in app.announcements],
            "waiting": app.session.waiting_text(),
        }
        driver.shoot(f"protection-blocked-{lang}")

    lang_now, at, told = [""], [0], [0]
    driver.then(lambda: driver.text_size("large"))
    for lang in languages:  # a new game each time: no Redo button left by an undo
        driver.then(lambda lang=lang: lang_now.__setitem__(0, lang))
        driver.then(lambda: app.new_game(seed))
        driver.then(lambda: _to_protection(app, seed))
        driver.then(lambda: follow_the_game(app))  # the figures where the game has them
        driver.then(lambda: driver.wait_until("the cards", lambda: bool(app.round_screen().cards)))
        driver.then(keep)
        driver.then(lambda lang=lang: show(lang))
        driver.then(lambda: driver.wait_until("the card", lambda: app.round_screen().card_showing))
        driver.then(lambda lang=lang: look_at_card(lang))
        driver.then(read_cards)
        driver.then(lambda: driver.wait_until("the sources", lambda: bool(sources())))
        driver.then(lambda lang=lang: look_at_choice(lang))
        driver.then(tick)
        driver.then(before_commit)
        driver.then(commit)
        driver.then(lambda: driver.wait_until("the block told", blocked))
        driver.then(lambda lang=lang: look_at_block(lang))
    driver.then(lambda: app.switch_language("en"))
    driver.then(lambda: driver.text_size("normal"))


__all__ = ["protection"]
