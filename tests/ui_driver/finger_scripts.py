"""Issue 40, item 5 by touch (the `finger DIR` script): nothing moves under a finger. On the
simulated board, with the touch guard's real hold (the other scripts tap as soon as two frames
are alike and turn it off):

* the places of the options, Undo and More… are noted at the start, while a bumped platform's
  "table differs" strip shows, after it closed, after a visit to the Rules and after commands;
* a finger aimed at the second "pick a card" row while the strip shows lands 150 ms after the
  strip closed: the hero it opens is the one that row named, and the hand stays closed;
* "Roel: pick a card" tapped, and a second tap 150 ms later where Show now is: the question
  "Only Roel looks — show?" stays, the hand closed, the second tap held back; a tap on Show
  once the panel stood still opens the hand; "My phone" stands in one place at each visit;
* Undo tapped while the service's thread has real work queued before it: while the work runs,
  the sign is on Undo (drawn: a frame was shown since the tap), Undo where it was; after, no
  sign. Screenshots DIR/finger-*.png."""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.button import Button

from companion.app.web.qr import phone_word
from companion.app.words import i18n
from companion.engine.explain import hero_name
from tests.ui_driver.driver import Driver
from tests.ui_driver.table_scripts import ROOM, table_set_up
from tests.ui_driver.touch import tap, tap_at
from ui.widgets.touch_guard import HOLD_S, MovedAreas, window_rect

#: how long after a change the scripted finger lands (well inside the guard's hold)
SOON_S = 0.15
#: the real work queued on the service's thread before the slow command
WORK_S = 0.3


