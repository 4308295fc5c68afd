"""The table service: the one object that owns a table's game — the game session and its log,
the board's nodes and the sensed table, the LED picture, the announcer and the voice, the game
feed for other screens, the Pi's buttons — and that every front end drives: the touchscreen app
(ui/), the headless table (`python -m companion serve`), the tests and the benchmarks.

A front end forwards gestures (a command, undo, a tap answered) and renders what the service
tells it through `TableListener`. Threads: the bridge's, the table watch's and gpiozero's
callbacks never touch the game; they go through `post`, which runs a call on the front end's own
thread (Kivy's clock, or the headless loop's queue).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.app.devices import usb as sticks
from companion.app.devices.controls import Controls, open_controls
from companion.app.devices.faults import ThreadFault, ThreadFaults
from companion.app.devices.hotspot import Credentials, Mode, WifiState, WifiWorker
from companion.app.devices.leds import LedSync
from companion.app.devices.mqtt_feed import GameFeed
from companion.app.devices.nodes import BoardHardware, health_view, register_stickers
from companion.app.devices.simulated_hands import (
    Arrangement,
    HandMove,
    SimulatedHands,
    SimulatedRoom,
)
from companion.app.devices.troubles import Troubles
from companion.app.devices.usb import Drive, UsbWorker
from companion.app.devices.usb import finder as usb_finder
from companion.app.devices.voice import SettingsVoice, Speaker
from companion.app.devices.watch import NO_GAME, TableWatch, game_view, origin_of
from companion.app.session.backups import back_up_after_game
from companion.app.session.game import GameSession
from companion.app.session.log_open import open_log as open_log
from companion.app.session.log_open import start_fresh_log as start_fresh_log
from companion.app.session.setup_plan import SetupPlan
from companion.app.session.update_news import UpdateNews, take_update_news
from companion.app.story.announce import Announcer, announcements, undone
from companion.app.story.announcement import Announcement
from companion.app.story.cards import spoken
from companion.app.story.line_cards import order_words
from companion.app.table.differences import Difference, expected_from_game
from companion.app.table.resync import missing_hero, table_is_right
from companion.app.table.taps import Registration, TagIndex, Tap, TapFilter
from companion.app.table.tracking import Origin, TableStatus, TableTracker
from companion.app.web.address import interface_addresses, preferred
from companion.app.web.feed import WebFeed
from companion.app.web.local_name import local_name
from companion.app.words import i18n
from companion.app.words.i18n import N_
from companion.app.words.names import set_ladder_owners, table_name
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.board_build import load_board
from companion.engine.components import Catalog
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions
from companion.engine.game.state import GameState
from companion.errors import (
    CompanionError,
    IllegalCommand,
    LogFull,
    LogReadOnly,
    NotExportable,
    StoreError,
)
from companion.store.location import data_dir
from companion.store.nfc import Binding, NfcRegistry
from companion.store.settings import Settings
from firmware_bridge import protocol as p
from firmware_bridge.board import room_node

if TYPE_CHECKING:  # paho-mqtt is imported only when a broker is set up (node_options.py)
    from firmware_bridge.mqtt_link import GamePublisher

#: The heroes a new game's wizard starts with (players change them on its first page).
FIRST_HEROES = ("roel", "matthew", "attila")
log_aside = logging.getLogger(__name__)

#: A node not heard for this long makes the Pi's status LED blink (the bridge pings every 2 s).
SILENT_NODE_S = 5.0
#: How long closing waits for the nodes to acknowledge "ring off" (seconds).
RINGS_OFF_WAIT_S = 1.0

#: Runs a call on the front end's own thread (never the caller's).
Post = Callable[[Callable[[], None]], None]


class TableListener(Protocol):
    """What a front end is told; every call arrives on its own thread (through `post`)."""

    def announced(self, announcement: Announcement, words: str) -> None:
        """An announcement (a Strigoi step, a curse, a collapse) to show."""

    def table_changed(self, status: TableStatus) -> None:
        """What the readers see, its differences from the game and the alerts, changed."""

    def tapped(self, tap: Tap) -> None:
        """A tag was tapped on a reader (a card, a figure, an unknown tag)."""

    def button(self, name: str) -> None:
        """One of the Pi's buttons was pressed: confirm, undo or next."""

    def troubled(self, troubles: Troubles) -> None:
        """The voice stopped (or went back to) speaking, or a background thread failed."""

    def wifi_changed(self, state: WifiState) -> None:
        """The Pi's Wi-Fi changed: the table's own access point opened or closed, or failed."""


class Unheard:
    """A listener that is told nothing (the service alone, in tests)."""

    def announced(self, announcement: Announcement, words: str) -> None: ...

    def table_changed(self, status: TableStatus) -> None: ...

    def tapped(self, tap: Tap) -> None: ...

    def button(self, name: str) -> None: ...

    def troubled(self, troubles: Troubles) -> None: ...

    def wifi_changed(self, state: WifiState) -> None: ...


@dataclass
class Outcome:
    """What a command did: its events and announcements, or why it was refused."""

    events: list[e.Event] = field(default_factory=list)
    announced: list[Announcement] = field(default_factory=list)
    refused: str | None = None
    revealed: str = ""  # the cards and turn order, when this command revealed them
    over: e.GameOver | None = None


