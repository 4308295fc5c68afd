"""The whole fortress as a group sees it across the table (issue 29, item 3; the `board DIR`
script of tests/ui_driver/__main__.py): five heroes crowded on neighbouring spaces of one room,
right under its name, shot in every language at normal and large text; then turns played by
touch, noting after each which room the board shows and whose turn it is (the board follows the
hero the game waits for), undo and redo included."""

from __future__ import annotations

import random
from typing import Any

from companion.app.session.setup_plan import SetupPlan
from companion.app.words import i18n
from companion.engine.game import commands as c
from tests.support.table import CROWD, CROWD_HEROES
from tests.ui_driver.driver import Driver
from tests.ui_driver.table_scripts import follow_the_game
from tests.ui_driver.touch import step_to


def _text_size(app: Any, size: str) -> None:
    step_to(app, 125 if size == "large" else 100)


def _waiting(app: Any) -> tuple[str | None, str | None]:
    """The task's kind and the hero it waits for."""
    task = app.session.waiting_for
    return (None, None) if task is None else (str(task.kind), task.hero)


def board_session(driver: Driver, seed: int, runs: list[str] | None = None) -> None:
    """The crowded fortress shot in each run: a language at normal text ("de") or at large
    ("de-large"); none given: every language at both."""
    app = driver.app
    rng = random.Random(seed)

    def start() -> None:
        plan = SetupPlan.from_fortress(app.fortress, list(CROWD_HEROES))
        for index in range(len(plan.seats)):
            site = next(s for s in plan.sites() if s.allowed)
            plan.place_ladder(index, site.room, site.side)
        app.new_game(seed, plan=plan)

    def to_a_move() -> None:
        """Commands at engine speed (as a tapped option sends them) until a hero must move."""
        for _ in range(200):
            if _waiting(app)[0] == "move":
                break
            app.execute(rng.choice(app.session.legal_commands()))
        assert _waiting(app)[0] == "move", _waiting(app)
        for hero, cell in CROWD.items():  # a correction each: the figures where the table has them
            app.execute(c.SetHeroPosition(hero=hero, to=cell))
        follow_the_game(app)

    def whole() -> None:
        screen = app.round_screen()
        if screen.card_showing:
            screen.card_done()
        app.game_view.zoom_to(None)

    def zoomed(name: str) -> None:
        """The zoomed room's shot, with the size its name is drawn at (a heading)."""
        driver.shoot(name)
        view = app.game_view
        driver.report["screens"][name]["heading_px"] = view.heading_px()
        driver.report["screens"][name]["books"] = view.books_drawn

    def crowded_books() -> None:
        driver.report.setdefault("books", []).append(app.game_view.books_drawn)

    driver.then(start)
    driver.then(to_a_move)
    every = [f"{lang}{s}" for lang in i18n.LANGUAGES for s in ("", "-large")]
    for run in runs or every:
        lang, large = run.removesuffix("-large"), run.endswith("-large")
        suffix = "-large" if large else ""
        driver.then(lambda lang=lang: driver.language(lang))
        driver.then(lambda large=large: _text_size(app, "large" if large else "normal"))
        driver.then(whole)
        driver.then(crowded_books)
        driver.then(lambda lang=lang, s=suffix: driver.shoot(f"board-crowded-{lang}{s}"))
        driver.then(lambda: app.game_view.zoom_to("NW"))  # the crowded room, tapped
        driver.then(lambda lang=lang, s=suffix: zoomed(f"board-zoomed-{lang}{s}"))
    driver.then(lambda: _text_size(app, "normal"))
    driver.then(lambda: driver.language("en"))
    follows(driver)


def follows(driver: Driver, commands: int = 60) -> None:
    """Turns played by touch; each time a new state shows (no card over it) and the game waits
    for a hero, the room the board shows and the hero's room are noted (`follow`), once per
    state, before any touch; after undo and redo too (`after_undo`, `after_redo`). The first
    few are screenshot."""
    app = driver.app
    seen: list[dict[str, Any]] = driver.report.setdefault("follow", [])
    noted: set[tuple[int, int]] = set()

    def note(key: str | None = None) -> None:
        kind, hero = _waiting(app)
        screen = app.round_screen()
        state = (app.session.head, app.session.state.event_count)
        if hero is None or screen.cards or screen.choice.fix is not None:
            return
        if key is None and state in noted:
            return  # the players' own touches since (a zoom out to reach a space) are theirs
        noted.add(state)
        at = app.session.state.hero(hero).at
        room = None if at is None else app.game_view.room_near(at)
        cells = screen.choice.cells(app.session.rules.fortress, app.session.state)
        rooms = sorted({str(app.game_view.room_near(cell)) for cell in cells})
        entry = {
            "kind": kind,
            "hero": hero,
            "room": room,
            "rooms_to_choose": rooms,
            "shown": app.game_view.zoom_room,
            "todo_rooms": sorted({str(action.room) for action in screen.table.actions}),
        }
        if key is None:
            seen.append(entry)
            if len(seen) <= 3:
                driver.shoot(f"board-turn-{len(seen)}")
        else:
            driver.report[key] = entry

    def one() -> None:
        note()
        driver.play_one()

    for _ in range(commands):
        driver.then(one)
    undone: list[int] = []

    def undo_to_a_hero() -> None:
        """Undo until the game waits for a hero (the last command may have been the Strigoi's
        token, whose undone state waits for the token again): the board must show that hero."""
        while len(undone) < 6:
            app.undo()
            undone.append(1)
            if _waiting(app)[1] is not None:
                return

    def redo_all() -> None:
        for _ in undone:
            app.redo()

    driver.then(note)
    driver.then(undo_to_a_hero)
    driver.then(lambda: note("after_undo"))
    driver.then(redo_all)
    driver.then(lambda: note("after_redo"))
