"""The hero panel driven by touch (the `hero DIR` script of tests/ui_driver/__main__.py), in
every language: a wound chip tapped during the secret choice shows the hand only after "Only
Roel looks — show?" and Show; a card tile played by a touch; the other hands opened from their
options; the reveal's banner; a hero with rewards and wounds; a legal ability used from the
panel."""

from __future__ import annotations

import random
from typing import Any

from companion.app.story.hero_panel import ABILITY_COMMANDS
from companion.app.words import i18n
from companion.engine.game import commands as c
from firmware_bridge.sim_table import figure_uid
from tests.ui_driver.driver import Driver
from tests.ui_driver.table_scripts import follow_the_game
from tests.ui_driver.touch import reveal, tap

#: abilities sent as one command from the panel, offered before the others (Leap, Pack and
#: Mechanics are aimed after; Nighttime Rebel's draw comes last)
DIRECT = ABILITY_COMMANDS[:4]


def hero_session(driver: Driver, seed: int, languages: list[str] | None = None) -> None:
    for lang in languages or list(i18n.LANGUAGES):
        driver.then(lambda lang=lang: driver.language(lang))
        _one_language(driver, lang, seed)
    driver.then(lambda: driver.language("en"))


def _chip(driver: Driver, hero: str) -> Any:
    box = driver.app.round_screen().ids.wounds
    return next(w for w in box.children if w.hero == hero)


def _report(driver: Driver, lang: str) -> dict[str, Any]:
    return driver.report.setdefault("hero", {}).setdefault(lang, {})


