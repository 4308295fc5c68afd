"""The touchscreen app: one ScreenManager, one Screen class + kv file per screen.

Hardware is the simulated board by default (nodes on pseudo-terminals, a simulated table of
platforms and figures on their readers): its LED rings are drawn around the platforms on screen,
and its health feeds the Hardware screen. The table watch (companion/app/watch.py) compares what
the readers see with the game and derives every LED ring from the state; the Pi's buttons,
buzzer and status LED are built here too (on mock pins with the simulated board).
"""

from __future__ import annotations

import os
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from companion.app import i18n
from companion.app.announce import Announcement, Announcer
from companion.app.controls import Controls, open_controls
from companion.app.differences import Difference
from companion.app.feed import GameFeed
from companion.app.hardware import BoardHardware, broker_status, health_view, register_stickers
from companion.app.labels import (
    item_name,
    secret_label,
    set_ladder_owners,
    table_name,
    waiting_label,
)
from companion.app.leds import LedSync
from companion.app.resync import missing_hero, table_is_right
from companion.app.session import GameSession
from companion.app.setup_plan import SetupPlan
from companion.app.taps import Registration, TagIndex, Tap, TapFilter
from companion.app.tracking import Origin, TableStatus, TableTracker
from companion.app.voice import SettingsVoice, Speaker
from companion.app.watch import GameView, TableWatch, game_view, origin_of
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.demo import demo_situation
from companion.engine.board_build import load_board
from companion.engine.components import Catalog
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions, situation
from companion.engine.game.state import GameState
from companion.errors import CompanionError
from companion.store import location as store_location
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from companion.store.settings import Settings
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard, room_node
from firmware_bridge.mqtt_link import GamePublisher
from firmware_bridge.node_sim import CARD_READER
from ui.fortress_view import FortressView
from ui.memory import release_free_memory
from ui.play_taps import tapped_in_play
from ui.screens.gamelog import GameLogScreen
from ui.screens.gameover import GameOverScreen
from ui.screens.hardware import HardwareScreen
from ui.screens.history import HistoryScreen
from ui.screens.home import HomeScreen
from ui.screens.resync import ResyncScreen
from ui.screens.round import RoundScreen
from ui.screens.rules import TASK_SECTIONS, RulesScreen
from ui.screens.settings import SettingsScreen
from ui.screens.setup import SetupScreen
from ui.screens.table import TableScreen

#: Seconds without a command before freed memory is given back (ui/memory.py).
IDLE_TRIM_S = 2.0
#: A node not heard for this long makes the Pi's status LED blink (the bridge pings every 2 s).
SILENT_NODE_S = 5.0

#: The heroes a new game's wizard starts with (players change them on the first page).
FIRST_HEROES = ["roel", "matthew", "attila"]


def reveal_text(state: GameState, events: list[e.Event], catalog: Catalog) -> str:
    """After the last choice: every card shown together with the turn order (R-RND-1, -2)."""
    revealed = next((x for x in events if isinstance(x, e.CardsRevealed)), None)
    if revealed is None:
        return ""
    cards = {h.hero: h.chosen or (h.played[-1] if h.played else "?") for h in state.heroes}
    order = ", ".join(
        f"{hero_name(hero)} ({item_name(catalog, cards[hero])})" for hero in revealed.order
    )
    return i18n.tr("Cards revealed. Turn order: {order}").format(order=order)


def data_dir() -> Path:
    return store_location.data_dir()


#: the text size setting: every text a quarter bigger when "large"
TEXT_SCALES = {"normal": 1.0, "large": 1.25}


