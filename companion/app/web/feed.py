"""The table view's feed (ui/web): one more listener of the table service, like the MQTT game
feed, so the browsers follow the game without a broker.

On the service's thread, after each command, undo, redo, resume or new game, the feed makes the
views (companion/app/web/views.py) in the languages phones follow now (issue 41, item 6: a
language nobody reads costs nothing; a phone that opens the page in another one asks for it and
gets it from the next build), encodes them as JSON and hands one immutable `Snapshot` to the web
server, which only forwards it. A phone's card choice comes back
as a request the web server's thread passes to `request_choice`; it is checked and executed on
the service's thread through `post`, with the same command the touchscreen sends, and answered
through the reply callback. The web server's thread never touches the game or its log.
"""

from __future__ import annotations

import gettext
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from companion.app.session.game import GameSession
from companion.app.story.announcement import Announcement
from companion.app.story.game_log import StepResults
from companion.app.web.address import DEFAULT_PORT as DEFAULT_PORT
from companion.app.web.address import parse_web_address as parse_web_address
from companion.app.web.seat_guide import legal_option
from companion.app.web.seats import GAME_ENDED, REVOKED, Seat, SeatTokens
from companion.app.web.views import (
    JSON,
    announcement_view,
    board_view,
    choices_of,
    log_view,
    page_words,
    seat_view,
    table_view,
    threat_levels,
)
from companion.app.words import i18n
from companion.app.words.i18n import N_, tr
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import situation
from companion.store.gamelog import CommandRecord

log = logging.getLogger(__name__)
_JSON = msgspec.json.Encoder()

#: Runs a call on the table service's thread.
Post = Callable[[Callable[[], None]], None]
#: The front end's way to run a command (the touchscreen's, so its screen follows too); its
#: result has `refused`: None when the command was taken.
Execute = Callable[[c.Command], Any]

#: why a phone's request is refused, in its language
REFUSALS = {
    "unknown": N_("This phone link is not known here: scan the seat's code on the touchscreen."),
    REVOKED: N_("This phone link was revoked on the touchscreen."),
    GAME_ENDED: N_("This phone link belonged to a game that has ended."),
    "not_now": N_("That card cannot be chosen now."),
    "not_yours_now": N_("That decision is not yours to make now."),
    "no_game": N_("No game is being played."),
    "paused": N_(
        "This seat's game is not being played right now: the page comes back by itself when "
        "the touchscreen resumes it."
    ),
    "busy": N_("The table was busy and did not take your card: choose it again."),
    "sent": N_("Your card was sent: the table is still playing it. Watch the table's page."),
    "phones": N_(
        "Too many phones are following this table: close the page on a phone that no longer "
        "needs it."
    ),
    "too_fast": N_("Too many choices at once: wait a moment, then choose again."),
}


def refusal(key: str) -> str:
    """Why a phone's request is refused, in the current `tr` language."""
    return tr(REFUSALS[key])


@dataclass(frozen=True)
class WebLoad:
    """The phones' server at a glance: streams open, connections or requests refused as too
    many or too fast, and closed as too slow (a flood shows here, not in the log)."""

    following: int
    refused: int
    closed: int


class PendingChoice:
    """A phone's choice on its way to the service's thread. Either the service takes it (and it
    is played or refused, and answered) or the web server withdraws it first (and it is never
    played): never both, so a phone is never told "not taken" of a card that then is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = "waiting"

    def _move(self, to: str) -> bool:
        with self._lock:
            if self._state != "waiting":
                return False
            self._state = to
            return True

    def take(self) -> bool:
        """The service's thread: True when the choice is still wanted (then it runs it)."""
        return self._move("taken")

    def withdraw(self) -> bool:
        """The web server's thread: True when the choice will never run."""
        return self._move("withdrawn")


@dataclass(frozen=True)
class Snapshot:
    """Everything the browsers may be sent, as encoded JSON: the table view per language, each
    active seat's view per language, and the tokens that ended (with why, per language).

    `patches` are the table views as changes to the views of version `base` (the build before):
    only the parts that differ, `board` by its layers (the 600 spaces rarely change, the
    figures often), with `version` and `base`. A page that has `base` is sent the patch (about
    a tenth of the view), any other the whole view."""

    version: int
    tables: dict[str, bytes]
    seats: dict[str, dict[str, bytes]] = field(default_factory=dict)
    ended: dict[str, dict[str, str]] = field(default_factory=dict)
    patches: dict[str, bytes] = field(default_factory=dict)
    base: int = -1
    #: tokens of a game that is not loaded now (before a resume): why the phone waits
    waiting: dict[str, dict[str, str]] = field(default_factory=dict)


