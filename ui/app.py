"""The touchscreen app: one ScreenManager, one Screen class + kv file per screen, on top of the
table service (companion/app/service.py), which owns the game, its log, the nodes, the sensed
table, the voice and the Pi's buttons. The app renders and forwards gestures.

Hardware is the simulated board by default (nodes on pseudo-terminals, a simulated table of
platforms and figures on their readers): its LED rings are drawn around the platforms on screen,
and its health feeds the Hardware screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import NoTransition
from kivy.uix.widget import Widget

from companion.app.session.glance import data_dir, glance, table_board
from companion.app.session.text_size import next_step, scale
from companion.app.stopping import stop_on_signals
from companion.app.words import i18n
from companion.engine.situation import Situation
from companion.errors import CompanionError
from companion.version import version
from ui import theme
from ui.board.view import FortressView
from ui.collector import MainThreadCollector
from ui.memory import release_free_memory
from ui.redraw_faults import RedrawFaults
from ui.screens.home import HomeScreen
from ui.screens.lazy import LazyScreens
from ui.screens.page import PageScreen  # noqa: F401  (page.kv: the rule every Button follows)

if TYPE_CHECKING:  # imported when the table starts, in the frame after the first (`_start_table`)
    from companion.app.devices.controls import Controls
    from companion.app.devices.hotspot import WifiState
    from companion.app.devices.nodes import BoardHardware, GamePublisher, SimulatedBoard
    from companion.app.devices.troubles import Troubles
    from companion.app.devices.voice import Speaker
    from companion.app.service import Outcome, TableService
    from companion.app.session.game import GameSession
    from companion.app.session.setup_plan import SetupPlan
    from companion.app.story.announcement import Announcement
    from companion.app.table.differences import Difference
    from companion.app.table.taps import Tap
    from companion.app.table.tracking import TableStatus
    from companion.app.web.feed import WebFeed
    from companion.engine.components import Catalog
    from companion.engine.fortress import Fortress
    from companion.engine.game import commands as c
    from companion.engine.game import events as e
    from companion.engine.game.state import GameState
    from ui.screens.confirm import ConfirmScreen
    from ui.screens.gamelog import GameLogScreen
    from ui.screens.gameover import GameOverScreen
    from ui.screens.hardware import HardwareScreen
    from ui.screens.history import HistoryScreen
    from ui.screens.resync import ResyncScreen
    from ui.screens.round.screen import RoundScreen
    from ui.screens.rules import RulesScreen
    from ui.screens.settings import SettingsScreen
    from ui.screens.setup import SetupScreen
    from ui.screens.table import TableScreen

__all__ = ["ArmataApp", "data_dir", "ring_legend"]

#: the screens built when first shown or asked for (ui/screens/lazy.py): not for the first frame
LATER_SCREENS = {
    "hardware": "ui.screens.hardware:HardwareScreen",
    "setup": "ui.screens.setup:SetupScreen",
    "settings": "ui.screens.settings:SettingsScreen",
    "history": "ui.screens.history:HistoryScreen",
    "gameover": "ui.screens.gameover:GameOverScreen",
    "rules": "ui.screens.rules:RulesScreen",
    "log": "ui.screens.gamelog:GameLogScreen",
    "resync": "ui.screens.resync:ResyncScreen",
    "table": "ui.screens.table:TableScreen",
    "confirm": "ui.screens.confirm:ConfirmScreen",
}

#: Seconds without a command before freed memory is given back (ui/memory.py).
IDLE_TRIM_S = 2.0


def ring_legend(
    leds: dict[str, str | None], segments: dict[str, dict[int, str]]
) -> tuple[list[tuple[str, tuple[float, float, float, float], str]], set[str]]:
    """What each lit ring colour means, once per colour (the board's legend), and the Strigoi
    whose colour is lit (the legend rings their figures): no ring is lit that the legend does
    not name."""
    from companion.app.devices.leds import RING_MEANINGS, STRIGOI_RINGS

    colours = [c.lower() for c in leds.values() if c is not None]
    colours += [c.lower() for lit in segments.values() for c in lit.values()]
    meanings = {k.lower(): v for k, v in RING_MEANINGS.items()}
    strigoi = {k.lower(): v for k, v in STRIGOI_RINGS.items()}
    entries: list[tuple[str, tuple[float, float, float, float], str]] = []
    for colour in dict.fromkeys(colours):
        if colour in meanings:
            entries.append(("ring", theme.hex_colour(colour), i18n.tr(meanings[colour])))
    return entries, {strigoi[c] for c in colours if c in strigoi}


def on_kivy_thread(call: Callable[[], None]) -> None:
    """The table service's `post`: run `call` in the next frame, on Kivy's thread."""
    Clock.schedule_once(lambda _dt: call(), 0)


def empty_situation(fortress: Fortress) -> Situation:
    """The fortress as the printed layout sets it up, with no figure on it."""
    return Situation(board=fortress.initial_state(), strigoi={}, heroes=(), players=3, altar=0)


class ArmataApp(App):
    lang = StringProperty("en")
    can_resume = BooleanProperty(False)
    text_scale = NumericProperty(1.0)
    #: a window taller than wide (the Touch Display 2 upright, 720x1280): the screens stack
    #: board above panel instead of side by side; follows the window at runtime
    portrait = BooleanProperty(False)
    #: this release's version (pyproject.toml), on Home and the Hardware screen
    version = StringProperty(version())

    def __init__(
        self,
        hardware: BoardHardware | None = None,
        speaker: Speaker | None = None,
        resume_last: bool = False,
        publisher: GamePublisher | None = None,
        controls: Controls | None = None,
        web: tuple[str, int] | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)
        #: the table view in browsers (ui/web) at (host, port); phones' choices run as taps do
        #: (None until it listens: it opens once the first frame is drawn, see `_open_web`)
        self.web_feed: WebFeed | None = None
        self._followed: frozenset[str] = frozenset()  # the seats a phone followed at the last look
        self.web_address = web
        #: `python -m ui` prints the nodes and the log once the table starts, and the table
        #: view's address once it listens
        self.say_address = False
        #: what the table service is built with (`service`: at the first use)
        self._parts: dict[str, Any] = {
            "hardware": hardware,
            "speaker": speaker,
            "publisher": publisher,
            "controls": controls,
        }
        self._service: TableService | None = None
        #: the service runs and the round screen is built (`_start_table`, the frame after the
        #: first); scripts wait for it
        self.table_started = False
        board = table_board()
        self.situation = empty_situation(board)
        self.manager = LazyScreens(transition=NoTransition())
        self.fortress_view = FortressView(board, self.situation)
        self.game_view = FortressView(board, self.situation)
        self.setup_view = FortressView(board, self.situation)
        self.resume_last = resume_last
        self.fixed_seed: int | None = None  # scripts fix the shuffles; a table gets a random seed
        self.pi_presses: list[str] = []  # the Pi buttons the app acted on (scripts report them)
        #: announcements made while a command of this screen runs (None: none is running)
        self._held: list[tuple[Announcement, str]] | None = None
        #: freed memory goes back to the system once the table has been idle for a moment
        self._tidy = Clock.create_trigger(self._release_memory, IDLE_TRIM_S)
        self._game_left = False  # a game ended or was left: its cycles are collected first
        #: Python's collector runs on Kivy's thread only (ui/collector.py), from `build` on
        self.collector = MainThreadCollector()
        self.redraw_faults = RedrawFaults(self._survived)  # out of files: a frame lost, no more

    # ----- what the service owns, as the screens read it ----------------------------------------
    @property
    def service(self) -> TableService:
        """The table service: built when the table starts, in the frame after the first
        (`_start_table`), or earlier when something asks for it (a test script before the app
        runs). Its modules (the engine, the store, the nodes; ~half the start) load then."""
        if self._service is None:
            from companion.app.service import TableService

            self._service = TableService(data_dir(), on_kivy_thread, **self._parts)
        return self._service

    @property
    def session(self) -> GameSession | None:
        return self.service.session

    @property
    def fortress(self) -> Fortress:
        return self.service.fortress

    @property
    def catalog(self) -> Catalog:
        return self.service.catalog

    @property
    def hardware(self) -> BoardHardware:
        return self.service.hardware

    @property
    def controls(self) -> Controls:
        return self.service.controls

    @property
    def table_status(self) -> TableStatus:
        return self.service.table_status

    @property
    def announcements(self) -> list[Announcement]:
        return self.service.announcements

    @property
    def refusals(self) -> list[str]:
        return self.service.refusals

    @property
    def speaker(self) -> Speaker:
        return self.service.speaker

    @property
    def board(self) -> SimulatedBoard | None:
        """The simulated board behind the nodes, when they are simulated (scripts tap on it)."""
        return self.service.hardware.simulated

    # ----- kv helpers --------------------------------------------------------------------------
    def tr(self, text: str, _lang: str = "") -> str:
        """Translate; kv passes `app.lang` so the text follows a language switch."""
        return i18n.tr(text)

    def has_screen(self, name: str) -> bool:
        return self.manager.has_screen(name)

    def show(self, name: str) -> None:
        if self.manager.has_screen(name):
            if name == "home":
                self._home()
            self.manager.current = name
            if name == "hardware":
                screen = cast("HardwareScreen", self.manager.get_screen("hardware"))
                screen.save_report = self.service.usb_report  # the archive onto a USB stick
                self._poll_hardware()  # fresh figures at once, then every 0.25 s

    def switch_language(self, language: str) -> None:
        changed = self.service.set_language(language)
        self.lang = language
        if changed:
            from ui.widgets.scrolling import retranslate

            for screen in self.manager.screens:  # the current one and those waiting
                retranslate(screen)
        if changed and self.manager.has_screen("round"):
            self.fortress_view.leds = {}  # the legend's words again, in the new language
            self._poll_hardware()
        if changed and self.manager.has_screen("round"):
            self.round_screen().clear_announcements()  # nothing stays in the old language
            if self.session is not None:
                self._refresh()

    def step_text_size(self) -> None:
        """The next text size step (companion/app/session/text_size.py), kept in the settings."""
        settings = self.service.settings
        size = next_step(settings.get("text_size"))
        settings.set("text_size", size)
        self.text_scale = scale(size)

    def open_settings(self) -> None:
        from ui.screens.settings_usb import UsbForSettings

        screen = cast("SettingsScreen", self.manager.get_screen("settings"))
        screen.show(
            self.service.settings,
            self._setting_changed,
            self.service.troubles.voice,
            usb=UsbForSettings(self.service, self._games_replaced),
        )
        self.show("settings")

    def _games_replaced(self) -> None:
        """A restore from a USB stick replaced the games (and the settings they carry): the
        table follows their language and text size; Home offers the restored game."""
        self.switch_language(str(self.service.settings.get("language")))
        self.text_scale = scale(self.service.settings.get("text_size"))
        self.can_resume = self.service.can_resume()

    def _setting_changed(self, key: str) -> None:
        if key == "language":
            self.switch_language(str(self.service.settings.get("language")))
        elif key == "text_size":
            self.text_scale = scale(self.service.settings.get("text_size"))
        elif key == "hotspot":
            self.service.set_hotspot_mode(self.service.hotspot_mode)  # acted on now

    def open_history(self) -> None:
        screen = cast("HistoryScreen", self.manager.get_screen("history"))
        screen.show(self.service.history, self.resume_game, self.export_game)
        self.show("history")

    def export_game(self, game_id: str) -> str:
        return str(self.service.export_game(game_id))

    def open_rules(self, rule: str | None = None) -> None:
        """The rules reference at `rule`, or at the section of what the game waits for."""
        screen = cast("RulesScreen", self.manager.get_screen("rules"))
        if rule is None and self.session is not None and self.session.waiting_for is not None:
            from ui.screens.rules import TASK_SECTIONS

            rule = TASK_SECTIONS.get(self.session.waiting_for.kind)
        screen.open(rule)
        self.show("rules")

    def show_game_over(self, state: GameState, over: e.GameOver | None) -> None:
        screen = cast("GameOverScreen", self.manager.get_screen("gameover"))
        screen.show(state, over)
        self.show("gameover")

    # ----- lifecycle ---------------------------------------------------------------------------
    def _window_shape(self, _window: object, size: tuple[float, float]) -> None:
        self.portrait = size[1] > size[0]

    def build(self) -> Widget:
        """Home, in the table's language and text size (read from the log, `glance`): the
        first frame. The table service, the round screen and what they import follow at the
        next clock tick after it is shown (`_start_table`): Kivy reads a frame's input after
        its clock callbacks, so a touch on what the first frame shows finds the table
        running."""
        from kivy.core.window import Window

        self.collector.start()  # before any other thread: none of them collects Kivy's garbage
        self.redraw_faults.install()

        self.title = "Armata Strigoi"
        self._window_shape(Window, Window.size)
        Window.bind(size=self._window_shape)
        look = glance(data_dir())
        i18n.set_language(look.language)
        self.lang = look.language
        self.bind(text_scale=self._board_text)  # the boards' names and legends grow with it
        self.text_scale = scale(look.text_size)
        self.can_resume = look.resumable
        home = HomeScreen(name="home")
        home.attach_board(self.fortress_view)
        self.manager.add_widget(home)
        for name, where in LATER_SCREENS.items():
            self.manager.add_later(name, where)

        def drawn(*_: object) -> None:  # once: the first frame is on the screen
            Window.unbind(on_flip=drawn)
            Clock.schedule_once(self._start_table, 0)

        Window.bind(on_flip=drawn)
        # systemd stopping the kiosk, Ctrl+C: leave through on_stop (rings off, log closed)
        stop_on_signals(lambda: Clock.schedule_once(lambda _dt: self.stop(), 0))
        return self.manager

    def _start_table(self, _dt: float = 0) -> None:
        """The table service started, the round screen built; a kiosk resumes its game."""
        from ui.screens.round.screen import RoundScreen

        service = self.service
        round_screen = RoundScreen(self, name="round")
        round_screen.attach_board(self.game_view)
        self.manager.add_widget(round_screen)
        service.start(self)
        if self.web_address is not None:  # a frame later: nothing waits for its server
            Clock.schedule_once(self._open_web, 0.05)
        self.lang = service.language
        self.text_scale = scale(service.settings.get("text_size"))
        round_screen.repeat = lambda a: service.speak(service.announcer.words(a))
        round_screen.app_showing = service.showing
        self.can_resume = service.can_resume()
        resume = self.resume_last and self.can_resume  # the kiosk after a power cut, an update
        self._home_board()  # the first frame drew the default fortress
        if (news := service.update_news()) is not None:  # said once, before anything else
            then = self.resume_game if resume else lambda: self.show("home")
            screen = cast("ConfirmScreen", self.manager.get_screen("confirm"))
            screen.ask(news.title(), news.lines(), [(i18n.tr("OK"), then)])
            self.manager.current = "confirm"
        elif resume:
            Clock.schedule_once(lambda _dt: self.resume_game(), 0)
        Clock.schedule_interval(self._poll_hardware, 0.25)
        self.table_started = True
        if self.say_address:
            print(
                f"Armata Strigoi table companion: {self.hardware.description}, "
                f"game log and settings in {data_dir() / 'companion.db'}",
                flush=True,
            )

    def _board_text(self, _app: object, scale: float) -> None:
        for view in (self.fortress_view, self.game_view, self.setup_view):
            view.text_scale = scale
            view.redraw()

    def _open_web(self, _dt: float = 0) -> None:
        """The table view in browsers: its server (aiohttp, ~10 MB) is imported and started
        once the touchscreen shows, not before its first frame."""
        from companion.app.web.feed import WebFeed
        from ui.web.server import TableWebServer

        assert self.web_address is not None
        server = TableWebServer(*self.web_address)
        feed = WebFeed(server, on_kivy_thread, self.execute)
        server.choose = feed.request_choice
        self.service.open_web(feed)
        self.web_feed = feed
        Clock.schedule_interval(self._poll_phones, 0.5)
        if self.say_address:
            print(f"Table view in a browser: {feed.address}", flush=True)

    def _poll_phones(self, _dt: float = 0) -> None:
        """A phone began or stopped following a seat: the round screen's options say again
        who decides where (a private decision leaves the touchscreen while the phone holds it)."""
        feed = self.web_feed
        if feed is None:
            return
        followed = feed.followed_seats()
        if followed != self._followed:
            self._followed = followed
            screen = self.round_screen()
            if hasattr(screen, "refresh_options"):
                screen.refresh_options()

    def _poll_hardware(self, _dt: float = 0) -> None:
        leds = self.service.ring_colours()
        segments = self.service.ring_segments()
        if leds != dict(self.fortress_view.leds) or segments != dict(self.game_view.segments):
            legend, ringed = ring_legend(leds, segments)
            for view in (self.fortress_view, self.game_view):
                view.leds = leds
                view.segments = segments
                view.ringed = ringed
            self.fortress_view.legend_extra = legend
            screen = self.round_screen()
            screen.ring_legend = legend
            if hasattr(screen, "view"):
                screen._legend()
            for view in (self.fortress_view, self.game_view):
                view.redraw()
        if self.manager.current == "hardware":  # only where it is seen
            from companion.app.devices.nodes import broker_status, health_view

            screen = cast("HardwareScreen", self.manager.get_screen("hardware"))
            screen.show_health(
                health_view(self.hardware.bridge, broker_status(self.service.publisher)),
                self.service.troubles.lines(),
                self.service.web_lines(),
            )
        self.service.poll()

    def nodes_heard(self) -> bool:
        return self.service.nodes_heard()

    # ----- what the service tells (TableListener), on Kivy's thread ---------------------------
    def tapped(self, tap: Tap) -> None:
        """A card placed on a reader becomes one tap for the screen showing. In play only the
        card reader's taps count (the room nodes read platforms and figures)."""
        from companion.app.devices.nodes import CARD_READER

        if self.manager.current == "setup":
            screen = cast("SetupScreen", self.manager.get_screen("setup"))
            screen.on_tap(tap)
            self.service.tags.refresh()
        elif self.manager.current == "round" and tap.node == CARD_READER:
            self.card_tapped(tap)

    def register_tag(self, uid: str, kind: str, target: str) -> None:
        """A tag bound to what the players said it is (card taps in play)."""
        self.service.register_tag(uid, kind, target)

    def card_tapped(self, tap: Tap) -> None:
        """A tag tapped on the card reader in play (ui/screens/round/card_taps.py)."""
        from ui.screens.round.card_taps import tapped_in_play

        if self.session is not None:
            tapped_in_play(self, self.session, tap)

    def announced(self, announcement: Announcement, words: str) -> None:
        if self._held is not None:  # a command of this screen: shown once its panel is reset
            self._held.append((announcement, words))
        else:
            self.round_screen().announced(announcement, words)

    def table_changed(self, status: TableStatus) -> None:
        if self.session is not None:
            self.round_screen().show_table(status, self.service.done_by_hand)
        if self.manager.current == "resync":
            self.open_resync()
        elif self.manager.current == "table":
            self.open_table()

    def button(self, name: str) -> None:
        """Confirm: the screen's primary action; Undo: undo; Next: the next option."""
        self.on_pi_button(name)

    def wifi_changed(self, state: WifiState) -> None:
        """The table's own Wi-Fi opened or closed (or could not): an open Phones view shows it."""
        from kivy.core.window import Window

        from ui.screens.round.phones import PhonesView

        for widget in Window.children:
            if isinstance(widget, PhonesView):
                widget.wifi_changed()

    def troubled(self, troubles: Troubles) -> None:
        """The Settings screen says at once when the voice cannot speak; the Hardware screen
        shows every trouble at its next refresh."""
        screen = cast("SettingsScreen", self.manager.get_screen("settings"))
        screen.voice_trouble(troubles.voice)

    # ----- the game ----------------------------------------------------------------------------
    def open_setup(self) -> None:
        """The setup wizard, starting from the last game's group. Over an unfinished game it
        asks first: that game stays in History and can be resumed later."""
        if self.service.can_resume():
            self._ask_before_new_game()
            return
        self._setup_wizard()

    def _ask_before_new_game(self) -> None:
        screen = cast("ConfirmScreen", self.manager.get_screen("confirm"))
        unfinished = self.service.history(1)
        lines = []
        if unfinished and unfinished[0].status == "playing":
            from companion.engine.explain import hero_name

            game = unfinished[0]
            heroes = ", ".join(hero_name(h) for h in game.heroes)
            lines.append(
                i18n.tr("A game is not finished: round {round}, with {heroes}.").format(
                    round=game.rounds, heroes=heroes
                )
            )
        lines.append(i18n.tr("It stays in History: you can resume it later."))
        screen.ask(
            i18n.tr("Start a new game?"),
            lines,
            [
                (i18n.tr("Resume the unfinished game"), self.resume_game),
                (i18n.tr("Start a new game"), self._setup_wizard),
            ],
        )
        self.manager.current = "confirm"

    def _setup_wizard(self) -> None:
        screen = cast("SetupScreen", self.manager.get_screen("setup"))
        screen.begin(
            self.service.last_group(),
            self.setup_view,
            self.service.registration,
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
        session = self.service.new_game(seed if seed is not None else self.fixed_seed, plan)
        self.game_view.fortress = session.rules.fortress
        self.can_resume = True
        self._new_game_screen()
        self._refresh()
        self.show("round")

    def _new_game_screen(self) -> None:
        """Nothing of an earlier game stays on the round screen."""
        screen = self.round_screen()
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
        """The last unfinished game (or `game_id`), on the screen it was played on; a game whose
        record cannot be read back says so instead."""
        try:
            session = self.service.resume(game_id)
        except CompanionError as problem:
            screen = cast("ConfirmScreen", self.manager.get_screen("confirm"))
            screen.ask(
                i18n.tr("This game cannot be resumed"),
                [i18n.tr("Its record in the game log cannot be read back."), str(problem)],
                [(i18n.tr("Back"), lambda: self.show("home"))],
            )
            self.manager.current = "confirm"
            return
        if session is not None:
            self.game_view.fortress = session.rules.fortress
            self._new_game_screen()
            self._refresh()
            self.show("round" if session.state.phase != "over" else "home")

    def execute(self, command: c.Command) -> Outcome:
        self._held = []
        try:
            outcome = self.service.execute(command)
        finally:
            held, self._held = self._held, None
        screen = self.round_screen()
        if outcome.refused is not None:
            screen.banner_text = outcome.refused
            return outcome
        screen.banner_text = outcome.revealed
        screen.command_done()  # the cards of the command before go; this one's follow
        for announcement, words in held:
            screen.announced(announcement, words)
        if outcome.over is not None:  # the command's own events say it: no log read back
            self.show_game_over(self.service.session.state, outcome.over)  # type: ignore[union-attr]
        if outcome.announced or screen.banner_text:
            # the banner goes up in this frame; the new options and board follow in the next
            # (building them takes longer than a frame); until then the old options are inert
            Clock.schedule_once(lambda _dt: self._refresh(), 0)
        else:
            self._refresh()
        return outcome

    def undo(self) -> None:
        if self.session is not None and self.session.head > 0:
            self.rewind(self.session.head - 1)

    def redo(self) -> None:
        if self.session is not None and self.session.command_at(self.session.head + 1):
            self.rewind(self.session.head + 1)

    def rewind(self, head: int) -> None:
        """Undo, redo, or back to any step of the game log: the state, the board, the LEDs
        and the screen follow; the announcements of the steps left behind go, and a redo
        shows the cards of the command it brings back."""
        if self.session is None:
            return
        self._held = []
        try:
            self.service.rewind(head)
        finally:
            held, self._held = self._held, None
        screen = self.round_screen()
        screen.command_done()
        screen.clear_announcements()
        for announcement, words in held:
            screen.announced(announcement, words)
        self._refresh()

    def _release_memory(self, _dt: float = 0) -> None:
        if self._game_left and self._service is not None:
            self._service.release_memory()  # before the trim: what it frees goes back too
        release_free_memory(collect=self._game_left)
        self._game_left = False

    def _home(self) -> None:
        """Home shows the table as it is: after a finished game no Resume, no rings and no
        figures of it; with a game to resume, that game's figures."""
        self._game_left = True  # what the game's screens showed goes, once the table idles
        self._tidy.cancel()
        self._tidy()
        self.service.leave_game()
        self.can_resume = self.service.can_resume()
        self._home_board()

    def _home_board(self) -> None:
        """Home draws the game Resume brings back (that game's ladders and platforms)."""
        from companion.app.session.saved import saved_table  # the engine: loaded with the service

        saved = saved_table(self.service.log, self.session)
        fortress, shown = saved or (self.fortress, empty_situation(self.fortress))
        if (fortress, shown) != (self.fortress_view.fortress, self.fortress_view.situation):
            self.fortress_view.fortress, self.fortress_view.situation = fortress, shown
            self.fortress_view.redraw()

    def open_log(self) -> None:
        """This game's steps in plain words; tapping one goes back to it (after asking)."""
        screen = cast("GameLogScreen", self.manager.get_screen("log"))
        if self.session is not None:
            screen.show(self.session, self.catalog, self.rewind)
            self.show("log")

    # ----- the sensed table --------------------------------------------------------------------
    def open_resync(self) -> None:
        screen = cast("ResyncScreen", self.manager.get_screen("resync"))
        session = self.session
        if session is None:
            return
        screen.show(
            session.rules.fortress,
            self.table_status,
            self.service.can_correct,
            self.table_is_right,
            self.service.app_is_right,
        )
        self.show("resync")

    def table_is_right(self, difference: Difference) -> None:
        """Record the table's reality (a correction), or show where a missing hero stands."""
        hero = self.service.table_is_right(difference)
        self._refresh()
        if hero is not None:
            self.show("round")
            self.round_screen().fix_position_of(hero)

    def open_phones(self) -> None:
        """The table view's code and address, and each hero's "my phone" (round/phones.py)."""
        from ui.screens.round.phones import PhonesView

        PhonesView(self).open()

    def open_table(self) -> None:
        screen = cast("TableScreen", self.manager.get_screen("table"))
        screen.show(self, self.table_status)
        self.show("table")

    # ----- the Pi's buttons ------------------------------------------------------------------
    def on_pi_button(self, name: str) -> None:
        """Confirm: the screen's primary action; Undo: undo; Next: the next option."""
        self.pi_presses.append(name)
        current = self.manager.current
        if current == "table" and self.session is not None:
            current = "round"  # the simulated table's panel: its buttons act on the game
        if name == "undo":
            self.undo()
        elif current == "round":
            screen = self.round_screen()
            if name == "next":
                screen.focus_next()
            else:
                screen.primary()
        elif current == "setup" and name == "confirm":
            setup = cast("SetupScreen", self.manager.get_screen("setup"))
            setup.forward()
        elif current == "home" and name == "confirm":
            if self.can_resume:
                self.resume_game()
            else:
                self.open_setup()
        elif name == "confirm" and current in ("gameover", "resync", "table", "rules"):
            self.show("round" if self.session is not None and current != "gameover" else "home")

    def round_screen(self) -> RoundScreen:
        screen = cast("RoundScreen", self.manager.get_screen("round"))
        return screen

    def _refresh(self) -> None:
        from companion.app.words.status import waiting_label
        from companion.app.words.undo_texts import undo_label
        from companion.engine.game.context import situation

        session = self.session
        if session is None:
            return
        self._tidy.cancel()  # the countdown starts again from this command
        self._tidy()
        self.game_view.situation = situation(session.rules, session.state)
        undo = session.command_at(session.head)
        redo = session.command_at(session.head + 1)
        fortress = session.rules.fortress
        self.round_screen().show_options(
            session.rules,
            session.state,
            session.waiting_for,
            waiting_label(session.waiting_for, self.catalog, session.state),
            session.legal_commands(),
            self.execute,
            None if undo is None else undo_label(undo, self.catalog, fortress),
            None if redo is None else undo_label(redo, self.catalog, fortress, redo=True),
        )
        self.game_view.redraw()

    def _survived(self, where: str, error: BaseException) -> None:
        if self._service is not None:
            self._service.survived(where, error)

    def on_stop(self) -> None:
        self.redraw_faults.uninstall()
        if self._service is not None:  # stopped before the table started: nothing to close
            self._service.close()
        self.collector.stop()  # its threads are stopped
