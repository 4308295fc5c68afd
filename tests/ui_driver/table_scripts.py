"""Scripted sessions for the table tracking, driven through the running app like a player at the
table: the Pi's buttons on gpiozero's mock pins, the simulated table (platforms turned edge by
edge over the rim readers), and the Resync screen by touch (the `buttons` and `resync` scripts of
tests/ui_driver/__main__.py). Each queues its steps on a `Driver`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from companion.app.table.differences import expected_from_game
from companion.app.table.tracking import Step
from firmware_bridge.board import room_node
from tests.support.processes import limit
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import tap, tap_at

ROOM = "NE"


def _sim(driver: Driver) -> Any:
    table = driver.app.hardware.table
    assert table is not None, "the simulated board is needed"
    return table


def _head(driver: Driver) -> int:
    session = driver.app.session
    return 0 if session is None else session.head


def _game_rotation(driver: Driver) -> int:
    session = driver.app.session
    assert session is not None
    return session.state.rotations[ROOM]


def follow_the_game(app: Any, timeout_s: float = 30.0) -> bool:
    """What players do when the app asks: set the simulated table as the game says (platforms
    turned edge by edge, figures moved), then wait until the readers confirm it (on a loaded
    machine that took more than 5 s: a platform bumped next was then taken for the table still
    being set). Blocking (a scripted player's hands); False without a simulated table."""
    table, session = app.hardware.table, app.session
    if table is None or session is None:
        return False
    expected = expected_from_game(session.rules, session.state)
    table.arrange(
        {room: (x.platform, x.rotation or 0) for room, x in expected.items() if x.cutout},
        {room: x.figure for room, x in expected.items()},
    )
    deadline = time.monotonic() + limit(timeout_s)
    while app.service.watch.status.actions and time.monotonic() < deadline:
        time.sleep(0.02)
    app.table_changed(app.service.watch.status)
    return True


def table_set_up(driver: Driver) -> None:
    """Queue: a new game, then wait until the readers confirm the table stands as it says."""
    app = driver.app
    driver.then(lambda: app.new_game(app.fixed_seed))
    driver.then(
        lambda: driver.wait_until(
            "the table set up",
            lambda: (
                app.session is not None
                and not app.table_status.actions
                and not app.table_status.alerts
                and bool(app.table_status.sensed)
            ),
            frames=3000,
        )
    )


def pi_buttons(driver: Driver) -> None:
    """Queue: Next, Confirm and Undo on the mock pins act on the game; the status LED is steady
    while every node answers and blinks while one is unplugged."""
    app = driver.app
    report = driver.report.setdefault("buttons", {})
    table_set_up(driver)
    driver.then(lambda: report.update(start_head=_head(driver), focused=[]))
    for _ in range(3):  # Next + Confirm: the first hero's question, Show, the first card
        driver.then(lambda: app.controls.press("next"))
        driver.then(lambda: driver.wait_until("next", lambda: app.pi_presses[-1:] == ["next"]))
        driver.then(lambda: report["focused"].append(app.round_screen().focused))
        driver.then(lambda: app.controls.press("confirm"))
        driver.then(
            lambda: driver.wait_until("confirm", lambda: app.pi_presses[-1:] == ["confirm"])
        )
    driver.then(
        lambda: driver.wait_until("the card played", lambda: _head(driver) > report["start_head"])
    )
    driver.then(lambda: report.update(after_confirm=_head(driver)))
    driver.then(lambda: app.controls.press("undo"))
    driver.then(lambda: driver.wait_until("undo", lambda: _head(driver) < report["after_confirm"]))
    driver.then(lambda: report.update(after_undo=_head(driver), presses=list(app.pi_presses)))
    driver.then(
        lambda: driver.wait_until("LED steady", lambda: app.controls.status == "ready", 3000)
    )
    driver.then(lambda: report.update(steady_lit=app.controls.led_lit()))
    board = app.board
    assert board is not None
    driver.then(lambda: board.wires[room_node(ROOM)].unplug())
    driver.then(
        lambda: driver.wait_until("LED blinking", lambda: app.controls.status == "busy", 3000)
    )
    driver.then(lambda: report.update(blinking=_blinks(app)))
    driver.then(lambda: board.wires[room_node(ROOM)].plug())
    driver.then(
        lambda: driver.wait_until("LED steady again", lambda: app.controls.status == "ready", 3000)
    )
    driver.then(lambda: report.update(status_after_plug=app.controls.status))
    silent = board.nodes[room_node(ROOM)]  # plugged in, but it stops answering (hung)
    driver.then(lambda: setattr(silent, "ignore_next", 10**9))
    driver.then(
        lambda: driver.wait_until(
            "LED blinks for a silent node", lambda: app.controls.status == "busy", 6000
        )
    )
    driver.then(lambda: report.update(silent_status=app.controls.status))
    driver.then(lambda: setattr(silent, "ignore_next", 0))
    driver.then(
        lambda: driver.wait_until("it answers again", lambda: app.controls.status == "ready", 6000)
    )
    driver.then(lambda: report.update(status_after_silence=app.controls.status))


def _blinks(app: Any) -> list[bool | None]:
    """The status LED sampled for a second: blinking shows both states."""
    seen = []
    for _ in range(20):
        seen.append(app.controls.led_lit())
        time.sleep(0.05)
    return seen


def resync_by_touch(driver: Driver) -> None:
    """Queue: a platform bumped by an elbow, answered on the Resync screen by touch, once "the
    table is right" (a correction in the log) and once "the app is right" (guided back)."""
    app = driver.app
    report = driver.report.setdefault("resync", {})
    table_set_up(driver)
    driver.then(lambda: report.update(start=_game_rotation(driver)))
    driver.then(lambda: _sim(driver).bump(ROOM))
    driver.then(lambda: driver.wait_until("the alert", lambda: bool(app.table_status.alerts), 3000))
    driver.then(lambda: report.update(alert_strip=app.round_screen().alert_text))
    driver.then(lambda: tap(app.round_screen().ids.alert))
    driver.then(lambda: report.update(screen=app.manager.current))
    driver.then(lambda: driver.press("The table is right"))
    driver.then(
        lambda: driver.wait_until(
            "the correction",
            lambda: not app.table_status.alerts and _game_rotation(driver) != report["start"],
            3000,
        )
    )
    driver.then(lambda: report.update(corrected=_game_rotation(driver), head=_head(driver)))
    driver.then(lambda: _sim(driver).bump(ROOM))
    driver.then(
        lambda: driver.wait_until("the second alert", lambda: bool(app.table_status.alerts), 3000)
    )
    driver.then(app.open_resync)
    driver.then(lambda: driver.press("The app is right"))
    driver.then(
        lambda: driver.wait_until(
            "guided back",
            lambda: [a.step for a in app.table_status.actions] == [Step.TURN],
            3000,
        )
    )
    driver.then(lambda: report.update(guide=[a.rotation for a in app.table_status.actions]))
    driver.then(lambda: _sim(driver).turn(ROOM, report["corrected"]))
    driver.then(
        lambda: driver.wait_until(
            "resolved",
            lambda: not app.table_status.actions and not app.table_status.alerts,
            3000,
        )
    )
    driver.then(lambda: report.update(final_head=_head(driver), commands=_commands(app)))


def _commands(app: Any) -> list[str]:
    session = app.session
    rows = session.log.db.query(
        "select payload from commands where game_id = ? order by seq", [session.game_id]
    )
    return [row["payload"] for row in rows]


def table_steps(driver: Driver) -> list[tuple[str, Callable[[], None]]]:
    """The screenshot walk's table segment (each screen and the touches that lead to it):
    the table panel, the round screen's alert and the Resync screen with a bumped platform,
    the table told what to put back; then the platform is turned back and the alert goes."""
    app = driver.app

    def table() -> None:
        app.show("round")
        driver.steps(lambda: follow_the_game(app), app.open_table)

    def alert() -> None:
        driver.steps(
            lambda: driver.press("Back"),
            lambda: _sim(driver).bump(ROOM),
            lambda: driver.wait_until("the alert", lambda: bool(app.table_status.alerts), 3000),
        )

    def guided() -> None:
        driver.steps(
            lambda: _note_when_told(driver),
            lambda: driver.press("The app is right"),
            lambda: _until_guided(driver),
            lambda: driver.press("Back"),
        )

    def back_and_over() -> None:  # the platform turned back (if the hands have not yet)
        driver.steps(
            lambda: _sim(driver).turn(ROOM, _game_rotation(driver)),
            lambda: driver.wait_until(
                "the table back",
                lambda: not app.table_status.actions and not app.table_status.alerts,
                3000,
            ),
            driver.finish_game,
        )

    return [
        ("table", table),
        ("round-alert", alert),
        ("resync", app.open_resync),
        ("round-table", guided),
        ("gameover", back_and_over),  # the game played to its end
    ]


def _note_the_board(driver: Driver) -> None:
    """Which room the board shows while the table must turn a platform, beside the rooms of
    what it must do (the play-test: the east room shown, the north-east to turn). Noted in the
    frame the table's to-do is seen: on the simulated board the hands put the platform back
    at once after "The app is right", and a loaded machine saw it done a frame later."""
    from companion.app.words import i18n

    lang = i18n.current_language()
    screen = driver.app.round_screen()
    seen: dict[str, object] = driver.report.setdefault("table_zoom", {})
    seen[lang] = {
        "shown": screen.view.zoom_room,
        "to_do": sorted({a.room for a in driver.app.table_status.actions}),
    }


def _until_guided(driver: Driver, frames: int = 0) -> None:
    """Wait until the table is told what to put back; the Resync list is rebuilt while the
    difference ages ("for 3 s"), and a touch that lands while it is rebuilt reaches no button:
    the player touches "The app is right" again (seen on a loaded machine). The board is noted
    as the to-do arrives (`_note_when_told`): the simulated hands may put the platform back
    before the next frame of a loaded machine."""
    from companion.app.words import i18n

    app = driver.app
    if i18n.current_language() in driver.report.get("table_zoom", {}):
        return
    if app.table_status.actions:
        _note_the_board(driver)
        return
    if frames > 3000:
        raise AssertionError("waited in vain for the table to be guided")
    if frames % 100 == 99 and app.manager.current == "resync" and app.table_status.alerts:
        driver.queue.insert(0, lambda: _until_guided(driver, frames + 1))
        driver.press("The app is right")
        return
    driver.queue.insert(0, lambda: _until_guided(driver, frames + 1))


def _note_when_told(driver: Driver) -> None:
    """Note the board in the call that tells the app the table's to-do, once the app has
    shown it (the round screen zooms there as it is told)."""
    app = driver.app
    told = app.table_changed

    def changed(status: Any) -> None:
        told(status)
        if status.actions and app.table_changed is changed:
            app.table_changed = told  # once
            _note_the_board(driver)

    app.table_changed = changed


def cards_and_fix(driver: Driver) -> None:
    """Queue: play (engine speed, through the app's own command path) until one command makes
    two announcements (a Strigoi step and the curse after it); read its cards one after the
    other by touch; then Fix moves a Strigoi to another platform centre by two taps."""
    import random

    from companion.app.words import i18n
    from companion.app.words.names import strigoi_subject

    app = driver.app
    report = driver.report.setdefault("cards", {})

    def until_two() -> None:
        session = app.session
        assert session is not None
        rng = random.Random(3)
        for _ in range(20_000):
            if session.state.phase == "over":
                app.new_game(rng.randrange(10**6))
                session = app.session
            before = len(app.announcements)
            spoken = len(app.speaker.said)
            app.execute(rng.choice(session.legal_commands()))
            told = app.announcements[before:]
            made = [a for a in told if not a.line]  # the items with a card (issue 40)
            if len(made) >= 2 and made[0].kind == "strigoi_step":
                report["made"] = [a.kind for a in made]
                report["words"] = [app.service.announcer.words(a) for a in told]
                report["spoken"] = [text for text, _ in app.speaker.said[spoken:]]
                return
        raise AssertionError("no command made two announcements")

    def read_card() -> None:
        screen = app.round_screen()
        report.setdefault("shown", []).append(screen.cards[0].kind if screen.card_showing else None)
        follow_the_game(app)
        tap(screen.ids.card_done)

    table_set_up(driver)
    driver.then(until_two)
    driver.then(lambda: report.update(cards=[a.kind for a in app.round_screen().cards]))
    driver.then(lambda: driver.shoot("cards-first"))

    def press_under_the_card() -> None:
        """A finger on the card's text: the card takes the touch, the panel under it (whose
        options lie there while a hero acts) never sees it."""
        screen = app.round_screen()
        reached: list[object] = []

        def record(_panel: object, touch: object) -> bool:
            reached.append(touch)
            return False

        panel = screen.ids.panel
        panel.bind(on_touch_down=record)
        body = screen.ids.card_headline
        tap_at(*body.to_window(*body.center))
        panel.unbind(on_touch_down=record)
        report["panel_reached"] = len(reached)
        report["still_showing"] = screen.card_showing

    driver.then(press_under_the_card)
    driver.then(read_card)
    driver.then(lambda: driver.shoot("cards-second"))
    driver.then(read_card)
    driver.then(lambda: report.update(left=len(app.round_screen().cards)))

    # Fix: the Master to another free platform centre, by two taps
    def fix_master() -> None:
        session = app.session
        assert session is not None
        name = "master" if "master" in session.state.strigoi else next(iter(session.state.strigoi))
        report["fixed"] = name
        report["room_before"] = session.state.strigoi[name]
        label = i18n.tr("Where {strigoi} stands").format(strigoi=strigoi_subject(name))
        driver.press(label, translate=False)

    def tap_a_centre() -> None:
        session = app.session
        assert session is not None
        fortress = session.rules.fortress
        taken = set(session.state.strigoi.values())
        heroes = {h.at for h in session.state.heroes}
        room = next(
            r
            for r in sorted(fortress.platforms)
            if r not in taken
            and r not in session.state.collapsed
            and fortress.centre(r) not in heroes
        )
        report["room_wanted"] = room
        view = app.game_view
        tap_at(*view.to_window(*view.to_pixel(fortress.centre(room))))

    driver.then(lambda: driver.press("Fix"))
    driver.then(fix_master)
    driver.then(tap_a_centre)  # the whole fortress: this tap zooms to the room
    driver.then(tap_a_centre)  # zoomed: this one chooses its centre
    driver.then(lambda: driver.shoot("fix-strigoi"))
    driver.then(lambda: driver.press("Fix it"))
    driver.then(
        lambda: report.update(
            room_after=app.session.state.strigoi[report["fixed"]],
            last_command=type(app.session.command_at(app.session.head)).__name__,
        )
    )


def nothing_stale(driver: Driver) -> None:
    """Issue 27, item 9: Redo brings its command's card back; New game over an unfinished game
    asks first and starts from the last group; Home after a finished game has no Resume, no
    rings and no figures of it."""
    app, report = driver.app, driver.report

    def round_screen() -> Any:
        return app.round_screen()

    driver.then(lambda: app.new_game(app.fixed_seed))
    driver.then(lambda: driver.play_until_announcement(80))
    driver.then(
        lambda: report.update(
            card_before=round_screen().card_title, cards=len(round_screen().cards)
        )
    )
    driver.then(lambda: driver.shoot("stale-card"))
    driver.then(app.undo)  # what the Undo button does
    driver.then(lambda: report.update(card_after_undo=round_screen().card_showing))
    driver.then(app.redo)
    driver.then(
        lambda: report.update(
            card_after_redo=round_screen().card_title if round_screen().card_showing else None,
            banner_after_redo=round_screen().banner_text,
        )
    )
    driver.then(lambda: driver.shoot("stale-redo"))
    # a new game over this unfinished one
    driver.then(lambda: app.show("home"))
    driver.then(lambda: driver.press("New game"))
    driver.then(lambda: report.update(asked=app.manager.current))
    driver.then(driver.page_texts)
    driver.then(lambda: driver.shoot("stale-ask"))
    driver.then(lambda: driver.press("Start a new game"))
    driver.then(
        lambda: report.update(
            wizard=app.manager.current,
            wizard_heroes=[s.hero for s in app.manager.get_screen("setup").plan.seats],
            wizard_sites=[s.site for s in app.manager.get_screen("setup").plan.seats],
            last_seats=[list(x) for x in app.service.log.game(app.session.game_id).seats],  # type: ignore[union-attr]
        )
    )
    # a finished game, then Home
    driver.then(lambda: app.show("round"))
    driver.then(driver.finish_game)
    driver.then(lambda: report.update(over_screen=app.manager.current))
    driver.then(lambda: app.on_pi_button("confirm"))  # Confirm on the game-over screen: Home
    driver.then(lambda: app.service.watch.wait_idle(limit(2.0)))
    driver.then(lambda: app.hardware.bridge.wait_acked(limit(2.0)))
    driver.then(lambda: app._poll_hardware())
    driver.then(
        lambda: report.update(
            home=app.manager.current,
            home_can_resume=app.can_resume,
            home_heroes=[h.hero for h in app.fortress_view.situation.heroes],
            home_strigoi=dict(app.fortress_view.situation.strigoi),
            home_rings={
                room: colour for room, colour in app.service.ring_colours().items() if colour
            },
        )
    )
    driver.then(lambda: driver.shoot("stale-home"))