class ArmataApp(App):
    lang = StringProperty("en")
    can_resume = BooleanProperty(False)
    text_scale = NumericProperty(1.0)

    def __init__(
        self,
        hardware: BoardHardware | None = None,
        speaker: Speaker | None = None,
        resume_last: bool = False,
        publisher: GamePublisher | None = None,
        controls: Controls | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)
        self.fortress = load_board_file()
        self.catalog = load_catalog()
        self.situation = demo_situation(self.fortress)
        #: the nodes; by default the simulated board (its LED rings drawn around the platforms)
        self.hardware = hardware or BoardHardware.simulated_board(self.fortress)
        self.manager = ScreenManager(transition=NoTransition())
        self.fortress_view = FortressView(self.fortress, self.situation)
        self.game_view = FortressView(self.fortress, self.situation)
        self.setup_view = FortressView(self.fortress, self.situation)
        data_dir().mkdir(parents=True, exist_ok=True)
        self.log = GameLog(data_dir() / "companion.db")
        self.settings = Settings(self.log.db)
        self.speaker: Speaker = speaker or SettingsVoice(self.settings)
        self.resume_last = resume_last
        self.fixed_seed: int | None = None  # scripts fix the shuffles; a table gets a random seed
        self.registry = NfcRegistry(self.log.db)
        if self.hardware.table is not None:  # the simulated table's stickers, as if registered
            register_stickers(self.registry, self.hardware.table)
        self.tags = TagIndex(self.registry)  # the registry for the table watch's thread
        self.taps = TapFilter(self.registry)
        self.registration = Registration(self.registry)
        bridge = self.hardware.bridge
        self.tracker = TableTracker(
            self.fortress.rooms,
            self.tags.lookup,
            self.tags.rim_tagged,
            self.tags.figure_tagged,
            online=bridge.is_online,
        )
        self.table_status = TableStatus((), (), ())
        self.watch = TableWatch(
            self.tracker, list(self.fortress.rooms), LedSync(bridge), self._table_status
        )
        self.controls = controls or open_controls(
            self._pi_button, mock=self.hardware.simulated is not None
        )
        self.pi_presses: list[str] = []  # the Pi buttons the app acted on (scripts report them)
        self.session: GameSession | None = None
        self.announcements: list[Announcement] = []
        self.refusals: list[str] = []
        self.publisher = publisher  # the broker's game topics; None: the events stay in the app
        self.feed = GameFeed(self._publish)
        #: freed memory goes back to the system once the table has been idle for a moment
        self._tidy = Clock.create_trigger(lambda _dt: release_free_memory(), IDLE_TRIM_S)
        # LED cues are not sent one by one: the table watch derives every ring from the state
        self.announcer = Announcer(
            self._banner, self._speak, lambda cue: None, self.feed.announcement, i18n.tr, table_name
        )

    @property
    def board(self) -> SimulatedBoard | None:
        """The simulated board behind the nodes, when they are simulated (scripts tap on it)."""
        return self.hardware.simulated

    # ----- kv helpers --------------------------------------------------------------------------
    def tr(self, text: str, _lang: str = "") -> str:
        """Translate; kv passes `app.lang` so the text follows a language switch."""
        return i18n.tr(text)

    def has_screen(self, name: str) -> bool:
        return self.manager.has_screen(name)

    def show(self, name: str) -> None:
        if self.manager.has_screen(name):
            self.manager.current = name
            if name == "hardware":
                self._poll_hardware()  # fresh figures at once, then every 0.25 s

    def switch_language(self, language: str) -> None:
        i18n.set_language(language)
        changed = language != self.lang
        self.lang = language
        if self.settings.get("language") != language:
            self.settings.set("language", language)
        if changed and self.manager.has_screen("round"):
            self.speaker.interrupt()
            self._screen().clear_announcements()  # nothing stays in the old language
            if self.session is not None:
                self._refresh()

    def toggle_text_size(self) -> None:
        """Normal or large text (stored with the table's settings)."""
        size = "large" if self.settings.get("text_size") != "large" else "normal"
        self.settings.set("text_size", size)
        self.text_scale = TEXT_SCALES[size]

    def open_settings(self) -> None:
        screen = self.manager.get_screen("settings")
        assert isinstance(screen, SettingsScreen)
        screen.show(self.settings, self._setting_changed)
        self.show("settings")

    def _setting_changed(self, key: str) -> None:
        if key == "language":
            self.switch_language(str(self.settings.get("language")))

    def open_history(self) -> None:
        screen = self.manager.get_screen("history")
        assert isinstance(screen, HistoryScreen)
        screen.show(self.log, self.resume_game, self.export_game)
        self.show("history")

    def export_game(self, game_id: str) -> str:
        """A stored game as an armata-transcript/1 file in the data folder's exports/."""
        from companion.transcript import dumps, export_game

        folder = data_dir() / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"game-{game_id}.json"
        path.write_text(dumps(export_game(self.log, game_id)), encoding="utf-8")
        return str(path)

    def open_rules(self, rule: str | None = None) -> None:
        """The rules reference at `rule`, or at the section of what the game waits for."""
        screen = self.manager.get_screen("rules")
        assert isinstance(screen, RulesScreen)
        if rule is None and self.session is not None and self.session.waiting_for is not None:
            rule = TASK_SECTIONS.get(self.session.waiting_for.kind)
        screen.open(rule)
        self.show("rules")

    def show_game_over(self, state: GameState, over: e.GameOver | None) -> None:
        screen = self.manager.get_screen("gameover")
        assert isinstance(screen, GameOverScreen)
        screen.show(state, over)
        self.show("gameover")

    # ----- lifecycle ---------------------------------------------------------------------------
    def build(self) -> Widget:
        self.title = "Armata Strigoi"
        home = HomeScreen(name="home")
        home.attach_board(self.fortress_view)
        self.manager.add_widget(home)
        self.manager.add_widget(HardwareScreen(name="hardware"))
        round_screen = RoundScreen(name="round")
        round_screen.attach_board(self.game_view)
        self.manager.add_widget(round_screen)
        self.manager.add_widget(SetupScreen(name="setup"))
        for screen in (
            SettingsScreen(name="settings"),
            HistoryScreen(name="history"),
            GameOverScreen(name="gameover"),
            RulesScreen(name="rules"),
            GameLogScreen(name="log"),
            ResyncScreen(name="resync"),
            TableScreen(name="table"),
        ):
            self.manager.add_widget(screen)
        self.switch_language(str(self.settings.get("language")))
        self.text_scale = TEXT_SCALES.get(str(self.settings.get("text_size")), 1.0)
        round_screen.repeat = lambda a: self._speak(self.announcer.words(a))
        self.can_resume = self.log.last_unfinished() is not None
        if self.resume_last and self.can_resume:
            Clock.schedule_once(lambda _dt: self.resume_game(), 0)  # the kiosk after a power cut
        if self.publisher is not None:
            self.publisher.start_publishing()
        self.watch.start()
        # no game yet: every ring off, whatever an earlier run left lit
        self.watch.game(GameView(None, {}, Origin.RESUME))
        self.hardware.start(self._node_message)
        Clock.schedule_interval(self._poll_hardware, 0.25)
        return self.manager

    def _poll_hardware(self, _dt: float = 0) -> None:
        leds = {}
        for room in self.fortress.rooms:
            ring = self.hardware.ring(room_node(room))
            leds[room] = ring.colour if ring is not None and ring.pattern != "off" else None
        if leds != dict(self.fortress_view.leds):
            for view in (self.fortress_view, self.game_view):
                view.leds = leds
                view.redraw()
        if self.manager.current == "hardware":  # only where it is seen
            screen = self.manager.get_screen("hardware")
            assert isinstance(screen, HardwareScreen)
            screen.show_health(health_view(self.hardware.bridge, broker_status(self.publisher)))
        self.controls.show_status("ready" if self.nodes_heard() else "busy")

    def nodes_heard(self) -> bool:
        """Every node answered lately (the Pi's status LED is steady then, else it blinks)."""
        view = health_view(self.hardware.bridge)
        return all(
            row.online and row.seen_s_ago is not None and row.seen_s_ago < SILENT_NODE_S
            for row in view.nodes
        )

    # ----- node events (from the bridge's threads) ------------------------------------------------
    def _node_message(self, message: p.Message) -> None:
        self.watch.node_message(message)  # the table watch: platforms and figures
        Clock.schedule_once(lambda _dt: self.on_node_message(message), 0)

    def on_node_message(self, message: p.Message) -> None:
        """On the UI thread: a card placed on a reader becomes one tap for the screen showing.
        In play only the card reader's taps count (the room nodes read platforms and figures)."""
        tap = self.taps.feed(message)
        if tap is None:
            return
        if self.manager.current == "setup":
            screen = self.manager.get_screen("setup")
            assert isinstance(screen, SetupScreen)
            screen.on_tap(tap)
            self.tags.refresh()
        elif self.manager.current == "round" and tap.node == CARD_READER:
            self.card_tapped(tap)

    def card_tapped(self, tap: Tap) -> None:
        """A tag tapped on the card reader in play (ui/play_taps.py)."""
        if self.session is not None:
            tapped_in_play(self, self.session, tap)

    # ----- the game ----------------------------------------------------------------------------
    def open_setup(self) -> None:
        """The setup wizard, starting from the default fortress and three heroes."""
        screen = self.manager.get_screen("setup")
        assert isinstance(screen, SetupScreen)
        plan = SetupPlan.from_fortress(self.fortress, FIRST_HEROES)
        screen.begin(
            plan,
            self.setup_view,
            self.registration,
            self._cards_of,
            lambda plan: self.new_game(plan=plan),
            lambda: self.show("home"),
        )
        self.show("setup")

    def _cards_of(self, hero: str) -> list[tuple[str, str]]:
        return [(card, self.catalog.card(card).title) for card in self.catalog.hero_cards(hero)]

    def new_game(self, seed: int | None = None, plan: SetupPlan | None = None) -> None:
        """Start a game from the wizard's plan (default: the printed layout and its first
        ladders, for scripts and benchmarks)."""
        seed = seed if seed is not None else self.fixed_seed
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        if plan is None:
            plan = SetupPlan.from_fortress(self.fortress, FIRST_HEROES)
            for i, ladder in enumerate(
                sorted(self.fortress.ladders.values(), key=lambda x: x.id)[: len(plan.seats)]
            ):
                plan.place_ladder(i, ladder.room, ladder.side)
        self.session = GameSession.start(
            self.log,
            seed,
            plan.game_seats(),
            GameOptions(physical=frozenset(plan.physical)),
            load_board(plan.game_board()),
        )
        self.game_view.fortress = self.session.rules.fortress
        set_ladder_owners(self.log.game(self.session.game_id).seats)
        self.can_resume = True
        self.feed.after_command(self.session.state, self.session.log.events(self.session.game_id))
        self._new_game_screen()
        self.watch.game(game_view(self.session.rules, self.session.state, Origin.NEW_GAME))
        self._refresh()
        self.show("round")

    def _new_game_screen(self) -> None:
        """Nothing of an earlier game stays on the round screen or in the voice."""
        self.speaker.interrupt()
        screen = self._screen()
        screen.clear_announcements()
        screen.command_done()
        screen.view.zoom_room = None
        screen.zoomed = False
        if self.session is not None and self.session.state.round == 1:
            screen.hint(
                i18n.tr(
                    "Tip: tap a room on the board to zoom in; tap Whole fortress to see it all."
                )
            )

    def resume_game(self, game_id: str | None = None) -> None:
        """The last unfinished game (or `game_id`), on the screen it was played on."""
        self.session = (
            GameSession.resume(self.log) if game_id is None else GameSession(self.log, game_id)
        )
        if self.session is not None:
            self.game_view.fortress = self.session.rules.fortress
            set_ladder_owners(self.log.game(self.session.game_id).seats)
            self.feed.state(self.session.state)
            self._new_game_screen()
            self.watch.game(game_view(self.session.rules, self.session.state, Origin.RESUME))
            self._refresh()
            self.show("round" if self.session.state.phase != "over" else "home")

    def execute(self, command: c.Command) -> None:
        session = self.session
        if session is None:
            return
        before = session.state
        try:
            events = session.execute(command)
        except CompanionError as refusal:
            self.refusals.append(str(refusal))
            self._screen().banner_text = str(refusal)
            return
        screen = self._screen()
        screen.banner_text = reveal_text(session.state, events, self.catalog)
        screen.command_done()
        self.feed.after_command(session.state, events)
        announced = self.announcer.after_command(session.rules, before, events)
        self.announcements += announced
        self.watch.game(game_view(session.rules, session.state, origin_of(command), announced))
        if any(a.kind == "strigoi_step" for a in announced):
            self.controls.beep()
        over = next((x for x in events if isinstance(x, e.GameOver)), None)
        if over is not None:  # the command's own events say it: no need to read the log back
            self.show_game_over(session.state, over)
        if announced or screen.banner_text:
            # the banner goes up in this frame; the new options and board follow in the next
            # (building them takes longer than a frame); until then the old options are inert
            Clock.schedule_once(lambda _dt: self._refresh(), 0)
        else:
            self._refresh()

    def undo(self) -> None:
        if self.session is not None and self.session.head > 0:
            self.rewind(self.session.head - 1)

    def redo(self) -> None:
        if self.session is not None and self.session.command_at(self.session.head + 1):
            self.rewind(self.session.head + 1)

    def rewind(self, head: int) -> None:
        """Undo, redo, or back to any step of the game log: the state, the board, the LEDs
        and the screen follow; the announcements of the steps left behind go."""
        session = self.session
        if session is None:
            return
        session.rewind(head)
        self.feed.state(session.state)
        screen = self._screen()
        screen.command_done()
        screen.clear_announcements()
        self.speaker.interrupt()
        self.watch.game(game_view(session.rules, session.state, Origin.UNDO))
        self._refresh()

    def open_log(self) -> None:
        """This game's steps in plain words; tapping one goes back to it (after asking)."""
        screen = self.manager.get_screen("log")
        assert isinstance(screen, GameLogScreen)
        if self.session is not None:
            screen.show(self.session, self.catalog, self.rewind)
            self.show("log")

    # ----- the table watch (its status arrives on its thread) -----------------------------------
    def _table_status(self, status: TableStatus) -> None:
        Clock.schedule_once(lambda _dt: self.table_changed(status), 0)

    def table_changed(self, status: TableStatus) -> None:
        before = {a.key for a in self.table_status.alerts}
        self.table_status = status
        if any(a.key not in before for a in status.alerts):
            self.controls.beep(2)  # a new difference nobody asked for
        if self.session is not None:
            self._screen().show_table(status, lambda: self.watch.done_by_hand(None))
        if self.manager.current == "resync":
            self.open_resync()
        elif self.manager.current == "table":
            self.open_table()

    def open_resync(self) -> None:
        screen = self.manager.get_screen("resync")
        assert isinstance(screen, ResyncScreen)
        session = self.session
        if session is None:
            return
        screen.show(
            session.rules.fortress,
            self.table_status,
            self._can_correct,
            self.table_is_right,
            self.app_is_right,
        )
        self.show("resync")

    def _can_correct(self, difference: Difference) -> bool:
        session = self.session
        assert session is not None
        state = session.state
        return bool(table_is_right(session.rules, state, difference)) or bool(
            missing_hero(state, difference)
        )

    def table_is_right(self, difference: Difference) -> None:
        """Record the table's reality (a correction), or show where a missing hero stands."""
        session = self.session
        if session is None:
            return
        corrections = table_is_right(session.rules, session.state, difference)
        for command in corrections:
            self.execute(command)
        hero = missing_hero(session.state, difference)
        if not corrections and hero is not None:
            self.show("round")
            self._screen().fix_position_of(hero)

    def app_is_right(self, difference: Difference) -> None:
        self.watch.app_is_right(difference)  # the room lights up; the entry goes once it matches

    def open_table(self) -> None:
        screen = self.manager.get_screen("table")
        assert isinstance(screen, TableScreen)
        screen.show(self, self.table_status)
        self.show("table")

    # ----- the Pi's buttons (gpiozero calls from its own thread) -------------------------------
    def _pi_button(self, name: str) -> None:
        Clock.schedule_once(lambda _dt: self.on_pi_button(name), 0)

    def on_pi_button(self, name: str) -> None:
        """Confirm: the screen's primary action; Undo: undo; Next: the next option."""
        self.pi_presses.append(name)
        current = self.manager.current
        if current == "table" and self.session is not None:
            current = "round"  # the simulated table's panel: its buttons act on the game
        if name == "undo":
            self.undo()
        elif current == "round":
            screen = self._screen()
            if name == "next":
                screen.focus_next()
            else:
                screen.primary()
        elif current == "setup" and name == "confirm":
            setup = self.manager.get_screen("setup")
            assert isinstance(setup, SetupScreen)
            setup.forward()
        elif current == "home" and name == "confirm":
            if self.can_resume:
                self.resume_game()
            else:
                self.open_setup()
        elif name == "confirm" and current in ("gameover", "resync", "table", "rules"):
            self.show("round" if self.session is not None and current != "gameover" else "home")

    def _screen(self) -> RoundScreen:
        screen = self.manager.get_screen("round")
        assert isinstance(screen, RoundScreen)
        return screen

    def _refresh(self) -> None:
        session = self.session
        if session is None:
            return
        self._tidy.cancel()  # the countdown starts again from this command
        self._tidy()
        self.game_view.situation = situation(session.rules, session.state)
        undo = session.command_at(session.head)
        redo = session.command_at(session.head + 1)
        fortress = session.rules.fortress
        hidden = session.state.phase == "initiative"  # choices unrevealed: names stay secret
        self._screen().show_options(
            session.rules,
            session.state,
            session.waiting_for,
            waiting_label(session.waiting_for, self.catalog),
            session.legal_commands(),
            self.execute,
            None if undo is None else secret_label(undo, self.catalog, fortress, hidden),
            None if redo is None else secret_label(redo, self.catalog, fortress, hidden),
        )
        self.game_view.redraw()

    # ----- announcement outputs ------------------------------------------------------------------
    def _banner(self, announcement: Announcement, words: str) -> None:
        self._screen().announced(announcement, words)

    def _speak(self, text: str) -> None:
        self.speaker.say(text, self.lang)

    def _publish(self, leaf: str, payload: bytes, retain: bool) -> bool:
        if self.publisher is None:
            return True
        return self.publisher.publish_game(leaf, payload, retain)

    def on_stop(self) -> None:
        self.watch.stop()
        self.controls.close()
        self.hardware.stop()
        if self.publisher is not None:
            self.publisher.stop()
        self.log.close()
