"""Settings: language (the voice follows it), text size (normal or large), voice on/off,
volume and speed, when the table opens its own Wi-Fi for the phones; stored in the database so
they come back after a restart."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.i18n import LANGUAGES, N_, tr
from companion.app.service import Settings
from ui.check_row import CheckRow
from ui.screens.page import PageScreen

VOLUME_STEP, SPEED_STEP = 20, 20
#: when the table opens its own Wi-Fi (companion/app/devices/hotspot.py)
HOTSPOT_CHOICES = (
    ("auto", N_("When no known Wi-Fi is in reach")),
    ("on", N_("Always")),
    ("off", N_("Only from the Phones screen")),
)


class SettingsScreen(PageScreen):
    voice_problem: str | None = None  # why the voice cannot speak, told by the table service
    settings: Settings | None = None  # None until first shown

    def show(
        self, settings: Settings, changed: Callable[[str], None], voice_problem: str | None = None
    ) -> None:
        self.settings, self.changed = settings, changed
        self.voice_problem = voice_problem
        self.fill()

    def voice_trouble(self, problem: str | None) -> None:
        """The voice stopped (or went back to) speaking while this screen is open."""
        if problem != self.voice_problem:
            self.voice_problem = problem
            if self.settings is not None:
                self.fill()

    def fill(self) -> None:
        s = self.settings
        assert s is not None, "show() first"
        self.clear(tr("Settings"))
        self.text(tr("Language"))
        for code, name in LANGUAGES.items():
            self.check(
                name,
                s.get("language") == code,
                lambda code=code: self._set("language", code),
                radio=True,
            )
        self.text(tr("Text size"))
        for size, name in (("normal", tr("Normal text")), ("large", tr("Large text"))):
            self.check(
                name,
                s.get("text_size") == size,
                lambda size=size: self._set("text_size", size),
                radio=True,
            )
        self.text(tr("Voice"))
        self.check(
            tr("Speak the game aloud"),
            bool(s.get("voice")),
            lambda: self._set("voice", not s.get("voice")),
        )
        if self.voice_problem is not None and s.get("voice"):
            self.text(tr("The voice cannot speak: {reason}").format(reason=self.voice_problem))
        volume = int(s.get("volume"))
        self.button(
            tr("Volume: {value} (tap: louder)").format(value=volume),
            lambda: self._set("volume", (volume + VOLUME_STEP) % 220),
        )
        speed = int(s.get("speed"))
        self.button(
            tr("Speed: {value} words/min (tap: faster)").format(value=speed),
            lambda: self._set("speed", 120 + (speed - 120 + SPEED_STEP) % 120),
        )
        self.text(tr("The table's own Wi-Fi for the phones"))
        for mode, name in HOTSPOT_CHOICES:
            self.check(
                tr(name),
                s.get("hotspot") == mode,
                lambda mode=mode: self._set("hotspot", mode),
                radio=True,
            )

    def check(
        self, text: str, active: bool, action: Callable[[], None], radio: bool = False
    ) -> None:
        """A drawn check box (round for one of several) with its words; the row is the target."""
        row = CheckRow(text=text, active=active, radio=radio)
        row.bind(on_release=lambda _row: action())
        self.ids.content.add_widget(row)

    def _set(self, key: str, value: object) -> None:
        assert self.settings is not None
        self.settings.set(key, value)
        self.changed(key)
        self.fill()
