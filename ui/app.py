"""The touchscreen app: one ScreenManager, one Screen class + kv file per screen.

Hardware is the simulated board by default (nodes on pseudo-terminals): its LED rings are drawn
around the platforms on screen, and its health feeds the Hardware screen.
"""

from __future__ import annotations

import json
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from companion.app.hardware import health_view
from companion.boardfile import load_board_file
from companion.demo import demo_situation
from firmware_bridge.board import SimulatedBoard, node_ids, room_node
from ui import i18n
from ui.fortress_view import FortressView
from ui.screens.hardware import HardwareScreen
from ui.screens.home import HomeScreen


class ArmataApp(App):
    lang = StringProperty("en")
    can_resume = BooleanProperty(False)

    def __init__(self, simulated_board: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fortress = load_board_file()
        self.situation = demo_situation(self.fortress)
        self.board: SimulatedBoard | None = None
        self.simulated_board = simulated_board
        self.manager = ScreenManager(transition=NoTransition())
        self.fortress_view = FortressView(self.fortress, self.situation)

    # ----- kv helpers --------------------------------------------------------------------------
    def tr(self, text: str, _lang: str = "") -> str:
        """Translate; kv passes `app.lang` so the text follows a language switch."""
        return i18n.tr(text)

    def has_screen(self, name: str) -> bool:
        return self.manager.has_screen(name)

    def show(self, name: str) -> None:
        if self.manager.has_screen(name):
            self.manager.current = name

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
            self.fortress_view.leds = leds
            self.fortress_view.redraw()
        screen = self.manager.get_screen("hardware")
        assert isinstance(screen, HardwareScreen)
        screen.show_health(health_view(self.board.bridge))

    def on_stop(self) -> None:
        if self.board is not None:
            self.board.stop()


def settings_path() -> Path:
    return Path.home() / ".armata-companion" / "settings.json"


def load_settings() -> dict[str, object]:
    path = settings_path()
    return json.loads(path.read_text()) if path.exists() else {}
