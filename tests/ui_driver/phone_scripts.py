"""`--script phones DIR`: the Phones view opened from Home and from Hardware, a hero's "my phone"
code shown, then revoked, by touch; each view saved as DIR/<name>-<lang>.png with the layout
checks, and the links it showed in the report."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from kivy.core.window import Window
from kivy.uix.button import Button

from companion.app.web.qr import phone_word
from companion.app.words import i18n
from companion.engine.explain import hero_name
from tests.support.processes import limit
from tests.support.standins.nmcli_standin import release
from tests.ui_driver.checks import (
    internal_ids,
    overflowing_labels,
    small_texts,
    small_touch_targets,
)
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import find_button, reveal, tap
from ui.screens.round.phones import PhonesView
from ui.widgets.check_row import CheckRow


def _view() -> PhonesView:
    views = [w for w in Window.children if isinstance(w, PhonesView)]
    assert views, "the Phones view is not open"
    return views[0]


def _opened(driver: Driver) -> None:
    """A step that waits for the Phones view a touch opened (a frame later on a busy machine)."""
    driver.wait_until(
        "the Phones view", lambda: any(isinstance(w, PhonesView) for w in Window.children)
    )


def _shoot(driver: Driver, name: str, out: Path) -> None:
    view = _view()
    path = out / f"{name}.png"
    view.export_to_png(str(path))
    entry: dict[str, Any] = {
        "png": str(path),
        "link": view.shown_link,
        "overflow": overflowing_labels(view),
        "small_targets": small_touch_targets(view),
        "small_texts": small_texts(view),
        "internal_ids": internal_ids(view),
    }
    driver.report["screens"][name] = entry


def _press(text: str) -> None:
    tap(find_button(_view(), text))


def phones(driver: Driver, out: Path, seed: int) -> None:
    app = driver.app

    def feed() -> Any:  # the table view opens in the frame after the first
        assert app.web_feed is not None, "started with --web off"
        return app.web_feed

    driver.then(lambda: driver.report.__setitem__("address", feed().address))
    for lang in i18n.LANGUAGES:
        driver.then(lambda lang=lang: driver.language(lang))
        driver.then(lambda: app.show("home"))
        driver.then(lambda lang=lang: driver.shoot(f"home-{lang}"))  # the new button fits
        driver.then(lambda: driver.press("Phones"))
        driver.then(lambda: _opened(driver))
        driver.then(lambda lang=lang: _shoot(driver, f"phones-{lang}", out))
        driver.then(lambda: _press(i18n.tr("Close")))
    driver.then(lambda: driver.language("en"))
    driver.then(lambda: app.new_game(seed))
    driver.then(lambda: app.show("hardware"))
    driver.then(lambda: driver.press("Phones"))
    driver.then(lambda: _opened(driver))
    driver.then(lambda: _shoot(driver, "phones-game", out))
    driver.then(lambda: _press(phone_word("seat").format(hero=hero_name("roel"))))
    driver.then(lambda: _shoot(driver, "phones-seat", out))
    driver.then(lambda: _press(phone_word("revoke")))
    driver.then(lambda: _shoot(driver, "phones-revoked", out))
    driver.then(
        lambda: driver.report.__setitem__(
            "tokens",
            {
                "active": {t: s.hero for t, s in feed().tokens.active().items()},
                "ended": feed().tokens.ended(),
            },
        )
    )
    driver.then(lambda: _press(i18n.tr("Back")))
    driver.then(lambda: _press(i18n.tr("Close")))
    # a phone makes Matthew's secret choice: the touchscreen's game and round screen follow
    driver.then(lambda: app.show("round"))
    driver.then(lambda: _phone_chooses(driver, "matthew"))
    driver.then(
        lambda: driver.wait_until(
            "the phone's choice", lambda: "phone_choice" in driver.report, frames=100
        )
    )
    driver.then(lambda: _after_the_phone(driver, "matthew"))
    my_phone(driver, out, "roel")
    if app.web_address is not None and app.web_address[0] == "0.0.0.0":
        wifi(driver, out)


def _row(app: Any, words: str) -> CheckRow:
    """The Settings screen's check row with these (English) words."""
    screen = app.manager.get_screen("settings")
    return next(w for w in screen.walk() if isinstance(w, CheckRow) and w.text == words)


