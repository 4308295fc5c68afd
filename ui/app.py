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
from companion.boardfile import load_board_file
from companion.demo import demo_situation
from companion.engine.game import commands as c
from companion.engine.game.context import situation
from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from firmware_bridge.board import SimulatedBoard, node_ids, room_node
from ui import i18n
from ui.fortress_view import FortressView
from ui.labels import waiting_label
from ui.screens.hardware import HardwareScreen
from ui.screens.home import HomeScreen
from ui.screens.round import RoundScreen
from ui.tts import Silent, Speaker

#: Seats of a quick new game (the setup wizard will choose them): hero, ladder.
QUICK_SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


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
        self.situation = demo_situation(self.fortress)
        self.board: SimulatedBoard | None = None
        self.simulated_board = simulated_board
        self.manager = ScreenManager(transition=NoTransition())
        self.fortress_view = FortressView(self.fortress, self.situation)
        self.game_view = FortressView(self.fortress, self.situation)
        self.speaker: Speaker = speaker or Silent()
        data_dir().mkdir(parents=True, exist_ok=True)
        self.log = GameLog(data_dir() / "companion.db")
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
        self.can_resume = self.log.last_unfinished() is not None
        if self.simulated_board:
            self.board = SimulatedBoard(node_ids(self.fortress.rooms)).start()
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

    # ----- the game ----------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self.session = GameSession.start(self.log, seed, QUICK_SEATS)
        self.can_resume = True
        self._refresh()
        self.show("round")

    def resume_game(self) -> None:
        self.session = GameSession.resume(self.log)
        if self.session is not None:
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