def finger(driver: Driver) -> None:
    app = driver.app
    report: dict[str, Any] = driver.report.setdefault("finger", {})
    MovedAreas.hold_s = HOLD_S
    flips = [0]
    Window.bind(on_flip=lambda *_: flips.__setitem__(0, flips[0] + 1))

    def screen() -> Any:
        return app.round_screen()

    def rect(widget: Any) -> list[float]:
        return [round(v, 1) for v in window_rect(widget)]

    def more() -> Button:
        return next(b for b in screen().ids.tools.children if b.text == i18n.tr("More…"))

    def places(key: str) -> None:
        report.setdefault("places", {})[key] = {
            "more": rect(more()),
            "undo": rect(screen().ids.undo),
            "options": [[b.text, rect(b)] for b in driver.option_buttons()],
        }

    def hero_of(text: str) -> str | None:
        state = app.session.state  # type: ignore[union-attr]
        return next((h.hero for h in state.heroes if hero_name(h.hero) in text), None)

    def opened() -> list[Any] | None:
        shown = screen().hero_open
        return None if shown is None else [shown[0], shown[1]]

    table_set_up(driver)
    driver.then(lambda: places("start"))
    driver.then(lambda: simulated(driver).bump(ROOM))
    driver.then(lambda: driver.wait_until("the strip", lambda: bool(screen().alert_text), 3000))
    driver.then(lambda: places("strip"))
    driver.then(lambda: report.update(strip=rect(screen().ids.alert)))
    driver.then(lambda: driver.shoot("finger-strip"))

    def aim_then_close() -> None:
        """A finger aimed at the second row while the strip shows lands just after it closed."""
        row = driver.option_buttons()[1]
        x, y = row.to_window(*row.center)
        report["aimed"] = {"text": row.text, "hero": hero_of(row.text)}

        def closed(_screen: Any, text: str) -> None:
            if not text:
                screen().unbind(alert_text=closed)
                Clock.schedule_once(lambda _dt: landed(), SOON_S)

        def landed() -> None:
            tap_at(x, y)
            report["aimed"]["opened"] = opened()

        screen().bind(alert_text=closed)
        simulated(driver).bump(ROOM, -1)  # the platform turned back: the strip closes

    driver.then(aim_then_close)
    driver.then(lambda: driver.wait_until("the tap", lambda: "opened" in report["aimed"], 3000))
    driver.then(lambda: driver.wait_until("the panel still", screen().guard.areas.quiet))
    driver.then(lambda: tap(screen().hero_view.ids.close))
    driver.then(lambda: places("closed"))

    def phone() -> list[float] | None:
        mine = phone_word("seat").split("{")[0]
        found = [b for b in screen().hero_view.buttons() if b.text.startswith(mine)]
        return rect(found[0]) if found else None

    def double_tap() -> None:
        """Roel's row, then a second tap where Show has come, before the panel stood still."""
        row = next(b for b in driver.option_buttons() if hero_of(b.text) == "roel")
        seen = report["double"] = {"row": row.text, "ignored": screen().guard.areas.ignored}
        tap(row)

        def second(_dt: float) -> None:
            seen["first"] = opened()
            shows = [b for b in screen().hero_view.buttons() if getattr(b, "commit", False)]
            if not shows:  # the first tap opened nothing: say so in the report
                seen["after"] = None
                return
            show = shows[0]
            seen["show"] = show.text
            tap(show)
            seen["after"] = opened()
            seen["ignored"] = screen().guard.areas.ignored - seen["ignored"]

        Clock.schedule_once(second, SOON_S)

    driver.then(lambda: driver.wait_until("the screen still", screen().guard.areas.quiet))
    driver.then(double_tap)
    driver.then(lambda: driver.wait_until("the second tap", lambda: "after" in report["double"]))
    driver.then(lambda: report.update(gate_texts=_texts(screen().hero_view.ids.body)))
    driver.then(lambda: report.setdefault("phone", []).append(phone()))
    driver.then(lambda: driver.shoot("finger-gate"))
    driver.then(lambda: driver.wait_until("the panel still", screen().guard.areas.quiet))

    def show_hand() -> None:
        tap(next(b for b in screen().hero_view.buttons() if getattr(b, "commit", False)))
        report["shown"] = opened()

    driver.then(show_hand)
    driver.then(lambda: report["phone"].append(phone()))
    driver.then(lambda: driver.shoot("finger-hand"))
    driver.then(lambda: driver.wait_until("the hand still", screen().guard.areas.quiet))
    # a card played from the hand (a command): the round screen's list again
    driver.then(
        lambda: tap(next(b for b in screen().hero_view.buttons() if getattr(b, "commit", False)))
    )
    driver.then(lambda: places("chosen"))
    driver.then(lambda: app.open_rules())
    driver.then(lambda: app.show("round"))
    driver.then(lambda: places("back from the rules"))
    driver.then(lambda: driver.wait_until("the screen still", screen().guard.areas.quiet))
    driver.then(lambda: tap(next(w for w in screen().ids.wounds.children if w.hero == "roel")))
    driver.then(lambda: report.update(chip=opened()))
    driver.then(lambda: report["phone"].append(phone()))
    driver.then(lambda: driver.wait_until("the panel still", screen().guard.areas.quiet))
    driver.then(lambda: tap(screen().hero_view.ids.close))
    driver.then(lambda: driver.wait_until("the screen still", screen().guard.areas.quiet))

    def slow_undo() -> None:
        """Undo, with real work on the service's thread queued before it (the game's legal
        commands worked out again and again, as each refresh does, for WORK_S)."""
        undo = screen().ids.undo
        session = app.session
        assert session is not None
        seen = report["busy"] = {"undo": undo.text, "before": rect(undo), "head": session.head}
        tapped = flips[0]
        started = time.monotonic()

        def watch() -> dict[str, Any]:
            sign = screen().working.sign
            return {
                "sign_on_undo": sign is not None and sign.widget is undo,
                "frames_since_tap": flips[0] - tapped,
                "rect": rect(undo),
            }

        def work(_dt: float) -> None:
            begun, reads = time.monotonic(), 0
            while time.monotonic() - begun < WORK_S:
                session.legal_commands()
                reads += 1
            seen["during_work"] = {**watch(), "reads": reads}
            driver.shoot("finger-busy")  # the screen as it stands while the work runs

        rewind = app.service.rewind

        def observed(head: int) -> Any:  # the command as it runs (observed, then run)
            seen["during_command"] = watch()
            return rewind(head)

        app.service.rewind = observed  # type: ignore[method-assign]
        Clock.schedule_once(work, 0)  # queued before the tap's command
        tap(undo)
        seen["at_tap"] = watch()

        def after() -> None:
            app.service.rewind = rewind  # type: ignore[method-assign]
            seen["after"] = {**watch(), "head": session.head}
            seen["took_s"] = round(time.monotonic() - started, 3)

        driver.queue.insert(0, after)

    driver.then(slow_undo)
    driver.then(lambda: places("end"))
    driver.then(lambda: driver.shoot("finger-end"))


def simulated(driver: Driver) -> Any:
    """The simulated board's table (the embedded default's)."""
    table = driver.app.hardware.table
    assert table is not None, "the simulated board is needed"
    return table


def _texts(box: Any) -> list[str]:
    out = []
    for widget in reversed(box.children):
        if getattr(widget, "text", ""):
            out.append(widget.text)
        out += [w.text for w in reversed(widget.children) if getattr(w, "text", "")]
    return out


__all__ = ["finger"]