@dataclass(frozen=True)
class GameSummary:
    """One stored game as the History screen lists it."""

    game_id: str
    created_at: str
    heroes: tuple[str, ...]
    rounds: int  # 0: the log is damaged (the game is still listed)
    status: str  # "playing" or "over"
    winner: str | None


def store_refusal(problem: StoreError) -> str:
    """What a table says when the log refused a write (the game itself is unchanged)."""
    if isinstance(problem, LogFull):
        return i18n.tr("No space left: the last move was not saved. Free some space and try again.")
    if isinstance(problem, LogReadOnly):
        return i18n.tr("The game log is read-only: games can be viewed and exported, not played.")
    return str(problem)


def reveal_text(state: GameState, events: list[e.Event], catalog: Catalog) -> str:
    """After the last choice: every card shown together with the turn order and the initiative
    that decides it (R-RND-1, -2), in the words of the story's "order" item."""
    revealed = next((x for x in events if isinstance(x, e.CardsRevealed)), None)
    if revealed is None:
        return ""
    cards = {h.hero: h.chosen or (h.played[-1] if h.played else "?") for h in state.heroes}
    return order_words(catalog, revealed.order, cards)


@dataclass(frozen=True)
class UsbChoice:
    """A file on a USB stick as a screen lists it: its path and its printed name."""

    path: Path
    name: str


@dataclass(frozen=True)
class UsbOutcome:
    """How a USB task ended, in plain words (`ok`: done; else nothing was changed)."""

    ok: bool
    text: str


#: told the outcome of a USB task, on the service's thread
UsbDone = Callable[[UsbOutcome], None]
#: asked before a restore: the backup's number of games, and the answer to call (True: restore)
UsbAsk = Callable[[int, Callable[[bool], None]], None]


def usb_words(kind: str, detail: str = "") -> str:
    """What a USB problem (companion/app/devices/usb.py `UsbProblem.kind`) means, in words."""
    words = {
        "missing": N_("No USB stick was found (or it was taken out). Put one in and try again: "
                      "nothing was changed."),
        "read_only": N_("The USB stick is read-only: nothing was written to it."),
        "full": N_("The USB stick is full: nothing was written to it. Free some space on it "
                   "and try again."),
        "bad_backup": N_("This file is not a backup this version can read ({reason}): nothing "
                         "was changed."),
        "bad_file": N_("No game could be read from this file ({reason}): nothing was "
                       "imported."),
        "no_games": N_("This backup holds no game: nothing was imported."),
        "bad_archive": N_("This file is not a release of the table companion ({reason}): "
                          "nothing was installed."),
        "not_newer": N_("Version {version} is not newer than the one running: nothing was "
                        "installed."),
    }  # fmt: skip
    text = words.get(kind)
    if text is None:
        return _nothing_changed(detail or kind)
    return i18n.tr(text).format(reason=detail, version=detail)


def _backup_name(path: Path) -> str:
    """A backup as the players know it: when it was made (local time)."""
    from companion.store.backup import Backup

    backup = Backup.of(path)
    made = backup.made.astimezone().strftime("%Y-%m-%d %H:%M") if backup else path.name
    return i18n.tr("Backup of {time}").format(time=made)


def _nothing_changed(reason: str) -> str:
    return i18n.tr("That did not work ({reason}): nothing was changed.").format(reason=reason)


def _table_of(session: GameSession) -> Arrangement:
    """The table as the game has it: each cut-out room's platform and rotation, each centre's
    figure (what the simulated hands set up, and what a resumed simulated table stands as)."""
    expected = expected_from_game(session.rules, session.state)
    platforms = {room: (x.platform, x.rotation or 0) for room, x in expected.items() if x.cutout}
    return Arrangement(platforms, {room: x.figure for room, x in expected.items()})