#: a view's parts, each encoded: its keys, and the board's layers as "board.<layer>"
Parts = dict[str, bytes]


def view_parts(view: JSON, board_parts: Parts) -> Parts:
    """`view`'s top-level values encoded one by one; the board's layers from `board_parts`
    (encoded once for every language: the board has no words)."""
    parts: Parts = {}
    for key, value in view.items():
        if key == "board":
            parts.update(board_parts)
        else:
            parts[key] = _JSON.encode(value)
    return parts


def assemble(parts: Parts) -> bytes:
    """The JSON object of `parts` (the keys are plain identifiers: no escaping needed)."""
    top: list[bytes] = []
    board: list[bytes] = []
    for key, value in parts.items():
        if key.startswith("board."):
            board.append(b'"' + key[6:].encode() + b'":' + value)
        else:
            top.append(b'"' + key.encode() + b'":' + value)
    if board:
        top.append(b'"board":{' + b",".join(board) + b"}")
    return b"{" + b",".join(top) + b"}"


def changes(old: Parts | None, new: Parts) -> Parts | None:
    """The parts of `new` that differ from `old`; None when a patch cannot say it (no old
    view, or a different shape: a game began or ended)."""
    if old is None or old.keys() != new.keys():
        return None
    return {key: value for key, value in new.items() if old[key] != value}


@dataclass(frozen=True)
class Reply:
    ok: bool
    message: str = ""


class WebServer(Protocol):
    """What the feed needs of the web server (ui/web/server.py)."""

    host: str  # where it listens: 0.0.0.0 (every interface), an address, or 127.0.0.1
    #: called (on the server's thread) when a stream opens in a language the snapshot lacks
    want: Callable[[str], None] | None

    def start(self) -> str:
        """Listen; the address browsers open (`http://host:port/`)."""

    def stop(self) -> None: ...

    def push(self, snapshot: Snapshot, then: Callable[[], None] | None = None) -> None:
        """Send the new views (called on the service's thread; must not block); `then` is
        called (on any thread) once the streams have been written to."""

    def load(self) -> WebLoad:
        """How many phones follow and what was refused (any thread; must not block)."""

    def current_address(self) -> str:
        """The address phones open, read now ("" before the start)."""

    def followed_tokens(self) -> frozenset[str]:
        """The seat tokens an open stream follows now (any thread; must not block)."""

    def languages(self) -> frozenset[str]:
        """The languages open streams follow now (any thread; must not block)."""


