"""The touchscreen app: one ScreenManager, one Screen class + kv file per screen.

Hardware is the simulated board by default (nodes on pseudo-terminals): its LED rings are drawn
around the platforms on screen, and its health feeds the Hardware screen.
"""

from __future__ import annotations

import os
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from companion.app.announce import Announcement, Announcer, LedCue, show_cue
from companion.app.hardware import health_view
from companion.app.session import GameSession
from companion.app.setup_plan import SetupPlan
from companion.app.taps import Registration, Tap, TapFilter
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.demo import demo_situation
from companion.engine.board_build import load_board
from companion.engine.game import commands as c
from companion.engine.game.context import GameOptions, situation
from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from firmware_bridge import protocol as p
from firmware_bridge.board import SimulatedBoard, node_ids, room_node
from ui import i18n
from ui.fortress_view import FortressView
from ui.labels import waiting_label
from ui.screens.hardware import HardwareScreen
from ui.screens.home import HomeScreen
from ui.screens.round import RoundScreen
from ui.screens.setup import SetupScreen
from ui.tts import Silent, Speaker

#: The heroes a new game's wizard starts with (players change them on the first page).
FIRST_HEROES = ["roel", "matthew", "attila"]


def data_dir() -> Path:
    return Path(os.environ.get("ARMATA_DATA_DIR", Path.home() / ".armata-companion"))


class ArmataApp(App):
    lang = StringProperty("en")
    can_resume = BooleanProperty(False)

    def __init__(
        self, simulated_board: bool = True, speaker: Speaker | None = None, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)
        self.fortress = load_board_file()
        self.catalog = load_catalog()
        self.situation = demo_situation(self.fortress)
        self.board: SimulatedBoard | None = None
        self.simulated_board = simulated_board
        self.manager = ScreenManager(transition=NoTransition())
        self.fortress_view = FortressView(self.fortress, self.situation)
        self.game_view = FortressView(self.fortress, self.situation)
        self.setup_view = FortressView(self.fortress, self.situation)
        self.speaker: Speaker = speaker or Silent()
        data_dir().mkdir(parents=True, exist_ok=True)
        self.log = GameLog(data_dir() / "companion.db")
        self.registry = NfcRegistry(self.log.db)
        self.taps = TapFilter(self.registry)
        self.registration = Registration(self.registry)
        self.session: GameSession | None = None
        self.announcements: list[Announcement] = []
        self.published: list[bytes] = []
        self.refusals: list[str] = []
        self.announcer = Announcer(self._banner, self._speak, self._led, self.published.append)

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
        self.lang = language

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
        self.can_resume = self.log.last_unfinished() is not None
        if self.simulated_board:
            self.board = SimulatedBoard(
                node_ids(self.fortress.rooms), on_event=self._node_message
            ).start()
            Clock.schedule_interval(self._poll_hardware, 0.25)
        return self.manager

    def _poll_hardware(self, _dt: float = 0) -> None:
        if self.board is None:
            return
        leds = {}
        for room in self.fortress.rooms:
            node = self.board.nodes.get(room_node(room))
            ring = node.ring if node is not None else None
            leds[room] = ring.colour if ring is not None and ring.pattern != "off" else None
        if leds != dict(self.fortress_view.leds):
            for view in (self.fortress_view, self.game_view):
                view.leds = leds
                view.redraw()
        if self.manager.current == "hardware":  # only where it is seen
            screen = self.manager.get_screen("hardware")
            assert isinstance(screen, HardwareScreen)
            screen.show_health(health_view(self.board.bridge))

    # ----- node events (from the bridge's threads) ------------------------------------------------
    def _node_message(self, message: p.Message) -> None:
        Clock.schedule_once(lambda _dt: self.on_node_message(message), 0)

    def on_node_message(self, message: p.Message) -> None:
        """On the UI thread: a card placed on a reader becomes one tap for the screen showing."""
        tap = self.taps.feed(message)
        if tap is None:
            return
        if self.manager.current == "setup":
            screen = self.manager.get_screen("setup")
            assert isinstance(screen, SetupScreen)
            screen.on_tap(tap)
        elif self.manager.current == "round":
            self.card_tapped(tap)

    def card_tapped(self, tap: Tap) -> None:
        """A tapped action card chooses it for its hero (R-RND-1); the engine refuses it out of
        phase or when the card is not in hand, and the refusal shows as the banner."""
        if self.session is None:
            return
        if tap.binding is None:
            self._screen().banner_text = i18n.tr(
                "This tag is not registered yet: register it in a new game's setup."
            )
            return
        if tap.binding.kind not in ("action_card", "advanced_card"):
            return
        card = tap.binding.target
        holder = next((h.hero for h in self.session.state.heroes if card in h.hand), None)
        if holder is None:
            self._screen().banner_text = i18n.tr("{card} is in nobody's hand.").format(card=card)
            return
        self.execute(c.ChooseCard(hero=holder, card=card))

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

    def _cards_of(self, hero: str) -> list[str]:
        return self.catalog.hero_cards(hero)

    def new_game(self, seed: int | None = None, plan: SetupPlan | None = None) -> None:
        """Start a game from the wizard's plan (default: the printed layout and its first
        ladders, for scripts and benchmarks)."""
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
        self.can_resume = True
        self._refresh()
        self.show("round")

    def resume_game(self) -> None:
        self.session = GameSession.resume(self.log)
        if self.session is not None:
            self.game_view.fortress = self.session.rules.fortress
            self._refresh()
            self.show("round")

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
        self._screen().banner_text = ""
        self.announcements += self.announcer.after_command(session.rules, before, events)
        self._refresh()

    def undo(self) -> None:
        if self.session is not None and self.session.head > 1:
            self.session.undo()
            self._refresh()

    def _screen(self) -> RoundScreen:
        screen = self.manager.get_screen("round")
        assert isinstance(screen, RoundScreen)
        return screen

    def _refresh(self) -> None:
        session = self.session
        if session is None:
            return
        self.game_view.situation = situation(session.rules, session.state)
        self._screen().show_options(
            session.state,
            waiting_label(session.waiting_for),
            session.legal_commands(),
            self.execute,
            self.game_view,
        )
        self.game_view.redraw()

    # ----- announcement outputs ------------------------------------------------------------------
    def _banner(self, announcement: Announcement) -> None:
        self._screen().banner_text = announcement.headline

    def _speak(self, text: str) -> None:
        self.speaker.say(text, self.lang)

    def _led(self, cue: LedCue) -> None:
        if self.board is not None and cue.node in self.board.nodes:
            show_cue(self.board.bridge, cue)

    def on_stop(self) -> None:
        if self.board is not None:
            self.board.stop()
        self.log.close()
