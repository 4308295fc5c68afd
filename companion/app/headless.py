"""A table without a screen (`python -m companion serve`): the table service driven by the Pi's
three buttons and the card reader, answering with the voice and the LED rings, and publishing
the game for a second screen across the room (the broker's game topics, docs/protocol.md).

Next reads out the next thing the game allows (one legal command after the other), Confirm does
the one last read out (or starts or resumes a game when none is being played), Undo takes the
last command back. A card tapped on the reader plays it when that is all it can mean. Every
sentence is spoken and printed as one line (the operator's log, and what the tests read).

Calls from the service's threads arrive through a queue and run on the thread of `run`.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TextIO

from companion.app.devices.hotspot import WifiState
from companion.app.devices.troubles import Troubles
from companion.app.service import Outcome, Post, TableService, store_refusal
from companion.app.story.announcement import Announcement
from companion.app.story.spoken_menu import (
    Group,
    Item,
    SimulatedTap,
    by_room,
    choose_in_secret,
    items,
    read,
    secret_choosers,
)
from companion.app.table.play_taps import commands_with, holder_of
from companion.app.table.taps import Tap
from companion.app.table.tracking import TableStatus
from companion.app.web.address import by_name
from companion.app.web.feed import WebFeed
from companion.app.web.qr import only_this_machine, phone_word, qr_terminal, wifi_words
from companion.app.words import i18n
from companion.app.words.command_labels import command_label
from companion.app.words.status import game_over_reason, waiting_label
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.errors import CompanionError, StoreError
from firmware_bridge.node_sim import CARD_READER

Say = Callable[[str], None]

#: How long the end of `--keys` input waits for the voice to finish (seconds).
LAST_WORDS_S = 60.0

#: `serve --keys`: "phone HERO" prints the hero's seat link and its QR code, "revoke HERO" ends
#: it (the touchscreen's "my phone" and "Revoke this phone link")
SEAT_KEYS = {"phone": "phone", "p": "phone", "revoke": "revoke"}

#: `serve --keys`: "wifi on" opens the table's own Wi-Fi, "wifi off" goes back to the known one
WIFI_KEYS = {"on": True, "off": False}

#: `serve --keys`: a line on standard input presses a button (a table without the Pi's pins)
KEYS = {
    "c": "confirm",
    "confirm": "confirm",
    "n": "next",
    "next": "next",
    "u": "undo",
    "undo": "undo",
}


class HeadlessTable:
    """The TableListener of a screenless table."""

    def __init__(self, make_service: Callable[[Post], TableService], say: Say) -> None:
        self._calls: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self.service = make_service(self._calls.put)
        self._say = say
        self.last_said = ""  # the sentence said last: a hint is never said twice in a row
        self.local_name = ""  # the Pi's name on the network, printed once it resolves
        self.options: list[Item] = []  # what Next reads (spaces grouped, secret cards left out)
        self.focused = -1  # nothing read out yet
        self.alerts: set[tuple[str, int]] = set()
        #: the table view in browsers (`serve --web`), one more listener of the service
        self.web: WebFeed | None = self.service.web

    # ----- the loop ----------------------------------------------------------------------------
    def run(self, seconds: float | None = None) -> None:
        """Serve until `stop` (or for `seconds`), running the posted calls in order."""
        self.service.start(self)
        deadline = None if seconds is None else time.monotonic() + seconds
        last_poll = 0.0
        while True:
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                break
            if now - last_poll >= 0.25:
                self.service.poll()  # the status LED follows the nodes
                last_poll = now
            try:
                call = self._calls.get(timeout=0.05)
            except queue.Empty:
                continue
            if call is None:
                break
            try:
                call()
            except StoreError as problem:  # the log refused a write: said, and the table goes on
                self.say(store_refusal(problem))

    def say(self, text: str) -> None:
        self.last_said = text
        self._say(text)

    def stop(self) -> None:
        """Ends `run` (from any thread) after the calls already posted."""
        self._calls.put(None)

    def post(self, call: Callable[[], None]) -> None:
        """Run `call` on the loop's thread (tests drive the table this way)."""
        self._calls.put(call)

    def read_keys(self, stream: TextIO) -> threading.Thread:
        """Each line of `stream` ("c"/"confirm", "n"/"next", "u"/"undo") presses that button,
        as the Pi's pins would; other lines are answered with the keys there are. When the
        stream ends (Ctrl+D, the end of a script) the table stops once the voice has said
        everything. The reading thread only posts."""

        def read() -> None:
            for line in stream:
                words = line.split()
                name = KEYS.get(line.strip().lower())
                if len(words) == 2 and words[0].lower() in SEAT_KEYS:
                    self.post(partial(self.seat_link, SEAT_KEYS[words[0].lower()], words[1]))
                elif len(words) == 2 and words[0].lower() == "wifi" and words[1] in WIFI_KEYS:
                    self.post(partial(self.service.open_hotspot, WIFI_KEYS[words[1]]))
                elif name is None:
                    print(
                        "keys: c (Confirm), n (Next), u (Undo); phone HERO, revoke HERO "
                        "(a seat link for the table view in a browser); wifi on, wifi off "
                        "(the table's own Wi-Fi for the phones)",
                        flush=True,
                    )
                else:
                    self.post(partial(self.button, name))
            self.post(self._last_words)

        thread = threading.Thread(target=read, name="keys", daemon=True)
        thread.start()
        return thread

    # ----- the table view in browsers -------------------------------------------------------
    def show_address(self) -> None:
        """Print the table view's address and its QR code (once the server listens)."""
        if self.web is None:
            return
        address = self.web.address
        print(f"Table view in a browser: {address}", flush=True)
        print(qr_terminal(address), end="", flush=True)
        if only_this_machine(address):  # the operator's hint: the option that opens it
            print(f"{phone_word('this_machine')} (serve --web 0.0.0.0:8421)", flush=True)

    def seat_link(self, action: str, hero: str) -> None:
        """`phone HERO`: the hero's seat link and its QR code; `revoke HERO`: the link ends.
        HERO is the hero's printed name or its id, in any case."""
        session = self.service.session
        if self.web is None:
            print(phone_word("no_web"), flush=True)
            return
        if session is None or session.state.phase == "over":
            print(i18n.tr("No game is being played."), flush=True)
            return
        heroes = {h.hero: hero_name(h.hero) for h in session.state.heroes}
        found = next((k for k, v in heroes.items() if hero.lower() in (k.lower(), v.lower())), None)
        if found is None:
            print(f"heroes: {', '.join(heroes.values())}", flush=True)
        elif action == "revoke":
            self.web.revoke(found)
            print(phone_word("revoked"), flush=True)
        else:
            link = self.web.seat_link(found)
            if link is not None:
                print(phone_word("seat_scan").format(hero=heroes[found]), flush=True)
                print(link, flush=True)
                print(qr_terminal(link), end="", flush=True)

    def _last_words(self) -> None:
        self.service.speaker.idle(LAST_WORDS_S)
        self.stop()

    # ----- the game ----------------------------------------------------------------------------
    def start_or_resume(self, seed: int | None = None) -> None:
        service = self.service
        try:
            resumed = service.resume()
        except CompanionError as problem:  # a game whose record cannot be read back
            self.say(i18n.tr("The saved game cannot be resumed: {problem}").format(problem=problem))
            resumed = None
        if resumed is None:
            try:
                service.new_game(seed)
            except StoreError as problem:  # a full disk, a read-only log: the table goes on
                self.say(store_refusal(problem))
                return
            self.say(i18n.tr("A new game."))
        else:
            self.say(i18n.tr("The game goes on."))
        self._waiting()

    def _waiting(self) -> None:
        """Say what the game waits for; the choices are read out by Next."""
        session = self.service.session
        if session is None:
            return
        commands = session.legal_commands()
        self.options = items(commands, simulated=self.service.hardware.simulated is not None)
        self.focused = -1
        self.say(waiting_label(session.waiting_for, self.service.catalog, session.state))
        for hero in secret_choosers(commands):  # R-RND-1: never which card, only who chooses
            self.say(choose_in_secret(hero))

    def _label(self, command: c.Command) -> str:
        session = self.service.session
        assert session is not None
        return command_label(command, self.service.catalog, session.rules.fortress, spoken=True)

    def _do(self, command: c.Command) -> None:
        self.execute(command)

    def execute(self, command: c.Command) -> Outcome:
        """Run a command and say what follows (the buttons, the reader, a phone's choice)."""
        outcome = self.service.execute(command)
        if outcome.refused is not None:
            self.say(outcome.refused)
            return outcome
        # the turn order is an item of the command's story: the announcer has said it
        if outcome.over is not None:
            won = i18n.tr("The heroes won.") if outcome.over.winner == "heroes" else None
            self.say(won or i18n.tr("The Strigoi won."))
            self.say(game_over_reason(outcome.over.reason))
            return outcome
        self._waiting()
        return outcome

    # ----- TableListener -----------------------------------------------------------------------
    def announced(self, announcement: Announcement, words: str) -> None:
        print(f"announced: {words}", flush=True)  # the voice says it (the announcer spoke)

    def table_changed(self, status: TableStatus) -> None:
        keys = {a.key for a in status.alerts}
        if keys - self.alerts:
            self.say(i18n.tr("The table differs from the game: see the LEDs."))
        self.alerts = keys

    def troubled(self, troubles: Troubles) -> None:
        for line in troubles.lines():
            print(f"trouble: {line}", flush=True)  # the operator's log (a voice cannot say it)

    def wifi_changed(self, state: WifiState) -> None:
        """The table's own Wi-Fi: its name, password and join code, then the table view's new
        address; or the network joined, or why a change failed."""
        said = wifi_words(state)
        if said:
            print(said, flush=True)
        if state.hotspot:
            print(phone_word("wifi_join"), flush=True)
            print(qr_terminal(state.join_code()), end="", flush=True)
            self.show_address()
        if state.local_name != self.local_name:
            self.local_name = state.local_name
            if self.web is not None and state.local_name:
                named = by_name(self.web.address, state.local_name)
                print(phone_word("by_name").format(address=named), flush=True)

    def tapped(self, tap: Tap) -> None:
        session = self.service.session
        if session is None or tap.node != CARD_READER or tap.binding is None:
            return
        kind, target = tap.binding.kind, tap.binding.target
        if kind in ("action_card", "advanced_card"):  # R-RND-1: the card its holder chooses
            holder = holder_of(session.state, target)
            uses: list[c.Command] = (
                [] if holder is None else [c.ChooseCard(hero=holder, card=target)]
            )
        elif kind == "reward_card":
            uses = commands_with(session.legal_commands(), target)
        else:
            return
        if not uses:
            self.say(i18n.tr("No use for it now."))
        elif len(uses) == 1:
            self._do(uses[0])
        elif uses:
            self.options, self.focused = [*uses], -1
            self.say(i18n.tr("{count} ways to use it: press Next.").format(count=len(uses)))

    def button(self, name: str) -> None:
        """Confirm, Undo or Next (gpiozero's presses, posted to this loop)."""
        service = self.service
        session = service.session
        if session is None or session.state.phase == "over":
            if name == "confirm":
                self.start_or_resume()
            return
        if name == "undo":
            if service.undo():  # "Undone: …" is the undo's story: the announcer said it
                self._waiting()
        elif name == "next" and self.options:
            self._next()
        elif name == "confirm":
            if not self.options:
                return  # nothing to take by a button (a card chosen in secret is tapped)
            if self.focused < 0 and len(self.options) != 1:
                self._hint()
                return
            item = self.options[max(self.focused, 0)]
            if isinstance(item, Group):  # opened: its rooms, or a room's spaces
                self.options, self.focused = by_room(item, session.rules.fortress), -1
                if len(item.commands) <= len(self.options):  # already one by one
                    self.options = list(item.commands)
                self._hint()
                return
            if isinstance(item, SimulatedTap):  # the card stays unsaid, as a tap on a reader
                self._do(item.command)
                return
            self._do(item)

    def _next(self) -> None:
        self.focused = (self.focused + 1) % len(self.options)
        item = self.options[self.focused]
        self.say(read(item, self.focused + 1, len(self.options), self._label))

    def _hint(self) -> None:
        """How to hear the choices; said just now, Confirm reads the first choice instead (the
        same hint twice in a row tells nothing new: issue 29)."""
        hint = i18n.tr("Press Next to hear the choices.")
        if self.last_said == hint:
            self._next()
        else:
            self.say(hint)


__all__ = ["KEYS", "SEAT_KEYS", "HeadlessTable", "Say"]