def _places(view: PhonesView) -> dict[str, list[float]]:
    """Each button's place on the screen, by its words."""
    return {
        w.text: [round(v) for v in (*w.to_window(*w.pos), w.width, w.height)]
        for w in view.walk()
        if isinstance(w, Button)
    }


def wifi(driver: Driver, out: Path) -> None:
    """The table's own Wi-Fi by touch (an nmcli stand-in on PATH): opened from the Phones view,
    its join code beside the page's, the switch waiting greyed for nmcli and no button moving;
    then back to the known Wi-Fi; then "Never" in Settings."""
    app = driver.app
    seen: dict[str, Any] = driver.report.setdefault("wifi", {})

    def note(key: str) -> None:
        view = _view()
        entry = {
            "state": repr(app.service.wifi_state),
            "link": view.shown_link,
            "join": view.shown_join,
            "places": _places(view),
            "texts": [w.text for w in view.walk() if isinstance(getattr(w, "text", None), str)],
        }
        if view.join_code is not None:
            path = out / f"{key}-join-code.png"
            view.join_code.export_to_png(str(path))
            entry["join_png"] = str(path)
        if view.code is not None:
            path = out / f"{key}-code.png"
            view.code.export_to_png(str(path))
            entry["code_png"] = str(path)
        seen[key] = entry

    def held(words: str, key: str) -> None:
        """While nmcli holds the change (the stand-in waits for `release`), a laid-out frame
        later: the switch greyed, every button where it was."""
        note(key)
        view = _view()
        switch = next(w for w in view.walk() if isinstance(w, Button) and w.text == words)
        seen[key]["disabled"] = switch.disabled
        seen[key]["changing"] = view.changing
        release()

    driver.then(
        lambda: driver.wait_until(
            "the Wi-Fi and the Pi's name read",
            lambda: (
                app.service.wifi_state.kind != "no_manager"
                and bool(app.service.wifi_state.local_name)
            ),
        )
    )
    driver.then(lambda: app.show("home"))
    driver.then(lambda: driver.press("Phones"))
    driver.then(lambda: _opened(driver))
    driver.then(lambda: _shoot(driver, "wifi-off", out))
    driver.then(lambda: note("off"))
    driver.then(lambda: _press(phone_word("wifi_open")))
    driver.then(lambda: held(phone_word("wifi_open"), "opening"))
    driver.then(
        lambda: driver.wait_until(
            "the table's own Wi-Fi", lambda: app.service.wifi_state.hotspot, 600
        )
    )
    driver.then(
        lambda: driver.wait_until("the Phones view told", lambda: not _view().changing, 100)
    )
    driver.then(lambda: _shoot(driver, "wifi-on", out))
    driver.then(lambda: note("on"))
    driver.then(lambda: _press(phone_word("wifi_close")))
    driver.then(lambda: held(phone_word("wifi_close"), "closing"))
    driver.then(
        lambda: driver.wait_until(
            "the known Wi-Fi", lambda: not app.service.wifi_state.hotspot, 600
        )
    )
    driver.then(
        lambda: driver.wait_until("the Phones view told", lambda: not _view().changing, 100)
    )
    driver.then(lambda: _shoot(driver, "wifi-back", out))
    driver.then(lambda: note("back"))
    driver.then(lambda: _press(i18n.tr("Close")))
    driver.then(lambda: seen.__setitem__("setting_before", app.service.settings.get("hotspot")))
    driver.then(lambda: app.open_settings())
    driver.then(lambda: reveal(_row(app, "Only from the Phones screen")))
    driver.then(lambda: tap(_row(app, "Only from the Phones screen")))
    driver.then(lambda: driver.shoot("settings-wifi-never"))
    driver.then(lambda: seen.__setitem__("setting_after", app.service.settings.get("hotspot")))


