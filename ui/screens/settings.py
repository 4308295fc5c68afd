"""Settings: language (the voice follows it), text size (normal or large), voice on/off,
volume and speed, when the table opens its own Wi-Fi for the phones; stored in the database so
they come back after a restart. Then the USB stick: back the games up onto one, restore them
from one, import a game from one, update from a release archive on one (the table service does
the work; this page shows what is under way and how it ended, below the buttons, so nothing
moves under a finger). A restore asks first: one tap on a backup only reads it off the stick
and says what it would replace; the games change on the second answer's button only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.app.service import Settings, UsbAsk, UsbChoice, UsbOutcome
from companion.app.session.text_size import STEPS, percent
from companion.app.words.i18n import LANGUAGES, N_, ngettext, tr
from ui.screens.page import PageScreen
from ui.widgets.check_row import CheckRow
from ui.widgets.glyphs import printable

Done = Callable[[UsbOutcome], None]


class UsbActions(Protocol):
    """What the page may ask of the table service about USB sticks."""

    @property
    def usb_busy(self) -> bool: ...

    def usb_backups(self) -> list[UsbChoice]: ...

    def usb_importable(self) -> list[UsbChoice]: ...

    def usb_releases(self) -> list[UsbChoice]: ...

    def usb_backup(self, done: Done) -> None: ...

    def usb_restore(self, backup: Path, done: Done, ask: UsbAsk | None = None) -> None: ...

    def usb_import(self, source: Path, done: Done) -> None: ...

    def usb_update(self, archive: Path, done: Done) -> None: ...


#: each choice page: its title, what it says above the files, when none is found, what the
#: status line says while it works
USB_PAGES = {
    "restore": (
        N_("Restore from a USB stick"),
        N_("Choose a backup. The games on the table are replaced by the backup's; the games "
           "they replace are kept aside on the table, never deleted."),
        N_("No backup of the table is on the USB stick (Back up to a USB stick makes one)."),
        N_("Restoring the games from the USB stick..."),
    ),
    "import": (
        N_("Import a game from a USB stick"),
        N_("Choose a file: a backup, a game export or a transcript. Its games are added to "
           "the table's games (History lists them); nothing is replaced."),
        N_("No backup, game export or transcript is on the USB stick."),
        N_("Importing from the USB stick..."),
    ),
    "update": (
        N_("Update from a USB stick"),
        N_("Choose a release (armata-companion-<version>.tar.gz). It is installed beside "
           "this version and tried on a copy of the games first; if it does not start, the "
           "table goes back to this version by itself."),
        N_("No release archive (armata-companion-<version>.tar.gz) is on the USB stick."),
        N_("Checking the release on the USB stick..."),
    ),
}  # fmt: skip

VOLUME_STEP, SPEED_STEP = 20, 20
#: the answers to "Restore this backup?" take a touch only this long after they appear: the
#: question comes where the backups' list was, and a quick second tap must not restore
ANSWER_AFTER_S = 0.6
#: when the table opens its own Wi-Fi (companion/app/devices/hotspot.py)
HOTSPOT_CHOICES = (
    ("auto", N_("When no known Wi-Fi is in reach")),
    ("on", N_("Always")),
    ("off", N_("Only from the Phones screen")),
)


class SettingsScreen(PageScreen):
    voice_problem: str | None = None  # why the voice cannot speak, told by the table service
    settings: Settings | None = None  # None until first shown
    usb: UsbActions | None = None
    usb_page: str | None = None  # a USB choice page ("restore", "import", "update") is shown
    #: the answer to "Restore this backup?" while it is asked (True: restore)
    _answer: Callable[[bool], None] | None = None
    _status: Widget | None = None  # the USB status line of the page shown

    def show(
        self,
        settings: Settings,
        changed: Callable[[str], None],
        voice_problem: str | None = None,
        usb: UsbActions | None = None,
    ) -> None:
        self.settings, self.changed = settings, changed
        self.voice_problem = voice_problem
        self.usb = usb
        self.usb_page = None
        self.fill()

    def go_back(self) -> None:
        if self._answer is not None:  # Back from the question: nothing is restored
            self._answer_restore(False)
            return
        if self.usb_page is not None:  # from a choice page back to the settings
            self.usb_page = None
            self.fill()
            return
        super().go_back()

    def voice_trouble(self, problem: str | None) -> None:
        """The voice stopped (or went back to) speaking while this screen is open."""
        if problem != self.voice_problem:
            self.voice_problem = problem
            if self.settings is not None and self.usb_page is None:
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
        for step in STEPS:  # a choice of big rows, the current one marked
            self.check(
                tr("{percent}%").format(percent=step),
                percent(s.get("text_size")) == step,
                lambda step=step: self._set("text_size", step),
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
        if self.usb is not None:
            self.text(tr("USB stick"))
            self.button(tr("Back up to a USB stick"), self._usb_backup)
            for page in USB_PAGES:
                self.button(tr(USB_PAGES[page][0]), lambda page=page: self.usb_choices(page))
            self._status_line()

    def _status_line(self) -> None:
        """Last on the page: what a USB task does or how it ended (nothing below it moves)."""
        self._status = Factory.PageText(text="")
        self.ids.content.add_widget(self._status)

    def usb_status(self, text: str) -> None:
        """Say it under the buttons, and bring it into sight once the finger is off (the
        USB part ends the page: its buttons stay in sight above it)."""
        status = self._status
        if status is None:
            return
        status.text = escape_markup(printable(text))
        Clock.schedule_once(lambda _dt: self._bring_into_sight(status), 0.05)

    def _bring_into_sight(self, status: Widget) -> None:
        scroll = self.ids.scroll  # a page shorter than the view stays at its top
        shown = status is self._status and status.parent is not None
        if shown and self.ids.content.height > scroll.height:
            scroll.scroll_to(status, padding=dp(6), animate=False)

    def _usb_backup(self) -> None:
        assert self.usb is not None
        if not self.usb.usb_busy:
            self.usb_status(tr("Backing up to the USB stick..."))
        self.usb.usb_backup(self._usb_done)

    def _usb_done(self, outcome: UsbOutcome) -> None:
        self.usb_status(outcome.text)

    def usb_choices(self, page: str) -> None:
        """The files on the stick for `page`, each a button (its printed name)."""
        assert self.usb is not None
        self.usb_page = page
        title, intro, none, _working = USB_PAGES[page]
        found = {
            "restore": self.usb.usb_backups,
            "import": self.usb.usb_importable,
            "update": self.usb.usb_releases,
        }[page]()
        self.clear(tr(title))
        self.text(tr(intro) if found else tr(none))
        for choice in found:
            self.button(choice.name, lambda choice=choice: self._usb_chosen(choice))
        if not found:
            self.button(tr("Look again"), lambda: self.usb_choices(page))
        self._status_line()

    def _usb_chosen(self, choice: UsbChoice) -> None:
        assert self.usb is not None and self.usb_page is not None
        if self.usb_page == "restore":  # read and counted first, then asked (_ask_restore)
            if not self.usb.usb_busy:
                self.usb_status(tr("Reading the backup on the USB stick..."))

            def asked(games: int, answer: Callable[[bool], None]) -> None:
                self._ask_restore(choice.name, games, answer)

            self.usb.usb_restore(choice.path, self._usb_done, asked)
            return
        if not self.usb.usb_busy:
            self.usb_status(tr(USB_PAGES[self.usb_page][3]))
        action = {"import": self.usb.usb_import, "update": self.usb.usb_update}[self.usb_page]
        action(choice.path, self._usb_done)

    def _ask_restore(self, backup: str, games: int, answer: Callable[[bool], None]) -> None:
        """What the backup would replace, with the two answers side by side (the safe one
        first); a page left meanwhile is never asked on (nothing is restored)."""
        if self.usb_page != "restore" or self._answer is not None:
            answer(False)
            return
        self._answer = answer
        self.clear(tr("Restore this backup?"))
        self.text(ngettext(
            "{backup} holds {count} game. It replaces the games saved on the table now.",
            "{backup} holds {count} games. They replace the games saved on the table now.",
            games,
        ).format(backup=backup, count=games))  # fmt: skip
        self.text(tr("Before that, a copy of the games as they are now is kept on the table, "
                     "never deleted."))  # fmt: skip
        self.row([(tr("Keep the games as they are"), lambda: self._answer_restore(False)),
                  (tr("Restore the backup"), lambda: self._answer_restore(True))])  # fmt: skip
        answers = list(self.ids.content.children[0].children)  # the row's two buttons
        for button in answers:  # the second tap of a double tap on a backup answers nothing
            button.disabled = True
        Clock.schedule_once(lambda _dt: _enable(answers), ANSWER_AFTER_S)
        self._status_line()

    def _answer_restore(self, yes: bool) -> None:
        """Restore (the outcome is said on a page of its own, with no button under the finger)
        or go back to the backups, nothing changed."""
        answer, self._answer = self._answer, None
        if answer is None:
            return
        if not yes:
            answer(False)
            self.usb_choices("restore")
            self.usb_status(tr("Nothing was restored."))
            return
        self.clear(tr(USB_PAGES["restore"][0]))
        self._status_line()
        self.usb_status(tr(USB_PAGES["restore"][3]))
        answer(True)

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


def _enable(buttons: list[Widget]) -> None:
    for button in buttons:
        button.disabled = False
