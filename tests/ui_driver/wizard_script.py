"""`wizard DIR`: the setup wizard as a group meets it, in every language: five players (Add
player disabled, saying why), three heroes, a room tapped on the board (zoomed, its tile and
platform in words), every hero's ladder chosen by touch (drawn in the hero's colour), the stacks
as check boxes, and the Settings' language list; each state a screenshot with the layout checks,
and what the screen showed in the report."""

from __future__ import annotations

from typing import Any

from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.app.words import i18n
from companion.app.words.table_texts import site_label
from tests.ui_driver.checks import walk
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import find_button, step_to, tap, tap_at
from ui.board.layout import Box
from ui.widgets.check_row import CheckRow

ROOM = "NW"  # the room tapped on the board (its platform has the Strigoi mark)


def setup_wizard(driver: Driver, directory: Any, runs: list[str] | None = None) -> None:
    """The wizard walked once per run: a language, "-large" at large text ("de-large");
    default every language at normal text, then at large text."""
    app = driver.app

    def screen() -> Any:  # built once the app runs
        return app.manager.get_screen("setup")

    def shoot(name: str) -> None:
        key = f"{name}-{_key(app)}"
        driver.shoot(key)
        texts = [w.text for w in walk(app.root) if isinstance(w, Label) and w.text]
        driver.report["screens"][key]["texts"] = texts

    every = [*i18n.LANGUAGES, *(f"{x}-large" for x in i18n.LANGUAGES)]
    for run in runs or every:
        lang, large = run.removesuffix("-large"), run.endswith("-large")
        driver.then(lambda lang=lang: driver.language(lang))
        driver.then(lambda large=large: _text_size(app, large))
        driver.then(app.open_setup)
        for _ in range(5):  # up to five players: the sixth Add player is disabled
            driver.then(lambda: _add(screen()))
        driver.then(lambda: _note(driver, "add_disabled", _add_button(screen()).disabled))
        driver.then(lambda: _note(driver, "players_hint", screen().hint_text))  # why, in sight
        driver.then(lambda: shoot("wizard-players-full"))
        for _ in range(2):  # back to three heroes
            driver.then(lambda: tap(find_button(screen(), i18n.tr("Remove"))))
        driver.then(lambda: driver.press("Next"))
        driver.then(lambda: _note_board(driver, "layout"))
        driver.then(lambda: shoot("wizard-layout"))
        driver.then(lambda: _tap_room(driver))
        driver.then(lambda: _note(driver, "zoomed", screen().view.zoom_room))
        driver.then(lambda: _note(driver, "space_px", screen().view.space_px()))
        driver.then(lambda: _note(driver, "room_buttons_hidden", _hidden_buttons(screen())))
        driver.then(lambda: shoot("wizard-room"))
        driver.then(lambda: tap(find_button(screen(), i18n.tr("Turn platform"))))
        driver.then(lambda: shoot("wizard-room-turned"))
        driver.then(lambda: driver.press("Next"))
        driver.then(lambda: _place_three(driver))
        driver.then(lambda: _note(driver, "ladders", dict(screen().view.ladder_owners)))
        driver.then(lambda: _note_board(driver, "ladders"))
        driver.then(lambda: shoot("wizard-ladders"))
        driver.then(lambda: driver.press("Next"))
        driver.then(lambda: tap(next(w for w in walk(screen()) if isinstance(w, CheckRow))))
        driver.then(lambda: _note(driver, "physical", sorted(screen().plan.physical)))
        driver.then(lambda: shoot("wizard-stacks"))
        driver.then(app.open_settings)
        driver.then(lambda: _note(driver, "languages", _checks(app.manager.get_screen("settings"))))
        driver.then(lambda: shoot("wizard-settings"))
    driver.then(lambda: driver.language("en"))
    driver.then(lambda: _text_size(app, False))


def _hidden_buttons(screen: Any) -> list[str]:
    """The page's buttons not wholly in sight in its list (issue 29: "Whole fortress" half
    under the list's edge at 800x480 with large French text)."""
    content = screen.ids.content
    view = content.parent  # the list's scrolled view
    low, high = view.to_window(view.x, view.y)[1], view.to_window(view.x, view.top)[1]
    hidden = []
    for button in walk(content):
        if isinstance(button, Button) and button.text:
            bottom = button.to_window(button.x, button.y)[1]
            top = button.to_window(button.x, button.top)[1]
            if bottom < low - 1 or top > high + 1:
                hidden.append(button.text)
    return hidden


def _add_button(screen: Any) -> Button:
    text = i18n.tr("Add player")
    return next(w for w in walk(screen) if isinstance(w, Button) and w.text == text)


def _add(screen: Any) -> None:
    if not _add_button(screen).disabled:
        tap(_add_button(screen))


def _checks(screen: Any) -> list[tuple[str, bool, bool, float]]:
    """The check rows shown: words, ticked, round, height."""
    return [(w.text, w.active, w.radio, w.height) for w in walk(screen) if isinstance(w, CheckRow)]


def _key(app: Any) -> str:
    """The language, "-large" with large text: how shots and facts are named."""
    return i18n.current_language() + ("-large" if app.text_scale > 1 else "")


def _text_size(app: Any, large: bool) -> None:
    step_to(app, 125 if large else 100)


def _note(driver: Driver, key: str, value: object) -> None:
    driver.report.setdefault("facts", {}).setdefault(_key(driver.app), {})[key] = value


def _note_board(driver: Driver, page: str) -> None:
    """The whole fortress as the page shows it: its spaces' width, each room's name as
    written on it, and whether every space, site and name lies inside the view."""
    view = driver.app.manager.get_screen("setup").view
    named = {item.name: item for item in view.drawn if isinstance(item, Box)}
    cells = view.shown_cells()
    inside = all(view.collide_point(*view.to_pixel(cell)) for cell in cells) and all(
        view.x <= box.x and box.right <= view.right and view.y <= box.y and box.top <= view.top
        for box in named.values()
    )
    value = {
        "space_px": view.space_px(),
        "names": {room: view.names.get(room, "") for room in named},
        "inside": inside,
        "board": [*view.to_window(*view.pos), *view.size],
        "strigoi_marks": len(view.strigoi_marks),
    }
    _note(driver, f"board_{page}", value)


def _tap_room(driver: Driver) -> None:
    """A finger on the room's centre on the whole fortress (a tap, no drag: it zooms in)."""
    view = driver.app.manager.get_screen("setup").view
    x, y = view.to_window(*view.to_pixel(view.fortress.centre(ROOM)))
    tap_at(x, y)


def _place_three(driver: Driver) -> None:
    """Each of the three heroes takes an allowed side, by touch on the list."""
    screen = driver.app.manager.get_screen("setup")
    if all(s.site is not None for s in screen.plan.seats):
        return
    allowed = [s for s in screen.plan.sites() if s.allowed]
    site = allowed[len(allowed) // 2]  # spread over the fortress, not all in one room
    driver.queue.insert(0, lambda: _place_three(driver))
    driver.press(site_label(site.room, site.side), translate=False)  # scrolled into sight
