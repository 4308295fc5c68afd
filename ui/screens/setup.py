"""Setup wizard (R-SET): players and heroes in seat order, the room layout (default, random, or
edited on the board: tap a room, turn its tile or platform, drag it onto another to swap them),
each player's ladder (refused sides show the rule's reason), digital or physical stacks, and
tag registration for cards the readers do not know yet. Every change is made on a `SetupPlan`."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.app.session.setup_plan import RoomParts, SetupPlan, site_cell
from companion.app.table.taps import (
    RIM_EDGES,
    AlreadyBound,
    Registered,
    Registration,
    Tap,
    rim_edges_missing,
    rim_target,
)
from companion.app.words.i18n import N_, capital_first, ngettext, tr
from companion.app.words.names import direction_name, platform_home, room_name
from companion.app.words.table_texts import ladder_seat_line, site_label, site_refusal
from companion.engine.explain import hero_name
from companion.engine.game.context import PHYSICAL_STACKS
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from companion.errors import CompanionError
from ui import theme
from ui.board.view import FortressView
from ui.widgets.busy import Busy
from ui.widgets.button_row import ButtonRow
from ui.widgets.check_row import CheckRow
from ui.widgets.scrolling import WholeRows, to_top  # noqa: F401  (WholeRows: setup.kv's list place)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PAGES = ("players", "layout", "ladders", "stacks", "cards")
TITLES = {
    "players": N_("Players and seat order"),
    "layout": N_("Room layout"),
    "ladders": N_("Ladders"),
    "stacks": N_("Tokens: digital or physical"),
    "cards": N_("Card tags (optional)"),
}
HINTS = {
    "players": N_(
        "Two to five players. Tap a hero to change it; seat order breaks initiative ties."
    ),
    "layout": N_(
        "Tap a room to see it large and turn its tile or platform; "
        "drag a room onto another to swap them."
    ),
    "ladders": N_("Choose where each hero's ladder stands: an outer side with a corridor."),
    "stacks": N_("Ticked: you draw the real tokens and enter them; the app checks them."),
    "cards": N_("Cards with a known tag can be tapped on a reader to play them."),
}
#: the layout page with one room shown large: what can be done there, in few words
ZOOMED_HINT = N_("Turn the tile or the platform as they lie on the table.")
STACK_NAMES = {
    "red": N_("Red encounter tokens"),
    "grey": N_("Grey encounter tokens"),
    "strigoi": N_("Strigoi action tokens"),
    "wound": N_("Wound tokens"),
    "reward_token": N_("Reward tokens"),
    "reward_card": N_("Reward cards"),
}
#: the pages where the board is worked on (rooms tapped, dragged, ladder sides picked): there
#: it is as large as the window allows; on the others it is shown beside the page
BOARD_PAGES = ("layout", "ladders")
#: the least the page keeps beside the worked-on board: its width in a landscape window, its
#: height in an upright one (dp)
PANEL_MIN_WIDE, PANEL_MIN_TALL = 230.0, 380.0
#: the board's share of the window's width (landscape) or height (upright) on the other pages,
#: and zoomed to one room on the layout page (its spaces are large anyway)
SHOWN_WIDE, SHOWN_TALL = 1 / 3, 0.31
ZOOMED_WIDE, ZOOMED_TALL = 0.5, 0.45
#: the margin FortressView._layout keeps round the whole fortress, in spaces' radii
BOARD_MARGIN = 2.4
#: what a tap meant, by the page the wizard shows
SITE_OK = (0.30, 0.75, 0.45, 1.0)
SITE_REFUSED = (0.40, 0.40, 0.44, 1.0)


class SetupScreen(Screen):
    title_text = StringProperty("")
    hint_text = StringProperty("")
    next_text = StringProperty("")
    next_ready = BooleanProperty(True)
    #: the board's width beside the page (upright: its height above it), set by `fit_board`
    board_px = NumericProperty(400.0)

    def begin(
        self,
        plan: SetupPlan,
        view: FortressView,
        registration: Registration,
        cards_of: Callable[[str], list[tuple[str, str]]],
        start: Callable[[SetupPlan], None],
        leave: Callable[[], None],
    ) -> None:
        self.plan = plan
        self.view = view
        self.registration = registration
        self.cards_of = cards_of  # a hero's action cards: (id, printed title)
        self._titles: dict[str, str] = {}
        self.start = start
        self.leave = leave
        self.working = Busy()  # Start game's work, behind its busy sign
        self.page = "players"
        self.active_seat = 0
        self.selected_room: str | None = None
        self.message = ""
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)
        view.on_cell = self._on_cell
        view.on_drag = self._on_drag
        view.zoom_on_tap = False  # the wizard zooms itself: a drag on the whole board swaps rooms
        view.zoom_room = None
        if not getattr(view, "_setup_hooked", False):
            view.fbind("on_touch_up", self._touch_up)
            view._setup_hooked = True  # type: ignore[attr-defined]
        self.rebuild()

    # ----- navigation --------------------------------------------------------------------------
    def back(self) -> None:
        self.registration.cancel()
        index = PAGES.index(self.page)
        if index == 0:
            self.leave()
            return
        self._go(PAGES[index - 1])

    def forward(self) -> None:
        self.registration.cancel()
        index = PAGES.index(self.page)
        if self.page == "ladders" and self.plan.problems():
            self.message = "; ".join(self.plan.problems(tr))
            self.rebuild()
            return
        if index == len(PAGES) - 1:
            if not self.plan.problems():  # seconds on a busy Pi: behind a busy sign
                self.working.start(lambda: self.start(self.plan), self.ids.next)
            return
        self._go(PAGES[index + 1])

    def _go(self, page: str) -> None:
        self.page = page
        self.message = ""
        self.view.zoom_room = None  # each page starts on the whole fortress
        self.rebuild()

    def _try(self, change: Callable[[], None]) -> None:
        """Apply a change; a refusal is shown as the hint, nothing else changes."""
        try:
            change()
            self.message = ""
        except CompanionError as refusal:
            self.message = tr(str(refusal))  # the plan's refusals are message templates
        self.rebuild()

    # ----- drawing -----------------------------------------------------------------------------
    def rebuild(self) -> None:
        self.title_text = f"{PAGES.index(self.page) + 1}/{len(PAGES)} · {tr(TITLES[self.page])}"
        zoomed = self.page == "layout" and self.view.zoom_room is not None
        hint = tr(ZOOMED_HINT if zoomed else HINTS[self.page])
        reason = self.players_reason() if self.page == "players" else ""
        self.hint_text = self.message or (f"{hint} {reason}" if reason else hint)
        last = self.page == PAGES[-1]
        self.next_text = tr("Start game") if last else tr("Next")
        self.next_ready = not (last or self.page == "ladders") or not self.plan.problems()
        self._board()
        self.fit_board()
        box = self.ids.content
        box.clear_widgets()
        getattr(self, f"_page_{self.page}")(box)
        if isinstance(box.parent, ScrollView) and self.page != getattr(self, "_shown_page", None):
            # a new page's list from its top, at rest: a glide left from the page before
            # (the players' list scrolled to its last Remove) carried the room's buttons out
            # of sight (upright, large text)
            to_top(box.parent)
        self._shown_page = self.page

    def on_size(self, *_: object) -> None:
        if hasattr(self, "plan"):
            self.fit_board()

    def fit_board(self) -> None:
        """Where the whole board is worked on, it spans the window's height (upright: its
        width), so that its spaces are as large as the window allows (at 800x480 twice the
        half-window's, 24 px), the page beside keeping at least PANEL_MIN_*; elsewhere it takes
        SHOWN_* of the window."""
        fortress = self.view.fortress  # the plan's layout, as `_board` showed it
        aspect = board_aspect([*fortress.tables(fortress.initial_state()).spaces,
                               *self.view.markers])  # fmt: skip
        # one room zoomed needs no more than the page's share: its spaces are large anyway,
        # and the page beside then shows the room's parts and buttons at once
        zoomed = self.page == "layout" and self.view.zoom_room is not None
        worked_on = self.page in BOARD_PAGES and not zoomed
        if self.height > self.width:  # upright: the board above the page
            fitted = min(self.width / aspect, self.height - dp(PANEL_MIN_TALL))
            shown = ZOOMED_TALL if zoomed else SHOWN_TALL
            self.board_px = fitted if worked_on else self.height * shown
        else:
            # the page's least width grows with the text size (its hint stays readable)
            scale = getattr(App.get_running_app(), "text_scale", 1.0) or 1.0
            fitted = min(self.height * aspect, self.width - dp(PANEL_MIN_WIDE) * scale)
            shown = ZOOMED_WIDE if zoomed else SHOWN_WIDE
            self.board_px = fitted if worked_on else self.width * shown

    def _board(self) -> None:
        """The layout with every ladder chosen so far, each in its hero's colour; the room
        being edited zoomed (books and Strigoi mark large enough to read); on the ladder page
        the free sides as green dots, the refused ones grey."""
        view = self.view
        fortress, owners = self.plan.preview()
        view.fortress = fortress
        view.ladder_owners = owners
        view.situation = Situation(board=fortress.initial_state())
        zoomed = view.zoom_room if view.zoom_room in fortress.rooms else None
        view.zoom_room = zoomed if self.page == "layout" else None
        # every room by its name where the board is worked on, as the round screen's board
        # (zoomed: the view writes the room's own); the others' smaller board has no room
        named = self.page in BOARD_PAGES
        view.names = {room: room_name(room) for room in fortress.rooms} if named else {}
        view.outlined = (
            {self.selected_room}
            if self.page == "layout" and self.selected_room and not zoomed
            else set()
        )
        # the Strigoi mark printed on a platform's centre: a Strigoi's diamond, as in play
        view.strigoi_marks = {
            fortress.centre(room.id) for room in fortress.rooms.values() if room.strigoi_start
        }
        markers: dict[Cell, tuple[float, float, float, float]] = {}
        if self.page == "ladders":
            taken = {seat.site for seat in self.plan.seats}
            for site in self.plan.sites():
                if (site.room, site.side) not in taken:  # a chosen one shows its ladder
                    cell = site_cell(fortress, site.room, site.side)
                    markers[cell] = SITE_OK if site.allowed else SITE_REFUSED
        view.markers = markers
        view.highlight = set()
        view.redraw()

    def _button(
        self, box: BoxLayout, text: str, action: Callable[[], None], **kw: object
    ) -> Widget:
        button = Factory.RowButton(text=text, **kw)
        button.bind(on_release=lambda _b: action())
        box.add_widget(button)
        return button

    def _row(self, box: BoxLayout) -> BoxLayout:
        row = ButtonRow()
        box.add_widget(row)
        return row

    def _note(self, box: BoxLayout, text: str) -> None:
        box.add_widget(Factory.NoteLabel(text=text))

    # ----- pages -------------------------------------------------------------------------------
    def _page_players(self, box: BoxLayout) -> None:
        # from 150 % on the seat's buttons go under its name: four in a row broke "Remove"
        apart = (getattr(App.get_running_app(), "text_scale", 1.0) or 1.0) > 1.25
        for i, seat in enumerate(self.plan.seats):
            row = self._row(box)
            self._button(
                row,
                f"{i + 1}. {hero_name(seat.hero)}",
                lambda i=i: self._try(lambda: self.plan.next_hero(i)),
                size_hint_x=2,
            )
            row = self._row(box) if apart else row
            last = i == len(self.plan.seats) - 1
            self._button(
                row,
                tr("Up"),
                lambda i=i: self._try(lambda: self.plan.move_seat(i, -1)),
                disabled=i == 0,
            )
            self._button(
                row,
                tr("Down"),
                lambda i=i: self._try(lambda: self.plan.move_seat(i, +1)),
                disabled=last,
            )
            self._button(
                row,
                tr("Remove"),
                lambda i=i: self._try(lambda: self.plan.remove_player(i)),
                disabled=not self.plan.can_remove_player(),
            )
        full = not self.plan.can_add_player()
        # why Add player or Remove is disabled stands in the hint (`players_reason`), always in
        # sight: below the list it hid under Back/Next at large French text (issue 29 playtest)
        self._button(box, tr("Add player"), lambda: self._try(self.plan.add_player), disabled=full)

    def players_reason(self) -> str:
        """Why a player can be neither added nor removed, or ""."""
        if not self.plan.can_add_player():
            return tr("At most five players can play.")
        if not self.plan.can_remove_player():
            return tr("At least two players must play.")
        return ""

    def _page_layout(self, box: BoxLayout) -> None:
        room = self.selected_room
        if room is not None and self.view.zoom_room == room:
            # zoomed to one room: the way back first, always in sight (at 800x480 with large
            # French text it came last, half under the list's edge); Default and Random
            # change the whole fortress: they wait on it
            self._button(box, tr("Whole fortress"), self._zoom_out)
        else:
            row = self._row(box)
            self._button(row, tr("Default"), lambda: self._try(self.plan.use_default_layout))
            self._button(
                row,
                tr("Random"),
                lambda: self._try(lambda: self.plan.randomise_layout(random.Random())),
            )
        if room is None or room not in self.plan.fortress.rooms:
            self._note(box, tr("Tap a room on the board to see it large."))
            return
        parts = self.plan.room_parts(room)
        box.add_widget(Factory.RoomHeading(text=capital_first(room_name(room))))  # a heading
        self._note(box, tile_words(parts))
        self._note(box, platform_words(parts))
        row = self._row(box)
        self._button(row, tr("Turn tile"), lambda: self._try(lambda: self.plan.turn_tile(room)))
        self._button(
            row,
            tr("Turn platform"),
            lambda: self._try(lambda: self.plan.turn_platform(room)),
            disabled=parts.book_facing is None,
        )
        if self.view.zoom_room != room:
            self._button(box, tr("See this room large"), lambda: self._zoom(room))

    def _page_ladders(self, box: BoxLayout) -> None:
        row = self._row(box)
        for i, seat in enumerate(self.plan.seats):
            colour = theme.FIGURE_COLOURS.get(seat.hero, theme.HERO)
            button = self._button(
                box,
                ladder_seat_line(seat.hero, seat.site),
                lambda i=i: self._pick_seat(i),
                background_color=colour if i == self.active_seat else theme.PANEL,
                color=theme.ink_on(colour) if i == self.active_seat else theme.TEXT,
                halign="left",
            )
            button.bold = i == self.active_seat
        box.remove_widget(row)
        seat = self.plan.seats[self.active_seat]
        self._note(box, tr("Where does {hero}'s ladder stand?").format(hero=hero_name(seat.hero)))
        for site in self.plan.sites():
            if site.allowed or (site.room, site.side) == seat.site:
                self._button(
                    box,
                    site_label(site.room, site.side),
                    lambda site=site: self._place(site.room, site.side),
                )
        refused = self.plan.refused_sites(seat)  # each reason once
        self._note(box, tr("Not allowed:") + "\n" + "\n".join(refused))

    def _pick_seat(self, index: int) -> None:
        self.active_seat = index
        self.message = ""
        self.rebuild()

    def _place(self, room: str, side: int) -> None:
        def place() -> None:
            self.plan.place_ladder(self.active_seat, room, side)
            free = [i for i, s in enumerate(self.plan.seats) if s.site is None]
            if free:
                self.active_seat = free[0]

        self._try(place)

    def _page_stacks(self, box: BoxLayout) -> None:
        for stack in PHYSICAL_STACKS:
            physical = stack in self.plan.physical
            row = CheckRow(text=tr(STACK_NAMES.get(stack, stack)), active=physical)
            row.bind(
                on_release=lambda _row, stack=stack, physical=physical: self._try(
                    lambda: self.plan.set_physical(stack, not physical)
                )
            )
            box.add_widget(row)

    def _page_cards(self, box: BoxLayout) -> None:
        registry = self.registration.registry
        asking = self.registration.waiting_for
        for seat in self.plan.seats:
            for card, title in self.cards_of(seat.hero):
                self._titles[card] = title
                known = bool(registry.tags_of("action_card", card))
                if asking == ("action_card", card):
                    status = tr("tap it on a reader now")
                else:
                    status = tr("registered") if known else tr("not registered")
                self._button(
                    box,
                    f"{hero_name(seat.hero)}: {title} · {status}",
                    lambda card=card: self._ask(card),
                    background_color=theme.ACCENT
                    if asking == ("action_card", card)
                    else theme.PANEL,
                )

        self._note(box, tr("Platform rim tags: six per platform, one beside each book."))
        for platform in self.platforms():
            missing = rim_edges_missing(registry, platform)
            target = asking[1] if asking is not None and asking[0] == "platform" else ""
            waiting = target.rpartition(":")[0] == platform
            if waiting:
                status = tr("tap the tag beside book {book} now").format(
                    book=self.book(platform, missing[0])
                )
            else:
                status = tr("{done} of 6 registered").format(done=RIM_EDGES - len(missing))
            self._button(
                box,
                f"{self.platform_name(platform)} · {status}",
                lambda platform=platform: self._ask_rim(platform),
                background_color=theme.ACCENT if waiting else theme.PANEL,
            )

    def platforms(self) -> list[str]:
        """The platforms of the layout being set up (their rim tags are registered here)."""
        return sorted({r.platform for r in self.plan.fortress.rooms.values() if r.platform})

    def platform_name(self, platform: str) -> str:
        """A platform as players know it: by the room it lies in ("platform of the east room")."""
        return tr("platform of the {room}").format(room=platform_home(self.plan.fortress, platform))

    def book(self, platform: str, edge: int) -> str:
        """The book letter printed beside rim edge `edge` (hardware/README.md, tag layout)."""
        fortress = self.plan.fortress
        room = next(r.id for r in fortress.rooms.values() if r.platform == platform)
        return fortress.platforms[room].books[edge]

    def _ask(self, card: str) -> None:
        self.registration.ask("action_card", card)
        self.message = tr("Tap the card {card} on a reader.").format(card=self._titles[card])
        self.rebuild()

    def _ask_rim(self, platform: str) -> None:
        """Ask for the platform's first unregistered rim tag; the next ones follow tap by tap."""
        missing = rim_edges_missing(self.registration.registry, platform)
        if not missing:
            self.registration.cancel()
            self.message = tr("All six rim tags of the {platform} are registered.").format(
                platform=self.platform_name(platform)
            )
        else:
            self.registration.ask("platform", rim_target(platform, missing[0]))
            self.message = tr(
                "Tap the rim tag beside book {book} of the {platform} on a reader."
            ).format(book=self.book(platform, missing[0]), platform=self.platform_name(platform))
        self.rebuild()

    def on_tap(self, tap: Tap) -> None:
        """A reader saw a card while this screen shows (the app routes taps here)."""
        result = self.registration.on_tap(tap)
        if isinstance(result, Registered) and result.binding.kind == "platform":
            self._ask_rim(result.binding.target.rpartition(":")[0])  # on to the next edge
            return
        if isinstance(result, Registered):
            target = result.binding.target
            self.message = tr("{card} registered.").format(card=self._titles.get(target, target))
        elif isinstance(result, AlreadyBound):
            self.message = tr("This tag already names {target}; nothing changed.").format(
                target=self._titles.get(result.existing.target, result.existing.target)
            )
        else:
            return
        self.rebuild()

    # ----- the board ---------------------------------------------------------------------------
    def _zoom(self, room: str) -> None:
        self.selected_room = room
        self.view.zoom_room = room
        self.message = ""
        self.rebuild()

    def _zoom_out(self) -> None:
        self.view.zoom_room = None
        self.rebuild()

    def _touch_up(self, view: FortressView, touch: MotionEvent) -> None:
        """A tap (no drag) on a room of the whole fortress zooms to it, once the view has
        finished with the touch (a drag between two rooms swaps them instead)."""
        if touch.grab_current is not view or self.page != "layout" or view.zoom_room:
            return
        start = touch.ud.get("fortress_start")
        if start is None or view.cell_at(*touch.pos) != start:
            return
        room = self.plan.fortress.room_at(start)
        if room is not None:
            Clock.schedule_once(lambda _dt: self._zoom(room), 0)

    def _on_cell(self, cell: Cell) -> None:
        if self.page == "layout":
            room = self.plan.fortress.room_at(cell)
            if room is not None and self.view.zoom_room is None:
                self.selected_room = room
                self.message = ""
        elif self.page == "ladders":
            for site in self.plan.sites():
                if site_cell(self.plan.fortress, site.room, site.side) == cell:
                    if site.allowed:
                        self._place(site.room, site.side)
                    else:
                        self.message = site_refusal(site.room, site.side, site.reason, site.holder)
                        self.rebuild()

    def _on_drag(self, start: Cell, end: Cell) -> None:
        if self.page != "layout" or self.view.zoom_room is not None:
            return
        first, second = self.plan.fortress.room_at(start), self.plan.fortress.room_at(end)
        if first is not None and second is not None and first != second:
            self.selected_room = second
            self._try(lambda: self.plan.swap_rooms(first, second))


def board_aspect(cells: list[Cell]) -> float:
    """The width against the height of the whole board as FortressView fits it: the cells
    (every space, the ladder sides beyond) and the view's margin round them."""
    xs = [math.sqrt(3) * (q + r / 2) for q, r in cells]
    ys = [1.5 * r for _, r in cells]
    return (max(xs) - min(xs) + BOARD_MARGIN) / (max(ys) - min(ys) + BOARD_MARGIN)


def tile_words(parts: RoomParts) -> str:
    """A tile by what is printed on it: its encounter spaces and stairs."""
    counts = parts.tile_spaces
    printed = [
        ngettext("{count} red space", "{count} red spaces", counts["red"]).format(
            count=counts["red"]
        ),
        ngettext("{count} grey space", "{count} grey spaces", counts["grey"]).format(
            count=counts["grey"]
        ),
        ngettext("{count} stairs space", "{count} stairs spaces", counts["stairs"]).format(
            count=counts["stairs"]
        ),
    ]
    # a count stays on the line of its word: "1 stairs space" never breaks after the "1"
    kept = [part.replace(" ", "\u00a0", 1) if part[:1].isdigit() else part for part in printed]
    return tr("Tile: {printed}.").format(printed=", ".join(kept))


def platform_words(parts: RoomParts) -> str:
    """A platform by its printed books (read round the rim from A) and its Strigoi mark, and
    which way it is turned (its first book's direction, as the round screen says it)."""
    if parts.book_facing is None:
        return tr("The centre room has no platform; its tile stays in the middle.")
    book, direction = parts.book_facing
    books = "\u00a0".join(parts.books)  # one word to the line breaker: never a lone "F"
    if parts.marked:
        text = tr("Platform with the Strigoi mark, books {books}; book {book} faces {direction}.")
    else:
        text = tr("Platform with books {books}; book {book} faces {direction}.")
    return text.format(books=books, book=book, direction=direction_name(direction))
