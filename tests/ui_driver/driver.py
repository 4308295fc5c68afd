"""Scripted sessions for tests and screenshots, driven through real (simulated) touches on the
running app: `python -m tests.ui_driver --script shots|play|resume ...` (see __main__)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.uix.button import Button

from companion.app.session.text_size import percent
from companion.app.table.taps import rim_target
from companion.app.words import i18n
from companion.app.words.table_texts import site_label
from firmware_bridge import protocol as p
from firmware_bridge.sim_table import rim_uid
from tests.support.processes import limit
from tests.support.sweeps import SEGMENTS
from tests.ui_driver.checks import (
    board_overlaps,
    broken_words,
    cramped_lists,
    cut_rows,
    cut_texts,
    internal_ids,
    outside_their_box,
    overflowing_labels,
    small_texts,
    small_touch_targets,
    walk,
)
from tests.ui_driver.touch import find_button, in_sight, reveal, sight, step_to, tap, tap_at
from ui.app import ArmataApp

#: a waiting step's time budget per step it allows (scaled like every limit of the tests)
STEP_BUDGET_S = 0.1
MAX_STEPS = 20_000  # a script loops somewhere: fail with where, instead of hanging


class Driver:
    def __init__(self, app: ArmataApp, out: Path | None) -> None:
        self.app = app
        self.out = out
        self.report: dict[str, Any] = {"screens": {}, "steps": []}
        self.prefix = ""  # before each screenshot's name in the report (a walk's folder)
        self.queue: list[Callable[[], None]] = []
        self.holding = False  # stop driving, keep the app running (to be killed)
        self.ran: list[str] = []  # every step taken, a wait once (a script that loops says where)
        #: every announcement shown, of every game (the service keeps the current game's)
        self.announced: list[Any] = []
        self.announced_words: list[str] = []  # the words the screen was given for each, then
        show = app.announced

        def record(announcement: Any, words: str) -> None:
            self.announced.append(announcement)
            self.announced_words.append(words)
            show(announcement, words)

        app.announced = record  # type: ignore[method-assign]

    def then(self, step: Callable[[], None]) -> Driver:
        self.queue.append(step)
        return self

    def start(self, delay_s: float = 0.5) -> None:
        Clock.schedule_once(lambda _dt: self._next(), delay_s)

    def _layout(self) -> list[tuple[float, ...]]:
        return [(*w.pos, *w.size) for w in walk(self.app.root)]

    def _next(self, last: list[tuple[float, ...]] | None = None, waited: int = 0) -> None:
        """Run the next step once the layout has settled (two frames alike): a touch on a
        widget that is still being laid out would land somewhere else."""
        if self.holding:
            return
        if not self.app.table_started:  # the service starts in the frame after the first
            Clock.schedule_once(lambda _dt: self._next(last, waited), 0)
            return
        layout = self._layout()
        if layout != last and waited < 100:
            Clock.schedule_once(lambda _dt: self._next(layout, waited + 1), 0)  # the next frame
            return
        if not self.queue:
            print(json.dumps(self.report), flush=True)
            self.app.stop()
            return
        step = self.queue.pop(0)
        name = getattr(step, "__qualname__", repr(step))
        if not name.startswith("Driver.wait_until"):  # a wait has its own time limit
            self.ran.append(name)
        try:
            if len(self.ran) > MAX_STEPS:
                raise AssertionError(f"more than {MAX_STEPS} steps; the last: {self.ran[-12:]}")
            step()
        except Exception:  # say what failed (Kivy's log is off in scripts), then stop
            import sys
            import traceback

            self.report["error"] = traceback.format_exc()
            print(json.dumps(self.report), flush=True)
            print(self.report["error"], file=sys.stderr, flush=True)
            raise
        Clock.schedule_once(lambda _dt: self._next(), 0)  # after the frame the step changed

    # ----- steps ---------------------------------------------------------------------------------
    def shoot(self, name: str) -> None:
        root = self.app.root
        entry: dict[str, Any] = {
            "overflow": overflowing_labels(root),
            "outside_box": outside_their_box(root),
            "small_targets": small_touch_targets(root),
            "internal_ids": internal_ids(root),
            "small_texts": small_texts(root),
            "cramped_lists": cramped_lists(root),
            "cut_rows": cut_rows(root),
            "cut_texts": cut_texts(root),
            "broken_words": broken_words(root),
            "board_overlaps": board_overlaps(root),
            "hand_unseen": self.hand_unseen(),
        }
        if self.out is not None:
            path = self.out / f"{name}.png"
            root.export_to_png(str(path))
            entry["png"] = str(path)
        self.report["screens"][self.prefix + name] = entry

    def hand_unseen(self) -> list[str]:
        """A shown hero panel whose hand (`hand_grid`) has no card in sight, whole, as the
        panel opens: the playtest's "Hand" over an empty band at 800x480 with large text, read
        as a hero without cards."""
        screen = self.app.round_screen()
        panel = getattr(screen, "hero_view", None)
        if panel is None or not panel.showing:
            return []
        grid = getattr(panel, "hand_grid", None)
        if grid is None or not grid.children:
            return []
        view = panel.ids.scroll
        low, high = view.to_window(view.x, view.y)[1], view.to_window(view.x, view.top)[1]
        tiles = grid.children
        seen = [
            t
            for t in tiles
            if t.to_window(0, t.y)[1] >= low - 1 and t.to_window(0, t.top)[1] <= high + 1
        ]
        if seen:
            return []
        return [f"no card of the {len(tiles)} under the hand's heading in sight"]

    def language(self, code: str) -> None:
        self.app.switch_language(code)

    def text_size(self, size: str) -> None:
        """A text size step ("normal", "large", "150"), as More… > Text size steps to it."""
        step_to(self.app, percent(int(size) if size.isdigit() else size))

    def walk_every_screen(self, out: Path, text: str, languages: Sequence[str], seed: int) -> None:
        """Queue one walk through every screen (and the round's panels) at `text` size, into
        `out`, each segment of SEGMENTS (support/sweeps.py) in its own language of `languages`:
        a language is switched only where a segment begins from a state of its own (the switch
        clears the cards shown)."""

        def begin() -> None:
            self.out, self.prefix = out, f"{out.name}/"
            out.mkdir(parents=True, exist_ok=True)
            self.text_size(text)

        self.then(begin)
        segments = self.screen_segments(seed)
        assert [[name for name, _ in segment] for segment in segments] == [
            list(names) for names in SEGMENTS
        ], "the walk's segments and tests/support/sweeps.py's SEGMENTS differ"
        assert len(languages) == len(segments), (languages, len(segments))
        for segment, lang in zip(segments, languages, strict=True):
            self.then(lambda lang=lang: self.language(lang))
            for name, step in segment:
                self.then(step)
                self.then(lambda name=name, lang=lang: self.shoot(f"{name}-{lang}"))
        self.then(lambda: self.language("en"))

    def screen_segments(self, seed: int) -> list[list[tuple[str, Callable[[], None]]]]:
        """The walk's steps by segment: each (screen, the touches that lead to it)."""
        app = self.app
        from tests.ui_driver.table_scripts import table_steps

        home: list[tuple[str, Callable[[], None]]] = [
            ("home", lambda: app.show("home")),
            ("hardware", lambda: self.press("Hardware")),
            ("settings", lambda: (self.press("Back"), app.open_settings())),
            ("history", app.open_history),
            (  # the game just played, as a transcript for a bug report
                "history-exported",
                lambda: (
                    self.press("Export this game as a transcript")
                    if app.service.log.games()
                    else None
                ),
            ),
        ]
        setup: list[tuple[str, Callable[[], None]]] = [
            ("setup-players", app.open_setup),
            ("setup-layout", lambda: self.press("Next")),
            ("setup-room", self.tap_setup_room),  # zoomed to edit its tile and platform
            ("setup-ladders", lambda: self.press("Next")),
            ("setup-ladders-chosen", self.place_ladders),  # each in its hero's colour
            ("setup-stacks", lambda: self.press("Next")),
            ("setup-cards", lambda: self.press("Next")),
        ]
        round_: list[tuple[str, Callable[[], None]]] = [
            ("round-initiative", lambda: app.new_game(seed)),
            ("round-pick", lambda: self.press_first_option()),
            ("round-strigoi", lambda: self.play_until_announcement(200)),  # its card
            ("round-why", lambda: self.press("Why?")),
            (
                "round-threat",
                lambda: self.steps(
                    lambda: self.press("Why?"),
                    self.done_with_cards,
                    lambda: self.press("More…"),
                    lambda: self.press(  # on from an earlier language's game: it stays on
                        "Close" if app.round_screen().threat_on else "Threat map: off"
                    ),
                ),
            ),
            ("round-zoom", lambda: self.toward_a_space(zoomed=True)),  # one room, big spaces
            ("round-confirm", lambda: self.toward_a_space(zoomed=True, chosen=True)),
            (  # mid-game, a hero's panel from its wound chip
                "round-hero",
                lambda: self.steps(lambda: self.press("Cancel"), self.tap_first_chip),
            ),
            (
                "round-more",
                lambda: self.steps(app.round_screen().close_hero, lambda: self.press("More…")),
            ),
            ("log", lambda: self.press("Game log")),
            (
                "round-fix",
                lambda: self.steps(lambda: self.press("Back"), lambda: self.press("Fix")),
            ),
        ]
        rules: list[tuple[str, Callable[[], None]]] = [
            (
                "rules",
                lambda: self.steps(
                    lambda: self.press("Close"),
                    lambda: self.press("More…"),
                    lambda: self.press("Rules"),
                ),
            ),
            ("rules-contents", lambda: self.press("All rules")),
            ("rules-teleport", lambda: app.open_rules("R-TEL-3")),  # the longest rules
        ]
        # the table panel, an alert, Resync, a table action; then the game played to its end
        return [setup, round_, rules, table_steps(self), home]

    def note_round_layout(self) -> None:
        """Report where the round screen put its board against its panel (window px)."""
        ids = self.app.round_screen().ids
        board, panel = ids.board_area, ids.panel
        self.report["round_layout"] = {
            "portrait": self.app.portrait,
            "board": [*board.to_window(*board.pos), *board.size],
            "panel": [*panel.to_window(*panel.pos), *panel.size],
        }

    def tap_setup_room(self, room: str = "NW") -> None:
        """A finger on a room's centre on the setup wizard's whole fortress (it zooms in)."""
        view = self.app.manager.get_screen("setup").view
        tap_at(*view.to_window(*view.to_pixel(view.fortress.centre(room))))

    def tap_first_chip(self) -> None:
        """A finger on the first hero's wound chip: that hero's panel."""
        box = self.app.round_screen().ids.wounds
        tap(box.children[-1])  # children are kept last first

    def steps(self, *touches: Callable[[], None]) -> None:
        """Several touches, each in its own settled frame, before anything queued after."""
        self.queue[0:0] = list(touches)

    def done_with_cards(self) -> None:
        """Read every Strigoi card to its end: "Done — figures moved" (one touch a frame)."""
        screen = self.app.round_screen()
        if not screen.cards:
            return
        from tests.ui_driver.table_scripts import follow_the_game

        follow_the_game(self.app)  # the figures go where the card says, then "Done"
        if screen.card_showing:
            tap(screen.ids.card_done)
        self.queue.insert(0, self.done_with_cards)

    def toward_a_space(self, zoomed: bool, chosen: bool = False, limit: int = 300) -> None:
        """Play on until the game asks for a space, then touch the board until it is zoomed
        (and, with `chosen`, until a space is chosen and waits for "Move here")."""
        screen = self.app.round_screen()
        choice = screen.choice
        asking = bool(choice.modes) and not screen.cards and not screen.table.actions
        if (
            asking
            and zoomed == bool(self.app.game_view.zoom_room)
            and (not chosen or choice.pending is not None)
        ):
            return
        if limit == 0:
            raise AssertionError(
                f"the game never asked for a space: modes {list(choice.modes)}, cards "
                f"{len(screen.cards)}, table {screen.table.actions}, zoom "
                f"{self.app.game_view.zoom_room}, pending {choice.pending}, steps "
                f"{self.report['steps'][-3:]}"
            )
        if asking:
            self._touch_board(screen)
        else:
            self.play_one()
        self.queue.insert(0, lambda: self.toward_a_space(zoomed, chosen, limit - 1))

    def wait_until(
        self, what: str, done: Callable[[], bool], frames: int = 200, until: float | None = None
    ) -> None:
        """A step that repeats (once per settled frame) until `done()`; fails after the time
        `frames` steps took when the driver paused between them (0.1 s each, scaled)."""
        if done():
            return
        if until is None:
            until = time.monotonic() + limit(frames * STEP_BUDGET_S)
        elif time.monotonic() > until:
            raise AssertionError(f"waited in vain for {what}")
        self.queue.insert(0, lambda: self.wait_until(what, done, frames, until))

    def wait_for_voice(self, seconds: float) -> None:
        """Wait (on Kivy's thread: the screen stands still) until the voice has spoken every
        sentence said so far."""
        if not self.app.speaker.idle(seconds):
            raise AssertionError(f"the voice did not finish within {seconds} s")

    def page_texts(self) -> None:
        """Report every text the current screen shows, top to bottom."""
        screen = self.app.manager.current_screen
        texts = [w.text for w in screen.walk() if isinstance(getattr(w, "text", None), str)]
        self.report["texts"] = [t for t in texts if t]

    def health(self) -> None:
        """Queue: wait for every node (and the broker, when there is one) to be up, open the
        Hardware screen and report the text it shows."""
        app = self.app

        def up() -> bool:
            nodes = all(h.online for h in app.hardware.bridge.health())
            return nodes and (
                app.service.publisher is None or app.service.publisher.connected.is_set()
            )

        self.then(lambda: self.wait_until("every node online", up, frames=3000))
        self.then(lambda: app.show("hardware"))
        self.then(lambda: self._note("hardware", app.manager.get_screen("hardware").table_text))
        self.then(lambda: self.shoot("hardware"))

    def health_until(self, text: str) -> None:
        """Queue: open the Hardware screen, wait until what it shows contains `text` (it is
        refreshed by the app's own poll), report the text and shoot the screen."""

        def shown() -> str:  # the screens exist once the app runs, not when this is queued
            return str(self.app.manager.get_screen("hardware").table_text)

        self.then(lambda: self.app.show("hardware"))
        self.then(lambda: self.wait_until(repr(text), lambda: text in shown(), 900))
        self.then(lambda: self._note("hardware", shown()))
        self.then(lambda: self.shoot("hardware"))

    def full_round(self, uid: str) -> None:
        """Queue the issue's end-to-end round: the setup wizard by touch (a card registered by
        a simulated NFC tap), initiative by an NFC tap and by touch, turns and Strigoi steps by
        touch, through phase 3 into the next round. (Queued once the app runs: the board
        starts with it.)"""
        self.then(lambda: self._full_round(uid))

    def _full_round(self, uid: str) -> None:
        queued, self.queue = self.queue, []
        app = self.app
        board = app.board
        assert board is not None, "the simulated board is needed for NFC taps"
        reader = board.nodes["cards"]
        setup = app.manager.get_screen("setup")
        roel_card = app.catalog.hero_cards("roel")[0]
        table = app.hardware.table
        assert table is not None
        fresh = table.platforms[0]  # a platform with new stickers: none of its rims known yet
        for edge in range(6):
            for known in app.service.registry.tags_of("platform", rim_target(fresh, edge)):
                app.service.registry.unbind(known)
        app.service.tags.refresh()
        self.then(
            lambda: self.wait_until(
                "the card reader",
                lambda: any(h.node == "cards" and h.online for h in board.bridge.health()),
            )
        )
        self.then(lambda: self.press("New game"))
        self.then(lambda: self.press("Next"))  # players: roel, matthew, attila
        self.then(lambda: self.press("Next"))  # layout: the default
        self.then(self.place_ladders)
        self.then(lambda: self.press("Next"))
        self.then(lambda: self.press("Next"))  # stacks: digital
        roel_title = app.catalog.card(roel_card).title
        not_yet = i18n.tr("not registered")
        self.then(lambda: tap(find_button(setup, f"Roel: {roel_title} · {not_yet}")))
        self.then(lambda: reader.place_tag(uid, 0))
        self.then(
            lambda: self.wait_until(
                "the registration",
                lambda: bool(app.service.registry.tags_of("action_card", roel_card)),
            )
        )
        self.then(lambda: reader.remove_tag(0))

        # two rim tags of the first platform, one tap after the other: the wizard moves on
        def first_platform() -> str:
            return str(setup.platforms()[0])

        def rim_button() -> Button:
            none_yet = i18n.tr("{done} of 6 registered").format(done=0)
            return find_button(setup, f"{setup.platform_name(first_platform())} · {none_yet}")

        self.then(lambda: reveal(rim_button()))
        self.then(lambda: tap(rim_button()))
        for edge in range(6):  # the platform's own stickers, tapped on the card reader
            self.then(lambda edge=edge: reader.place_tag(rim_uid(first_platform(), edge), 0))
            self.then(
                lambda edge=edge: self.wait_until(
                    f"rim tag {edge}",
                    lambda: bool(
                        app.service.registry.tags_of("platform", rim_target(first_platform(), edge))
                    ),
                )
            )
            self.then(lambda: reader.remove_tag(0))
            if edge == 1:  # two rim tags registered: the wizard asks for the third edge
                self.then(
                    lambda: self._note("rim_waiting", list(setup.registration.waiting_for or ()))
                )
        self.then(
            lambda: self._note(
                "rims_registered",
                sum(
                    bool(app.service.registry.tags_of("platform", rim_target(first_platform(), e)))
                    for e in range(6)
                ),
            )
        )
        self.then(lambda: self.press("Start game"))
        self.then(lambda: reader.place_tag(uid, 1))  # initiative: roel taps the card
        self.then(
            lambda: self.wait_until(
                "roel's tapped choice",
                lambda: (
                    app.session is not None and app.session.state.hero("roel").chosen == roel_card
                ),
            )
        )
        self.then(lambda: self._note("tapped_choice", roel_card))
        self.then(
            lambda: self.play_until(
                lambda: (
                    app.session is not None
                    and app.session.state.round >= 3
                    and any(a.kind == "curse" for a in app.announcements)
                ),
                900,
            )
        )
        self.then(self.summary)
        self.queue += queued

    def _note(self, key: str, value: Any) -> None:
        self.report[key] = value

    def play_until(self, done: Callable[[], bool], limit: int) -> None:
        """Decisions by touch, one per settled frame, until `done()`; the phases seen are kept."""
        session = self.app.session
        assert session is not None
        phases = self.report.setdefault("phases", [])
        if not phases or phases[-1] != [session.state.round, session.state.phase]:
            phases.append([session.state.round, session.state.phase])
        if done():
            return
        if limit == 0:
            raise AssertionError(f"not reached: {self.report['steps'][-5:]}")
        self.play_one()
        self.queue.insert(0, lambda: self.play_until(done, limit - 1))

    def place_ladders(self) -> None:
        """On the wizard's ladder page: each seat takes the first allowed site, by touch."""
        screen = self.app.manager.get_screen("setup")
        if all(s.site is not None for s in screen.plan.seats):
            return
        site = next(s for s in screen.plan.sites() if s.allowed)
        # scrolled into sight first when the list's edge hides it (a tap beside the list
        # reached nothing, and the run waited for ever); the list is rebuilt after a touch
        self.touch_button(find_button(screen, site_label(site.room, site.side)))
        self.queue.insert(0, self.place_ladders)

    def place_ladders_then_next(self) -> None:
        """`place_ladders`, then Next once every seat has its ladder (not before: refused)."""
        screen = self.app.manager.get_screen("setup")
        if all(s.site is not None for s in screen.plan.seats):
            self.press("Next")
            return
        self.place_ladders()
        self.queue.insert(1, lambda: self.press("Next"))

    def option_buttons(self) -> list[Button]:
        """The round screen's option buttons, top first."""
        ids = self.app.round_screen().ids
        shown = [*reversed(ids.options.children), *reversed(ids.commit_box.children)]
        return [b for b in shown if isinstance(b, Button)]

    def press_first_option(self) -> None:
        tap(self.option_buttons()[0])

    def touch_button(self, button: Button) -> None:
        """A finger on a button of a scrolled list: scrolled into sight first, as a player
        would (the touch then comes with the next step)."""
        if not in_sight(button):
            reveal(button)
            return
        tap(button)

    def play_until_announcement(
        self, limit: int, start: int | None = None, kind: str = "strigoi_step"
    ) -> None:
        """Decisions by touch, one per settled frame, until a story item of `kind` (a Strigoi
        step) is announced."""
        start = len(self.app.announcements) if start is None else start
        if any(a.kind == kind for a in self.app.announcements[start:]):
            return
        if limit == 0:
            raise AssertionError(f"no announcement: {self.report['steps'][-5:]}")
        self.play_one()
        self.queue.insert(0, lambda: self.play_until_announcement(limit - 1, start, kind))

    def finish_game(self) -> None:
        """Play the game to its end through the app's own command path (engine speed)."""
        import random

        session = self.app.session
        assert session is not None
        rng = random.Random(1)
        while session.state.phase != "over":
            self.app.execute(rng.choice(session.legal_commands()))

    def press(self, text: str, tries: int = 20, translate: bool = True, waits: int = 120) -> None:
        """A finger on the button with this text (the English one, translated; or the exact
        text with `translate` False); scrolled into sight first when a list hides it (the
        touch then comes in the next frame). A button not there yet (a list rebuilt as the
        table's difference ages, on a loaded machine) is looked for again, frame by frame,
        `waits` times before the run fails, as a player's eye waits for it."""
        try:
            button = find_button(self.app.root, i18n.tr(text) if translate else text)
        except LookupError:
            if waits <= 0:
                raise
            self.queue.insert(0, lambda: self.press(text, tries, translate, waits - 1))
            return
        if not in_sight(button):
            if tries == 0:
                raise AssertionError(
                    f"{text!r} cannot be scrolled into sight: {sight(button)}, "
                    f"language {i18n.current_language()}, steps {self.report['steps'][-3:]}"
                )
            reveal(button)
            self.queue.insert(0, lambda: self.press(text, tries - 1, translate))
            return
        self.report.setdefault("pressed", []).append(
            [text, list(button.to_window(*button.center)), list(button.size)]
        )
        tap(button)

    def play_one(self) -> None:
        """One touch of a player: a committing button when the screen has one (Move here, a
        card's Done, Done by hand, block), else the board when the game waits for a space
        (zoom out, zoom to the room, tap the space: one touch each), else the first option."""
        session = self.app.session
        assert session is not None
        before = session.state.event_count
        if self.app.table_status.actions and self.app.hardware.table is not None:
            from tests.ui_driver.table_scripts import follow_the_game

            follow_the_game(self.app)  # the table first, as the app asks
            self.report["steps"].append({"waiting": "the table", "events": 0})
            return
        screen = self.app.round_screen()
        buttons = self.option_buttons()
        commits = [b for b in buttons if getattr(b, "commit", False)]
        if screen.hero_open is not None:  # a hand opened from its option: its first card
            from companion.app.web.qr import phone_word

            mine = phone_word("seat").split("{")[0]  # "My phone: <hero>" opens a code: not play
            panel = [b for b in screen.hero_view.buttons() if not b.text.startswith(mine)]
            tap(next((b for b in panel if getattr(b, "commit", False)), panel[0]))
        elif screen.card_showing:
            if self.app.hardware.table is not None:
                from tests.ui_driver.table_scripts import follow_the_game

                follow_the_game(self.app)  # the figures go where the card says, then "Done"
            tap(screen.ids.card_done)
        elif commits:
            self.touch_button(commits[0])
        elif not self._touch_board(screen):
            self.touch_button(next((b for b in buttons if not changes_a_choice(b)), buttons[0]))
        self.report["steps"].append(
            {"waiting": session.waiting_text(), "events": session.state.event_count - before}
        )

    def _touch_board(self, screen: Any) -> bool:
        """One touch towards the last space the board offers; False when it offers none."""
        choice = screen.choice
        if choice.mode is None or screen.cards or screen.table.actions:
            return False
        cells = list(choice.modes.get(choice.mode, {}))
        if not cells:
            return False
        target = cells[-1]
        view = self.app.game_view
        room = view.room_near(target)
        if view.zoom_room is not None and view.zoom_room != room:
            tap(screen.ids.zoom_out)
            touched = "zoom out"
        else:
            tap_at(*view.to_window(*view.to_pixel(target)))
            touched = f"{target} in {room} (zoom {view.zoom_room})"
        self.report.setdefault("board_touches", []).append(
            [touched, str(choice.pending) if choice.pending else None]
        )
        return True

    def summary(self) -> None:
        session = self.app.session
        board = self.app.board
        self.report["game"] = (
            None
            if session is None
            else {
                "id": session.game_id,
                "round": session.state.round,
                "phase": session.state.phase,
                "events": session.state.event_count,
                "waiting": session.waiting_text(),
                "screen": self.app.manager.current,
            }
        )
        self.report["announcements"] = [a.kind for a in self.announced]
        self.report["headlines"] = [a.headline for a in self.announced]  # published
        self.report["words"] = list(self.announced_words)  # as bannered when told
        feed = self.app.service.feed
        self.report["published"] = feed.sent["announcement"]
        self.report["feed"] = {"sent": dict(feed.sent), "failed": dict(feed.failed)}
        self.report["spoken"] = list(getattr(self.app.speaker, "said", []))
        self.report["refusals"] = list(self.app.refusals)
        # the LED picture of the last command, sent and shown
        self.app.service.watch.wait_idle(limit(2.0))
        self.app.hardware.bridge.wait_acked(limit(2.0))
        self.report["leds"] = (
            {} if board is None else {n: node.showing() for n, node in board.nodes.items()}
        )
        self.report["leds_expected"] = {
            node: {"colour": show.ring.colour, "pattern": show.ring.pattern}
            for node, show in self.app.service.watch.picture.items()
        }
        self.report["led_log"] = (
            {}
            if board is None
            else {
                n: [[x.target, x.pattern, x.colour] for x in node.received if isinstance(x, p.Led)]
                for n, node in board.nodes.items()
            }
        )
        self.report["announced_to"] = [
            [a.facts.get("to"), a.facts.get("strigoi")]
            for a in self.announced
            if a.kind == "strigoi_step"
        ]

    def hold(self) -> None:
        """Print the report so far and stop driving (the test kills or stops the process)."""
        self.summary()
        board = self.app.board
        self.report["board_dir"] = None if board is None else str(board.directory)
        self.report["lit"] = sorted(
            node
            for node, shown in self.report["leds"].items()
            if shown["ring"] and shown["ring"]["pattern"] != "off"
        )
        print(json.dumps(self.report), flush=True)
        self.holding = True


def changes_a_choice(button: Any) -> bool:
    """ "Roel has chosen a card: change it": a player who has chosen plays on, never back."""
    tail = i18n.tr("{hero} has chosen a card: change it").split("{hero}")[-1]
    return str(getattr(button, "text", "")).endswith(tail)