class TableService:
    """One table: its game, its log, its nodes, its voice and its buttons."""

    def __init__(
        self,
        data: Path,
        post: Post,
        *,
        hardware: BoardHardware | None = None,
        speaker: Speaker | None = None,
        publisher: GamePublisher | None = None,
        controls: Controls | None = None,
        web: WebFeed | None = None,
        usb: Callable[[], list[Drive]] | None = None,
        report_root: Path = Path("/"),
    ) -> None:
        self.post = post
        #: the mounted USB sticks (companion/app/devices/usb.py); a folder of them in tests
        self.usb_drives = usb or usb_finder()
        self.report_root = report_root  # the system a report reads ("/"; a staging folder)
        self._usb = UsbWorker()
        self._usb_busy = False
        self.listener: TableListener = Unheard()
        self.fortress = load_board_file()
        self.catalog = load_catalog()
        self.data = data
        # first: a log that cannot be played (LogDamaged, LogTooNew, LogUnreadable; nothing
        # written) stops the table before any node or thread starts
        self.log = open_log(data)
        #: a read-only log (folder or file not writable): games viewed and exported, not played
        self.read_only = self.log.read_only
        #: the nodes; by default the simulated board (a table of platforms and figures too)
        self.hardware = hardware or BoardHardware.simulated_board(self.fortress)
        self.settings = Settings(self.log.db)
        self.faults = ThreadFaults(self._fault_from_thread)
        self.speaker: Speaker = speaker or SettingsVoice(self.settings, self._voice_from_thread)
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
            self.tracker, list(self.fortress.rooms), LedSync(bridge), self._status_from_watch
        )
        self.controls = controls or open_controls(
            self._button_from_pins, mock=self.hardware.simulated is not None
        )
        #: what keeps the table from working as it should (the pins, the voice, failed threads)
        self.troubles = Troubles(controls=self.controls.off)
        self.session: GameSession | None = None
        #: the game's announcements so far (each holds the board it showed: not kept past it)
        self.announcements: list[Announcement] = []
        self.refusals: list[str] = []
        self.publisher = publisher  # the broker's game topics; None: the events stay here
        self.feed = GameFeed(self._publish)
        self.web = web  # the table view in browsers (ui/web): one more listener
        # LED cues are not sent one by one: the table watch derives every ring from the state
        self.announcer = Announcer(
            self._announce,
            self.speak,
            lambda cue: None,
            self.feed.announcement,
            i18n.tr,
            table_name,
            say=lambda a: spoken(self.catalog, a, self._game_fortress()),
            plural=i18n.ngettext,
            english=self._english,
        )
        self.language = "en"
        #: the Pi's Wi-Fi as last read (the phones' way in); known once a public web started
        self.wifi_state = WifiState("no_manager")
        self._wifi: WifiWorker | None = None
        table = self.hardware.table
        #: the simulated table's hands (None on a real board): moves done on their own thread
        self.hands = SimulatedHands(table) if table is not None else None
        self._closed = False

    # ----- lifecycle ---------------------------------------------------------------------------
    def start(self, listener: TableListener | None = None) -> None:
        """Listen to the nodes, the readers and the buttons; every ring off until a game."""
        if listener is not None:
            self.listener = listener
        self.faults.install()
        self.set_language(str(self.settings.get("language")))
        if self.publisher is not None:
            self.publisher.start_publishing()
        self.watch.start()
        self.watch.game(NO_GAME)  # whatever an earlier run left lit
        self.hardware.start(self._node_message)
        if self.web is not None:
            self._remember_seats(self.web)
            self.web.start()
            self._start_wifi()

    def web_lines(self) -> list[str]:
        """The phones' server on the Hardware screen (none when the table view is off)."""
        return [] if self.web is None else [self.web.load_line()]

    def open_web(self, web: WebFeed) -> None:
        """The table view in browsers, opened after the start (the touchscreen's first frame
        does not wait for its server): it starts showing the game as it is."""
        if self._closed:
            return
        self.web = web
        self._remember_seats(web)
        web.start()
        self._start_wifi()
        self._web_changed()

    def _remember_seats(self, web: WebFeed) -> None:
        """The phones' seat links outlive a restart: kept with the settings (issue 41)."""
        web.remember(
            self.settings.get("seat_tokens"), lambda saved: self.settings.set("seat_tokens", saved)
        )

    def close(self) -> None:
        """Turn every ring off, stop every thread and close the log (a second call does
        nothing). A stopped app shows nothing: rings left lit would tell a game nobody runs."""
        if self._closed:
            return
        self._closed = True
        self.watch.game(NO_GAME)  # handled before the watch stops
        self.watch.stop()
        # the nodes online acknowledge within milliseconds; one that does not holds the stop for
        # at most this long
        self.hardware.bridge.wait_acked(RINGS_OFF_WAIT_S, online_only=True)
        self.controls.close()
        if self.hands is not None:
            self.hands.close(RINGS_OFF_WAIT_S)  # the simulated hands finish what they hold
        self.hardware.stop()
        if self.publisher is not None:
            self.publisher.stop()
        if self.web is not None:
            self.web.stop()
        if self._wifi is not None:
            self._wifi.stop()
        self._usb.stop()
        self.faults.uninstall()
        self.log.close()

    def __enter__(self) -> TableService:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ----- language and voice ------------------------------------------------------------------
    def set_language(self, language: str) -> bool:
        """Switch every text and the voice; True when it changed (the old sentences stop)."""
        i18n.set_language(language)
        changed = language != self.language
        self.language = language
        if self.settings.get("language") != language:
            self.settings.set("language", language)
        if changed:
            self.speaker.interrupt()
        return changed

    def speak(self, text: str) -> None:
        self.speaker.say(text, self.language)

    # ----- the game ----------------------------------------------------------------------------
    def default_plan(self) -> SetupPlan:
        """The printed layout, three heroes on the first ladders (scripts, benchmarks, serve)."""
        plan = SetupPlan.from_fortress(self.fortress, list(FIRST_HEROES))
        ladders = sorted(self.fortress.ladders.values(), key=lambda x: x.id)
        for i, ladder in enumerate(ladders[: len(plan.seats)]):
            plan.place_ladder(i, ladder.room, ladder.side)
        return plan

    def new_game(self, seed: int | None = None, plan: SetupPlan | None = None) -> GameSession:
        """A game from the wizard's plan (default: `default_plan`); a random seed unless given.
        A read-only or full log refuses it (`LogReadOnly`, `LogFull`, in the players' words)."""
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        plan = plan or self.default_plan()
        try:
            session = GameSession.start(
                self.log,
                seed,
                plan.game_seats(),
                GameOptions(physical=frozenset(plan.physical)),
                load_board(plan.game_board()),
            )
        except (LogFull, LogReadOnly) as problem:  # nothing stored: said in the players' words
            raise type(problem)(store_refusal(problem)) from None
        self._simulated_table_as_left(session, platforms=False)
        self._playing(session, Origin.NEW_GAME)
        self.feed.after_command(session.state, session.log.events(session.game_id))
        self._web_changed()
        return session

    def resume(self, game_id: str | None = None) -> GameSession | None:
        """The last unfinished game (or `game_id`), as it was after its last command."""
        session = (
            GameSession.resume(self.log) if game_id is None else GameSession(self.log, game_id)
        )
        if session is not None:
            self._simulated_table_as_left(session)
            self._playing(session, Origin.RESUME)
            self.feed.state(session.state)
            self._web_changed()
        return session

    def _playing(self, session: GameSession, origin: Origin) -> None:
        self.session = session
        self.announcements = []  # this game's only: a kiosk plays game after game
        set_ladder_owners(self.log.game(session.game_id).seats)
        self.speaker.interrupt()  # nothing of an earlier game is still said
        self.watch.game(game_view(session.rules, session.state, origin))

    def can_resume(self) -> bool:
        return self.log.last_unfinished() is not None

    def execute(self, command: c.Command) -> Outcome:
        """Apply a command; its announcements are shown and spoken, the LEDs and the feed follow.
        A refusal changes nothing and says why."""
        session = self.session
        if session is None:
            return Outcome(refused=i18n.tr("No game is being played."))
        before = session.state
        try:
            events = session.execute(command)
        except StoreError as problem:  # a full disk, a read-only log: nothing changed
            self.refusals.append(store_refusal(problem))
            return Outcome(refused=store_refusal(problem))
        except CompanionError as refusal:
            self.refusals.append(str(refusal))
            return Outcome(refused=str(refusal))
        self.feed.after_command(session.state, events)
        announced = self.announcer.after_command(session.rules, before, events, command)
        self.announcements += announced
        # the rings tell the story's first item; the front end moves them on (`showing`)
        view = game_view(session.rules, session.state, origin_of(command), announced[:1])
        self.watch.game(view)
        self._web_changed(announced, events)
        if any(a.kind == "strigoi_step" for a in announced):
            self.controls.beep()
        over = next((x for x in events if isinstance(x, e.GameOver)), None)
        if over is not None:
            back_up_after_game(self.log)  # a rotating backup beside the log (issue 42)
        return Outcome(
            events,
            announced,
            revealed=reveal_text(session.state, events, self.catalog),
            over=over,
        )

    def showing(self, announcement: Announcement | None) -> None:
        """The story item whose card shows now (None: every card read): the LED rings follow
        it, so rings, card, banner and voice tell the same item in the same order, and no
        ring stays lit for an item already read."""
        self.watch.announcing(() if announcement is None else (announcement,))

    def _english(self, announcement: Announcement) -> str:
        """A story item's words in English: the published game event says what the table
        hears, in the one language every observer reads."""
        with i18n.translating(i18n.catalog("en")):
            return spoken(self.catalog, announcement, self._game_fortress())

    def _game_fortress(self) -> Fortress:
        return self.session.rules.fortress if self.session is not None else self.fortress

    def undo(self) -> bool:
        session = self.session
        if session is None or session.head == 0:
            return False
        return self.rewind(session.head - 1)

    def redo(self) -> bool:
        session = self.session
        if session is None or session.command_at(session.head + 1) is None:
            return False
        return self.rewind(session.head + 1)

    def rewind(self, head: int) -> bool:
        """Undo, redo, or back to any step: the state, the LEDs and the feed follow; what was
        being said stops. A redo brings its command's story back: its announcements are shown,
        spoken and lit again (`announcements` ends with them). False when the log refused it
        (a full disk: nothing moved)."""
        session = self.session
        if session is None:
            return False
        before = session.state
        redone = session.log.command(session.game_id, head) if head == session.head + 1 else None
        # the steps an undo takes back, newest first: each is told ("Undone: …", issue 40)
        taken_back = [
            record.command
            for n in range(session.head, head, -1)
            if (record := session.log.command(session.game_id, n)) is not None
        ]
        try:
            session.rewind(head)
        except StoreError as problem:  # the head stays where it was, in the log and here
            self.refusals.append(store_refusal(problem))
            return False
        self.feed.state(session.state)
        self.speaker.interrupt()  # what was being said stops: the undo is said instead
        announced: list[Announcement] = [undone(x, session.state) for x in taken_back]
        events: list[e.Event] = []
        if redone is not None:
            events = session.events_of(redone)
            announced = announcements(session.rules, before, events, redone.command)
        self.announcer.tell(announced)
        self.announcements += announced
        self._web_changed(announced, events)
        # as after a command: the rings tell the story's first item, the cards move them on
        self.watch.game(game_view(session.rules, session.state, Origin.UNDO, announced[:1]))
        return True

    def leave_game(self) -> None:
        """Back home after a game that is over: nothing of it stays lit, current or in memory
        (each announcement holds the game state it showed: a long game's are megabytes)."""
        session = self.session
        if session is not None and session.state.phase == "over":
            self.session = None
            self.announcements = []
            self.speaker.interrupt()
            self.watch.game(NO_GAME)

    def release_memory(self) -> None:
        """The table idle after a game: the log's page cache goes back (ui/memory.py says what
        else is given back then)."""
        self.log.release_memory()

    def last_group(self) -> SetupPlan:
        """The wizard's start: the last game's group (its heroes in seat order on their
        ladders, its layout and its physical stacks), or the printed layout with three heroes
        when no game was played yet."""
        games = self.log.games()
        if not games:
            return SetupPlan.from_fortress(self.fortress, list(FIRST_HEROES))
        last = games[-1]
        try:
            return SetupPlan.from_game(
                self.fortress, last.board, last.seats, last.options.get("physical", [])
            )
        except (CompanionError, KeyError, TypeError, ValueError):  # a layout not accepted now
            return SetupPlan.from_fortress(self.fortress, list(FIRST_HEROES))

    def history(self, newest: int = 30) -> list[GameSummary]:
        """The `newest` stored games, newest first."""
        found = []
        for record in list(reversed(self.log.games()))[:newest]:
            try:
                rounds = self.log.state(record.id).round
            except CompanionError:  # a damaged game is listed, not fatal
                rounds = 0
            heroes = tuple(hero for hero, _ladder in record.seats)
            found.append(
                GameSummary(
                    record.id, record.created_at, heroes, rounds, record.status, record.winner
                )
            )
        return found

    def export_game(self, game_id: str) -> Path:
        """A stored game as an armata-transcript/1 file in the data folder's exports/ (when the
        folder is read-only: in the temporary folder's armata-exports/)."""
        from companion.transcript import dumps, export_game

        try:
            text = dumps(export_game(self.log, game_id))
        except IllegalCommand as problem:  # an older version's rules recorded it
            raise NotExportable(
                f"game {game_id} cannot be replayed by this version's rules, so it cannot be "
                f"exported as a transcript (an older version recorded it): {problem}"
            ) from problem
        # a read-only data folder: the temporary folder instead (the path is shown)
        for folder in (self.data / "exports", Path(tempfile.gettempdir()) / "armata-exports"):
            path = folder / f"game-{game_id}.json"
            try:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            except OSError:
                continue
            return path
        raise StoreError(f"no folder to write game-{game_id}.json in")

    # ----- the sensed table --------------------------------------------------------------------
    def can_correct(self, difference: Difference) -> bool:
        session = self.session
        if session is None:
            return False
        state = session.state
        return bool(table_is_right(session.rules, state, difference)) or bool(
            missing_hero(state, difference)
        )

    def table_is_right(self, difference: Difference) -> str | None:
        """Record the table's reality (corrections, undoable). A hero missing from the table
        cannot be placed by a correction: their name is returned, to be placed by hand."""
        session = self.session
        if session is None:
            return None
        corrections = table_is_right(session.rules, session.state, difference)
        for command in corrections:
            self.execute(command)
        return None if corrections else missing_hero(session.state, difference)

    def app_is_right(self, difference: Difference) -> None:
        self.watch.app_is_right(difference)  # the room lights up; the entry goes once it matches
        self.simulated_hands()  # on the simulated board nobody else would put it back

    def done_by_hand(self) -> None:
        """The table did what the game asked (a table without tags); on the simulated board
        its figures and platforms are moved as the game says, as players would have."""
        self.watch.done_by_hand(None)
        self.simulated_hands()

    def _simulated_table_as_left(self, session: GameSession, platforms: bool = True) -> None:
        """A resumed game on the simulated board: its table stands as the game has it (issue
        40, item 8). A real table keeps its platforms and figures while the app restarts; the
        simulated one lives in the app and would come back as the printed layout, empty,
        raising differences nobody made ("table differs", every ring amber). A new game
        (`platforms` False) finds the figures of the game before cleared off the centres, as
        players clear a board; its platforms are set up by the new game's own to-dos."""
        table = self.hardware.table
        if table is None:
            return
        if self.hands is not None:
            self.hands.idle(RINGS_OFF_WAIT_S)  # hands still at work set another game's table
        placed = _table_of(session)
        table.stand_as(placed.platforms if platforms else {}, placed.figures)

    def simulated_hands(self) -> bool:
        """Set the simulated table up as the game says (False: the board is real, or no game
        is played). The hands are given what to do as values: they never read the game."""
        session = self.session
        if self.hands is None or session is None:
            return False
        return self.hands.give(_table_of(session))

    def move_by_hand(self, move: HandMove) -> bool:
        """A move on the simulated table (the Table screen's buttons): done by its hands, on
        their thread (False: the board is real)."""
        return self.hands is not None and self.hands.give(move)

    def simulated_rooms(self) -> Mapping[str, SimulatedRoom]:
        """What stands in each room of the simulated table now, as values (empty: real board)."""
        table = self.hardware.table
        if table is None:
            return {}
        return {
            room_id: SimulatedRoom(room.platform, room.rotation, room.figure)
            for room_id, room in table.rooms.items()
        }

    def tag_binding(self, uid: str) -> Binding | None:
        """What a tag stands for (None: not registered)."""
        return self.tags.lookup(uid)

    def register_tag(self, uid: str, kind: str, target: str) -> None:
        """Bind a tag to what the players said it is (refused with a CompanionError)."""
        self.registry.bind(uid, kind, target)
        self.tags.refresh()

    # ----- nodes, readers, buttons -------------------------------------------------------------
    def ring_colours(self) -> dict[str, str | None]:
        """The colour each room's LED ring shows now (None: dark)."""
        leds: dict[str, str | None] = {}
        for room in self.fortress.rooms:
            ring = self.hardware.ring(room_node(room))
            leds[room] = ring.colour if ring is not None and ring.pattern != "off" else None
        return leds

    def ring_segments(self) -> dict[str, dict[int, str]]:
        """The ring segments each room's node shows lit apart (the edge a book must face, an
        attack's side): room -> {direction: colour}."""
        found: dict[str, dict[int, str]] = {}
        simulated = self.hardware.simulated
        for room in self.fortress.rooms:
            node = room_node(room)
            if simulated is not None:
                sim = simulated.nodes.get(node)
                lit = dict(sim.segments) if sim is not None else {}
                segments = {d: led.colour for d, led in lit.items() if led.pattern != "off"}
            else:  # a real node: what the watch last sent it
                show = self.watch.picture.get(node)
                segments = (
                    {}
                    if show is None
                    else {d: light.colour for d, light in show.segments if light.pattern != "off"}
                )
            if segments:
                found[room] = segments
        return found

    def nodes_heard(self) -> bool:
        """Every node answered lately (the Pi's status LED is steady then, else it blinks)."""
        view = health_view(self.hardware.bridge)
        return all(
            row.online and row.seen_s_ago is not None and row.seen_s_ago < SILENT_NODE_S
            for row in view.nodes
        )

    def poll(self) -> None:
        """The status LED follows the nodes (called a few times a second)."""
        self.controls.show_status("ready" if self.nodes_heard() else "busy")

    def _node_message(self, message: p.Message) -> None:  # a bridge thread
        self.watch.node_message(message)  # the table watch: platforms and figures
        self.post(lambda: self._tag(message))

    def _tag(self, message: p.Message) -> None:
        tap = self.taps.feed(message)
        if tap is not None:
            self.listener.tapped(tap)

    def _status_from_watch(self, status: TableStatus) -> None:  # the table watch's thread
        self.post(lambda: self._status(status))

    def _status(self, status: TableStatus) -> None:
        before = {a.key for a in self.table_status.alerts}
        self.table_status = status
        if any(a.key not in before for a in status.alerts):
            self.controls.beep(2)  # a new difference nobody asked for
        self.listener.table_changed(status)

    def _button_from_pins(self, name: str) -> None:  # gpiozero's thread
        self.post(lambda: self.listener.button(name))

    # ----- troubles ---------------------------------------------------------------------------
    def _voice_from_thread(self, problem: str | None) -> None:  # the voice's thread
        self.post(lambda: self._troubled(replace(self.troubles, voice=problem)))

    def _fault_from_thread(self, fault: ThreadFault) -> None:  # the failing thread
        count = self.faults.count
        self.post(
            lambda: self._troubled(replace(self.troubles, thread_faults=count, last_fault=fault))
        )

    def survived(self, where: str, error: BaseException) -> None:
        """A front end lived through an error (the touchscreen's redraw out of files): counted
        and shown with the background tasks' faults (any thread)."""
        self.faults.survived(where, error)

    def _troubled(self, troubles: Troubles) -> None:
        self.troubles = troubles
        self.listener.troubled(troubles)

    # ----- the phones' Wi-Fi (companion/app/devices/hotspot.py) --------------------------------
    @property
    def hotspot_mode(self) -> Mode:
        """When the table opens its own Wi-Fi: "auto" (at the start, when no network is in
        reach), "on" (at every start, and now) or "off" (never by itself)."""
        mode = self.settings.get("hotspot")
        return mode if mode in ("auto", "on", "off") else "auto"

    def set_hotspot_mode(self, mode: Mode) -> None:
        """Store the choice and act on it now: "on" opens the access point, "off" closes it."""
        self.settings.set("hotspot", mode)
        if self._wifi is not None:
            if mode == "on":
                self._wifi.ask("open", self.hotspot_credentials())
            elif mode == "off":
                self._wifi.ask("close")

    def open_hotspot(self, on: bool) -> None:
        """The Phones screen's switch: open now (and at each start), or close now and open
        again by itself only where no network is in reach ("auto")."""
        self.settings.set("hotspot", "on" if on else "auto")
        if self._wifi is not None:
            if on:
                self._wifi.ask("open", self.hotspot_credentials())
            else:
                self._wifi.ask("close")

    def hotspot_credentials(self) -> Credentials:
        """The access point's name and password, made once and kept with the settings."""
        kept = Credentials.read(self.settings.get("hotspot_credentials"))
        if kept is None:
            kept = Credentials.new()
            self.settings.set("hotspot_credentials", kept.stored())
        return kept

    def _start_wifi(self) -> None:
        """With the phones' server listening beyond this machine: read the Wi-Fi, and open the
        access point as the setting says (on a worker thread: nmcli takes seconds)."""
        if self._wifi is not None or self.web is None or not self.web.public or self._closed:
            return
        self._wifi = WifiWorker(
            self._wifi_from_thread,
            lambda: bool(preferred(interface_addresses())),
            named=local_name,
        )
        self._wifi.start()
        mode = self.hotspot_mode
        if mode == "off":
            self._wifi.ask("state")
        else:
            self._wifi.ask("open" if mode == "on" else "auto", self.hotspot_credentials())

    def read_network(self) -> None:
        """Read the Wi-Fi and the Pi's name on the network again (the Phones screen opens);
        `wifi_changed` tells what was found."""
        if self._wifi is not None:
            self._wifi.ask("state")

    def _wifi_from_thread(self, state: WifiState) -> None:  # the Wi-Fi worker's thread
        self.post(lambda: self._wifi_changed(state))

    def _wifi_changed(self, state: WifiState) -> None:
        self.wifi_state = state
        self.listener.wifi_changed(state)

    # ----- USB sticks (companion/app/devices/usb.py; Settings and Hardware) -----------------
    @property
    def usb_busy(self) -> bool:
        """A USB task is under way (one at a time)."""
        return self._usb_busy

    def usb_backups(self) -> list[UsbChoice]:
        """The table's backups on the sticks, newest first, by the time they were made."""
        return [UsbChoice(p, _backup_name(p)) for p in sticks.backups_on(self.usb_drives())]

    def usb_importable(self) -> list[UsbChoice]:
        return [UsbChoice(p, p.name) for p in sticks.importable_on(self.usb_drives())]

    def usb_releases(self) -> list[UsbChoice]:
        return [UsbChoice(p, p.name) for p in sticks.releases_on(self.usb_drives())]

    def update_news(self) -> UpdateNews | None:
        """How the last update ended, the first time it is asked after it; then None."""
        return take_update_news(self.data)

    def usb_backup(self, done: UsbDone) -> None:
        """Back the game log up onto the first stick (its rotating backups' folder)."""
        drive = self._first_drive(done)
        if drive is None:
            return
        log_path = self.log.path

        def finished(result: object) -> None:
            if isinstance(result, Path):
                done(UsbOutcome(True, i18n.tr(
                    "The games are backed up on the USB stick {stick}, in its folder {folder}."
                        ).format(stick=drive.name, folder=result.parent.name)))  # fmt: skip

        self._usb_job(lambda: sticks.back_up_to(log_path, drive), finished, done)

    def usb_restore(self, backup: Path, done: UsbDone, ask: UsbAsk | None = None) -> None:
        """Put a backup from a stick in place of the table's games: checked off the stick
        first (the worker), then swapped in on this thread; the games it replaces are kept
        aside beside the log (`companion.db.replaced-<time>`), never deleted. With `ask`,
        nothing changes before `ask(games in the backup, answer)` is answered True."""
        import shutil

        from companion.store.backup import restore_open

        if not self._can_write(done):
            return
        scratch = Path(tempfile.mkdtemp(prefix="armata-usb-"))

        def answered(ready: sticks.ReadyBackup, yes: bool) -> None:
            try:
                if not yes or self._closed or not self._can_write(done):
                    return
                self._stop_playing()
                try:
                    aside = restore_open(ready.copy, self.log.db.conn, self.log.path)
                except CompanionError as problem:
                    done(UsbOutcome(False, _nothing_changed(str(problem))))
                    return
                self.tags.refresh()
                self.set_language(str(self.settings.get("language")))
                self._web_changed()
                log_aside.info("restored %s; the log it replaced is kept as %s", backup, aside)
                done(UsbOutcome(True, i18n.tr(
                    "Restored: {backup}. The games it replaced are kept aside on the table, "
                    "never deleted."
                ).format(backup=_backup_name(backup))))  # fmt: skip
            finally:
                shutil.rmtree(scratch, ignore_errors=True)

        def finished(ready: object) -> None:
            assert isinstance(ready, sticks.ReadyBackup)
            if ask is None:
                answered(ready, True)
            else:
                ask(ready.games, lambda yes: answered(ready, yes))

        self._usb_job(lambda: sticks.prepare_restore(backup, scratch), finished, done, scratch)

    def usb_import(self, source: Path, done: UsbDone) -> None:
        """Add the games of a file on a stick (a backup, a game export, a transcript) to the
        log as new games; read off the stick by the worker, stored on this thread."""
        import shutil

        if not self._can_write(done):
            return
        scratch = Path(tempfile.mkdtemp(prefix="armata-usb-"))

        def finished(result: object) -> None:
            try:
                if isinstance(result, sticks.Prepared):
                    done(self._import(result))
            finally:
                shutil.rmtree(scratch, ignore_errors=True)

        self._usb_job(lambda: sticks.prepare_import(source, scratch), finished, done, scratch)

    def _import(self, prepared: object) -> UsbOutcome:
        assert isinstance(prepared, sticks.Prepared)
        try:
            if prepared.transcript is not None:
                from companion.transcript.into_log import import_transcript

                import_transcript(prepared.transcript, self.log, prepared.source, prepared.folder)
                count = 1
            else:
                for lines in prepared.exports:  # each game whole or not at all
                    self.log.import_jsonl(list(lines), source=prepared.source)
                count = len(prepared.exports)
        except StoreError as problem:
            return UsbOutcome(False, _nothing_changed(store_refusal(problem)))
        except CompanionError as problem:
            return UsbOutcome(False, i18n.tr(
                "No game could be read from {file} ({reason}): nothing was imported."
            ).format(file=prepared.source, reason=problem))  # fmt: skip
        return UsbOutcome(True, i18n.ngettext(
            "{count} game imported from {file}: History lists it.",
            "{count} games imported from {file}: History lists them.",
            count,
        ).format(count=count, file=prepared.source))  # fmt: skip

    def usb_update(self, archive: Path, done: UsbDone) -> None:
        """Check a release archive on a stick and hand it to the update (the same path as
        `python -m companion update`, with its roll-back), which root runs off this unit:
        the archive is copied into the data folder's `updates/` and requested there."""
        from companion.version import version

        running = version()
        updates = self.data / "updates"
        found: list[str] = []

        def work() -> Path:
            found.append(sticks.check_release(archive, running))
            return sticks.hand_over_release(archive, updates)

        def finished(result: object) -> None:
            if isinstance(result, Path):
                done(UsbOutcome(True, i18n.tr(
                    "Version {version} is being installed beside this one ({running}). The "
                    "table restarts by itself in a few minutes; if the new version does not "
                    "start, the table goes back to this one."
                ).format(version=found[0], running=running)))  # fmt: skip

        self._usb_job(work, finished, done)

    def usb_report(self, done: UsbDone) -> None:
        """`python -m companion report`'s archive onto the first stick (no secret in it)."""
        drive = self._first_drive(done)
        if drive is None:
            return
        data, root = self.data, self.report_root

        def finished(result: object) -> None:
            if isinstance(result, Path):
                done(UsbOutcome(True, i18n.tr(
                    "The report is saved on the USB stick {stick}: {file}. Send that file."
                ).format(stick=drive.name, file=result.name)))  # fmt: skip

        self._usb_job(lambda: sticks.save_report(data, drive, root), finished, done)

    def _first_drive(self, done: UsbDone) -> Drive | None:
        drives = self.usb_drives()
        if not drives:
            done(UsbOutcome(False, usb_words("missing")))
        return drives[0] if drives else None

    def _can_write(self, done: UsbDone) -> bool:
        if self.read_only:
            done(UsbOutcome(False, i18n.tr(
                "The game log is read-only: nothing can be restored or imported."
            )))  # fmt: skip
        return not self.read_only

    def _usb_job(
        self,
        work: Callable[[], object],
        finished: Callable[[object], None],
        done: UsbDone,
        scratch: Path | None = None,
    ) -> None:
        """`work` on the USB worker; `finished` with its result on this thread (a problem is
        said through `done` in plain words, and nothing is changed)."""
        import shutil

        if self._usb_busy:
            done(UsbOutcome(False, i18n.tr("Another USB task is under way: wait for its end.")))
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            return
        self._usb_busy = True

        def back(result: object) -> None:  # the service's thread
            self._usb_busy = False
            if self._closed:
                return
            if isinstance(result, sticks.UsbProblem):
                if scratch is not None:
                    shutil.rmtree(scratch, ignore_errors=True)
                done(UsbOutcome(False, usb_words(result.kind, result.detail)))
            else:
                finished(result)

        self._usb.run(work, lambda result: self.post(lambda: back(result)))

    def _stop_playing(self) -> None:
        """No game on the table (its log's content is about to be replaced)."""
        self.session = None
        self.announcements = []
        self.speaker.interrupt()
        self.watch.game(NO_GAME)

    # ----- announcement outputs ------------------------------------------------------------------
    def _announce(self, announcement: Announcement, words: str) -> None:
        self.listener.announced(announcement, words)

    def _web_changed(
        self, announced: list[Announcement] | None = None, events: list[e.Event] | None = None
    ) -> None:
        if self.web is not None:
            self.web.changed(self.session, announced or (), events or ())

    def _publish(self, leaf: str, payload: bytes, retain: bool) -> bool:
        if self.publisher is None:
            return True
        return self.publisher.publish_game(leaf, payload, retain)


__all__ = [
    "FIRST_HEROES",
    "RINGS_OFF_WAIT_S",
    "SILENT_NODE_S",
    "GameSummary",
    "Outcome",
    "Post",
    "Settings",
    "TableListener",
    "TableService",
    "Unheard",
    "UsbAsk",
    "UsbChoice",
    "UsbOutcome",
    "data_dir",
    "reveal_text",
]