def _one_language(driver: Driver, lang: str, seed: int) -> None:
    app = driver.app
    report = _report(driver, lang)

    def screen() -> Any:
        return app.round_screen()

    def note_panel(key: str) -> None:
        view = screen().hero_view
        report[key] = {
            "showing": view.showing,
            "hero": screen().hero_open[0] if screen().hero_open else None,
            "texts": [w.text for w in view.ids.body.children[::-1] if hasattr(w, "text")]
            + [t.text for g in view.ids.body.children if hasattr(g, "cols") for t in g.children],
            "buttons": [b.text for b in view.buttons()],
            "at_top": view.ids.scroll.scroll_y > 0.99,  # opened at its top, abilities first
        }

    def table_follows() -> tuple[Any, ...]:
        """The players set the table as the game says (it holds the panel's commands back)."""
        return (
            lambda: follow_the_game(app),
            lambda: driver.wait_until(
                "the table follows", lambda: not app.table_status.actions, frames=3000
            ),
        )

    driver.then(lambda: app.new_game(seed))
    driver.then(lambda: driver.steps(*table_follows()))  # a new game sets the table up
    driver.then(lambda: tap(_chip(driver, "roel")))  # a chip during the secret choice
    driver.then(lambda: note_panel("gate"))
    driver.then(lambda: driver.shoot(f"hero-gate-{lang}"))
    driver.then(lambda: driver.press(i18n.tr("Show"), translate=False))
    driver.then(lambda: note_panel("hand"))
    driver.then(lambda: driver.shoot(f"secret-hand-{lang}"))

    def play_a_tile() -> None:
        view = screen().hero_view
        tile = next(b for b in view.buttons() if getattr(b, "commit", False))
        report["tile_played"] = tile.text
        tap(tile)

    driver.then(play_a_tile)
    driver.then(
        lambda: report.update(
            roel_chosen=app.session.state.hero("roel").chosen,  # type: ignore[union-attr]
            panel_after=screen().hero_view.showing,
        )
    )

    def others_choose() -> None:
        """The next player opens their hand from the options and plays its first card."""
        state = app.session.state  # type: ignore[union-attr]
        if state.phase != "initiative":
            return
        view = screen().hero_view
        if view.showing:
            tap(next(b for b in view.buttons() if getattr(b, "commit", False)))
        else:
            driver.press_first_option()
        driver.queue.insert(0, others_choose)

    driver.then(others_choose)
    driver.then(lambda: report.update(reveal=screen().banner_text))
    driver.then(lambda: driver.shoot(f"reveal-{lang}"))

    rng = random.Random(seed)

    def rich(state: Any) -> str | None:
        for h in state.heroes:
            cards = [x for x in h.hand if app.catalog.reward_card(x)]
            if h.wounds and cards and h.reward_tokens:
                return str(h.hero)
        return None

    def play_until(done: Any, what: str, limit: int = 20_000) -> None:
        """Engine-speed play until `done(state, legal)`: random commands through the table
        service (the path every front end drives: the game log, the story, the rings, the
        phones' feed), then the touchscreen takes the game up as a restarted kiosk does, by
        resuming it. (Through the app, each command would be drawn: minutes per language.)"""
        service = app.service
        session = service.session
        assert session is not None
        played = 0
        for _ in range(limit):
            if done(session.state, session.legal_commands()):
                report.setdefault("searched", []).append(played)
                if played:
                    app.resume_game(session.game_id)
                return
            if session.state.phase == "over":
                app.new_game(rng.randrange(1 << 30))
                session = service.session
                assert session is not None
                continue
            outcome = service.execute(rng.choice(session.legal_commands()))
            assert outcome.refused is None, outcome.refused
            played += 1
        raise AssertionError(f"never reached: {what}")

    def rich_panel() -> None:
        play_until(lambda state, legal: rich(state) is not None, "rewards and wounds")
        hero = rich(app.session.state)  # type: ignore[union-attr]
        report["rich_hero"] = hero
        screen().close_choices()
        driver.steps(
            *table_follows(),
            lambda: screen().clear_announcements(),  # the cards of the last command read
            lambda: tap(_chip(driver, str(hero))),
            lambda: note_panel("rich"),
            lambda: driver.shoot(f"hero-panel-{lang}"),
            lambda: setattr(screen().hero_view.ids.scroll, "scroll_y", 0),  # its rewards, wounds
            lambda: driver.shoot(f"hero-panel-end-{lang}"),
            lambda: tap(screen().hero_view.ids.close),
        )

    driver.then(rich_panel)

    def ability_ready(state: Any, legal: list[c.Command]) -> bool:
        return state.active_hero is not None and any(
            isinstance(x, DIRECT) and x.hero == state.active_hero for x in legal
        )

    def use_ability() -> None:
        play_until(ability_ready, "a legal ability")
        session = app.session
        assert session is not None
        hero = session.state.active_hero
        report["ability_hero"] = hero
        report["events_before"] = session.state.event_count
        report["head_before"] = session.head
        driver.steps(
            *table_follows(),
            lambda: screen().clear_announcements(),
            lambda: tap(_chip(driver, str(hero))),
            lambda: note_panel("ability"),
            lambda: driver.shoot(f"hero-ability-{lang}"),
            press_ability,
            lambda: report.update(
                events_after=session.state.event_count,
                head_after=session.head,
                last_command=type(session.command_at(session.head)).__name__,
                panel_after_use=screen().hero_view.showing,
            ),
        )

    def press_ability() -> None:
        view = screen().hero_view
        labels = report["ability"]["buttons"]
        use = i18n.tr("Use now")
        report["used_label"] = labels[0]
        assert use in report["ability"]["texts"], report["ability"]
        button = view.buttons()[0]
        driver.steps(lambda: reveal(button), lambda: tap(button))  # scrolled to, as a finger

    driver.then(use_ability)

    def figure_on_the_reader() -> None:
        """A hero's figure put on the card reader opens that hero's panel, with Fix position."""
        board = app.board
        assert board is not None, "the simulated board is needed for NFC taps"
        hero = app.session.state.heroes[0].hero  # type: ignore[union-attr]
        uid = figure_uid(hero)
        reader = board.nodes["cards"]
        screen().close_hero()
        driver.steps(
            lambda: reader.place_tag(uid, 0),
            lambda: driver.wait_until(
                "the figure's panel", lambda: screen().hero_open is not None, frames=600
            ),
            lambda: report.update(figure_tapped=hero),
            lambda: note_panel("figure"),
            lambda: reader.remove_tag(0),
            lambda: screen().close_hero(),
        )

    driver.then(figure_on_the_reader)