def my_phone(driver: Driver, out: Path, hero: str) -> None:
    """ "My phone" on the hero's panel of the round screen, by touch: the seat's code (saved
    alone for a QR reader), a real Chromium page opens the link it shows and sees that hero's
    hand; "Revoke" on the touchscreen, and the page says the link ended."""
    app = driver.app
    seen: dict[str, Any] = driver.report.setdefault("my_phone", {})
    browser: dict[str, Any] = {}

    def chip() -> Any:
        return next(w for w in app.round_screen().ids.wounds.children if w.hero == hero)

    def code() -> None:
        view = _view()
        assert view.code is not None, "no code shown"
        path = out / "my-phone-code.png"
        view.code.export_to_png(str(path))
        seen["code_png"] = str(path)
        seen["hand"] = list(app.session.state.hero(hero).hand)
        seen["hand_titles"] = [app.service.catalog.card(x).title for x in seen["hand"]]

    driver.then(lambda: app.show("round"))
    driver.then(lambda: tap(chip()))
    driver.then(lambda: driver.shoot("hero-panel-my-phone"))
    driver.then(
        lambda: seen.__setitem__("panel", [b.text for b in app.round_screen().hero_view.buttons()])
    )
    driver.then(
        lambda: driver.press(phone_word("seat").format(hero=hero_name(hero)), translate=False)
    )
    driver.then(lambda: _opened(driver))
    driver.then(lambda: _shoot(driver, "my-phone", out))
    driver.then(code)
    driver.then(lambda: seen.__setitem__("link", _view().shown_link))
    driver.then(lambda: _open_in_chromium(browser, seen["link"]))
    driver.then(lambda: driver.wait_until("the seat page", lambda: "opened" in browser, 600))
    driver.then(lambda: seen.__setitem__("page", browser["opened"]))
    # while the phone follows the seat, the round screen says the choice is made there
    on_phone = i18n.tr("{hero} chooses on their phone (or here)").format(hero=hero_name(hero))
    driver.then(
        lambda: driver.wait_until(
            "the phone's seat on the round screen", lambda: on_phone in _options(driver), 600
        )
    )
    driver.then(lambda: seen.__setitem__("options_followed", _options(driver)))
    driver.then(lambda: _press(phone_word("revoke")))
    driver.then(lambda: _shoot(driver, "my-phone-revoked", out))
    driver.then(lambda: browser["revoked"].set())
    driver.then(lambda: driver.wait_until("the ended page", lambda: "ended" in browser, 600))
    driver.then(lambda: seen.__setitem__("ended_page", browser["ended"]))
    driver.then(
        lambda: driver.wait_until(
            "the seat back on the touchscreen", lambda: on_phone not in _options(driver), 600
        )
    )
    driver.then(lambda: seen.__setitem__("options_after", _options(driver)))
    driver.then(lambda: _press(i18n.tr("Close")))


def _options(driver: Driver) -> list[str]:
    return [b.text for b in driver.option_buttons()]


def _open_in_chromium(browser: dict[str, Any], link: str) -> None:
    """Headless Chromium on `link`, on its own thread (the Kivy thread serves the feed): what
    the page shows once live, then once the touchscreen revoked the link."""
    from tests.support.browser import chromium, page_state
    from tests.support.standins.hardware_helpers import wait_for

    browser["revoked"] = threading.Event()

    def run() -> None:
        page = chromium(360, 780)
        try:
            page.get(link)
            wait_for(lambda: page_state(page)["hands"] > 0, 30.0, "the seat's hand")
            browser["opened"] = page_state(page)
            browser["revoked"].wait(limit(60))
            wait_for(lambda: not page_state(page)["seatShown"], 30.0, "the seat closed")
            browser["ended"] = page_state(page)
        except Exception as error:  # reported: the test fails on it
            browser.setdefault("opened", {"error": repr(error)})
            browser.setdefault("ended", {"error": repr(error)})
        finally:
            page.quit()

    threading.Thread(target=run, daemon=True).start()


def _phone_chooses(driver: Driver, hero: str) -> None:
    """POST the choice from another thread, as a phone would (the Kivy thread must stay free:
    the choice runs on it)."""
    feed = driver.app.web_feed
    session = driver.app.session
    assert feed is not None and session is not None
    link = feed.seat_link(hero)
    assert link is not None
    card = session.state.hero(hero).hand[0]
    driver.report["phone_card"] = card
    url = link.replace("/seat/", "/api/seat/") + "/choose"

    def post() -> None:
        request = urllib.request.Request(
            url, data=json.dumps({"card": card}).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=limit(10)) as answer:
                driver.report["phone_choice"] = [answer.status, json.loads(answer.read())]
        except urllib.error.HTTPError as refused:
            driver.report["phone_choice"] = [refused.code, json.loads(refused.read())]

    threading.Thread(target=post, daemon=True).start()


def _after_the_phone(driver: Driver, hero: str) -> None:
    session = driver.app.session
    assert session is not None
    driver.report["after_phone"] = {
        "chosen": session.state.hero(hero).chosen,
        "last": repr(session.history()[-1].command),
        "options": [b.text for b in driver.option_buttons()],
        "hero_name": hero_name(hero),
    }