class WebFeed:
    """`always`: languages built for every change whether or not a phone follows them (none on
    the table; the tests that read the snapshot without a stream name theirs)."""

    def __init__(
        self, server: WebServer, post: Post, execute: Execute, always: Sequence[str] = ()
    ) -> None:
        self.server = server
        self.always = frozenset(always)
        #: the languages of the last build (a language not in it is built when a page asks)
        self.built: frozenset[str] = frozenset()
        #: the version sent with the names where they stood (0: none waits to be placed)
        self.settling = 0
        self.post = post
        self.execute = execute
        self.tokens = SeatTokens()
        self._started = False
        self.version = 0
        self.builds = 0
        self._session: GameSession | None = None
        self._cards: list[Announcement | e.Event] = []
        self._scheduled = False
        self._parts: dict[str, Parts] = {}  # the last table view per language, by parts
        self._catalogs: dict[str, gettext.NullTranslations] = {
            language: i18n.catalog(language) for language in i18n.LANGUAGES
        }
        self._revealed: dict[tuple[str, int, int], bool] = {}
        self._results = StepResults(self._catalogs)  # what each step led to (one log)

    # ----- lifecycle (the table service's start and close) -----------------------------------
    def remember(self, saved: object, keep: Callable[[dict[str, Any]], None]) -> None:
        """The seat tokens stored before (a restart), and where each change is stored: called
        by the table service before the start."""
        self.tokens.restore(saved)
        self.tokens.keep = keep

    def start(self) -> None:
        self.server.want = self.want
        self.server.start()
        self._started = True
        self._build()

    @property
    def address(self) -> str:
        """The address phones open, read again each time it is shown (the network may have
        changed: a hotspot opened, the Wi-Fi joined); "" until the server has started."""
        return self.server.current_address() if self._started else ""

    @property
    def public(self) -> bool:
        """Whether other devices can reach the server (not this machine's loopback only): the
        phones need a network, and the table may open its own Wi-Fi for them."""
        host = self.server.host
        return not (host in ("localhost", "::1") or host.startswith("127."))

    def stop(self) -> None:
        self.server.stop()

    # ----- the listener hook ----------------------------------------------------------------
    def changed(
        self,
        session: GameSession | None,
        announced: Sequence[Announcement] = (),
        events: Sequence[e.Event] = (),
    ) -> None:
        """The game changed (a command with its announcements and events; or undo, redo,
        resume, a new game: no cards). The views follow on the next turn of the thread."""
        if session is not self._session or not (announced or events):
            self._cards = []
        self._session = session
        if announced or events:  # a command's story, a redo's, or an undo's "Undone: …"
            self._cards = [*announced, *events]
        self._results.forget(None if session is None else session.game_id)
        if session is not None and events:  # the step just played: its story as told
            done = [r for r in session.history() if r.seq == session.head]
            if done:
                self._results.told(session, done[-1], events, announced)
        if session is None:
            self.tokens.game(None)
        else:
            self.tokens.game(session.game_id, over=session.state.phase == "over")
        self._schedule()

    # ----- seats (the touchscreen's "my phone") ----------------------------------------------
    def seat_link(self, hero: str) -> str | None:
        """The address of `hero`'s seat view in the game being played (a token is issued)."""
        session = self._session
        if session is None or session.state.phase == "over":
            return None
        token = self.tokens.issue(session.game_id, hero)
        self._build()  # known to the server before its code is even shown
        return f"{self.address}seat/{token}"

    def on_phone(self, hero: str) -> bool:
        """Whether a phone follows `hero`'s seat now (an open stream on a live seat link): the
        touchscreen then leaves that hero's private decisions to the phone."""
        token = self.tokens.token_of(hero)
        return token is not None and token in self.server.followed_tokens()

    def followed_seats(self) -> frozenset[str]:
        """The heroes whose seat a phone follows now."""
        followed = self.server.followed_tokens()
        seats = self.tokens.active()
        return frozenset(seat.hero for token, seat in seats.items() if token in followed)

    def revoke(self, hero: str) -> bool:
        revoked = self.tokens.revoke(hero)
        self._build()  # refused from now on, not from the next frame
        return revoked

    def request_choice(
        self,
        token: str,
        card: str,
        language: str,
        reply: Callable[[Reply], None],
        option: str = "",
    ) -> PendingChoice:
        """A phone's card choice, or with `option` one of its private decision's options (a
        key of companion/app/web/seat_guide.py), called on the web server's thread: checked and
        executed on the service's thread, answered through `reply` (on that thread). The web
        server may withdraw it while it waits (`PendingChoice.withdraw`): then it is never
        played."""
        pending = PendingChoice()

        def run() -> None:
            if pending.take():
                reply(self._choose(token, card, language, option))

        self.post(run)
        return pending

    def _choose(self, token: str, card: str, language: str, option: str = "") -> Reply:
        with i18n.translating(self._catalogs.get(language, self._catalogs["en"])):
            seat = self.tokens.seat(token)
            if not isinstance(seat, Seat):
                return Reply(False, refusal(seat))
            session = self._session
            if session is None:
                return Reply(False, refusal("no_game"))
            command: c.Command | None
            if option:
                command = legal_option(session, seat.hero, option)
                if command is None:
                    return Reply(False, refusal("not_yours_now"))
            elif card in choices_of(session, seat.hero):
                command = c.ChooseCard(hero=seat.hero, card=card)
            else:
                return Reply(False, refusal("not_now"))
            outcome = self.execute(command)
            refused = getattr(outcome, "refused", None)
            return Reply(refused is None, refused or "")

    def load_line(self) -> str:
        """The phones' server on the Hardware screen, in the current `tr` language."""
        load = self.server.load()
        return tr(
            "Phones' page: following now: {following}; refused (too many or too fast): "
            "{refused}; closed (too slow): {closed}"
        ).format(
            following=i18n.count(load.following),
            refused=i18n.count(load.refused),
            closed=i18n.count(load.closed),
        )

    # ----- building the views ---------------------------------------------------------------
    def want(self, language: str) -> None:
        """A phone opened the page in `language` (called on the web server's thread): unless the
        last build made it, the views are built again on the service's thread, this language
        among them."""
        self.post(lambda: self._wanted(language))

    def _wanted(self, language: str) -> None:
        if language not in self.built:
            self._build()

    def _languages(self) -> list[str]:
        """The languages to build now, in the catalogs' order: followed, asked for or always."""
        wanted = self.always | self.server.languages()
        return [language for language in self._catalogs if language in wanted]

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            self.post(self._build_scheduled)

    def _build_scheduled(self) -> None:
        """The posted build, unless a build since (a seat link shown) made it already."""
        if self._scheduled:
            self._build()

    def _build(self, settled: bool = False) -> None:
        """Make the views and hand them to the server. Unless `settled`, a board the names have
        no kept ground on (a platform turned, a ladder taken away) is sent at once with the names
        where they stood, and a settled build, posted behind it, places them (`_settle`): the
        move reaches the phones without waiting for the one slow placing."""
        self._scheduled = False
        unsettled = False
        self.version += 1
        self.builds += 1
        session = self._session
        active = self.tokens.active() if session is not None else {}
        paused = self.tokens.active() if session is None else {}
        waiting: dict[str, dict[str, str]] = {token: {} for token in paused}
        tables: dict[str, bytes] = {}
        seats: dict[str, dict[str, bytes]] = {token: {} for token in active}
        ended: dict[str, dict[str, str]] = {token: {} for token in self.tokens.ended()}
        languages = self._languages()
        for language in set(self._parts) - set(languages):
            del self._parts[language]  # not built now: its next view is a whole one, no patch
        self.built = frozenset(languages)
        board: JSON = {}
        history: list[CommandRecord] = []
        if session is not None and languages:  # the same in every language: made once
            here = situation(session.rules, session.state)
            board = board_view(session.rules.fortress, here, threat_levels(session, here))
            history = session.history()
        board_parts = {f"board.{k}": _JSON.encode(v) for k, v in board.items()}
        patches: dict[str, bytes] = {}
        for language in languages:
            with i18n.translating(self._catalogs[language]):
                before = self._parts.get(language, {}).get("labels")
                view = self._table(session, board, history, settled or before is None)
                view["version"] = self.version
                parts = view_parts(view, board_parts)
                if view.get("labels", []) is None:  # the names where they stood, for now
                    parts["labels"] = before or b"[]"
                    unsettled = True
                tables[language] = assemble(parts)
                changed = changes(self._parts.get(language), parts)
                if changed is not None:
                    changed["base"] = _JSON.encode(self.version - 1)
                    patches[language] = assemble(changed)
                self._parts[language] = parts
                for token, seat in active.items():
                    assert session is not None
                    seats[token][language] = self._encode(
                        {"seat": seat_view(session, seat.hero), "words": page_words()}
                    )
        for language, catalog in self._catalogs.items():  # a sentence each: every language
            with i18n.translating(catalog):
                for token, why in self.tokens.ended().items():
                    ended[token][language] = refusal(why)
                for token in paused:
                    waiting[token][language] = refusal("paused")
        snapshot = Snapshot(self.version, tables, seats, ended, patches, self.version - 1, waiting)
        if unsettled:  # the names placed once the move is on its way: the placing holds the
            self.settling = self.version  # interpreter, the streams' writes would wait for it
            self.server.push(snapshot, then=lambda: self.post(self._settle))
        else:
            self.server.push(snapshot)

    def _settle(self) -> None:
        """The names placed on the board sent just before, unless a build since did it."""
        if self.settling == self.version:
            self._build(settled=True)

    def _encode(self, view: JSON) -> bytes:
        view["version"] = self.version
        return _JSON.encode(view)

    def _table(
        self,
        session: GameSession | None,
        board: JSON,
        history: list[CommandRecord],
        settled: bool = True,
    ) -> JSON:
        if session is None:
            return table_view(None, [], [])
        cards: list[JSON] = []
        for item in self._cards:
            if isinstance(item, Announcement):
                cards.append(announcement_view(item, session.rules.catalog, session.rules.fortress))
        log = log_view(
            session,
            session.rules.catalog,
            self._reveals,
            history,
            self._results,
            i18n.words_language(),
        )
        return table_view(session, cards, log, board, settled)

    def _reveals(self, record: CommandRecord) -> bool:
        session = self._session
        assert session is not None
        key = (session.game_id, record.seq, record.first_event)
        if key not in self._revealed:
            self._revealed[key] = any(
                isinstance(x, e.CardsRevealed) for x in session.events_of(record)
            )
        return self._revealed[key]


__all__ = [
    "DEFAULT_PORT",
    "REFUSALS",
    "Execute",
    "PendingChoice",
    "Post",
    "Reply",
    "Snapshot",
    "WebFeed",
    "WebLoad",
    "WebServer",
    "parse_web_address",
    "refusal",
]
