"""Setup wizard (R-SET): players and heroes in seat order, the room layout (default, random, or
edited on the board: tap a room, turn its tile or platform, drag it onto another to swap them),
each player's ladder (refused sides show the rule's reason), digital or physical stacks, and
tag registration for cards the readers do not know yet. Every change is made on a `SetupPlan`."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.app.i18n import N_, tr
from companion.app.labels import platform_home, site_label
from companion.app.setup_plan import SetupPlan, site_cell
from companion.app.taps import (
    RIM_EDGES,
    AlreadyBound,
    Registered,
    Registration,
    Tap,
    rim_edges_missing,
    rim_target,
)
from companion.engine.explain import hero_name
from companion.engine.game.context import PHYSICAL_STACKS
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from companion.errors import CompanionError
from ui import theme
from ui.fortress_view import FortressView

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
    "players": N_("2-5 players. Tap a hero to change it; seat order breaks initiative ties."),
    "layout": N_("Tap a room to choose it; drag a room onto another to swap them."),
    "ladders": N_("Choose where each hero's ladder stands: an outer side with a corridor."),
    "stacks": N_("Physical: you draw the real tokens and enter them; the app checks them."),
    "cards": N_("Cards with a known tag can be tapped on a reader to play them."),
}
STACK_NAMES = {
    "red": N_("Red encounter tokens"),
    "grey": N_("Grey encounter tokens"),
    "strigoi": N_("Strigoi action tokens"),
    "wound": N_("Wound tokens"),
    "reward_token": N_("Reward tokens"),
    "reward_card": N_("Reward cards"),
}
SITE_OK = (0.30, 0.75, 0.45, 1.0)
SITE_REFUSED = (0.40, 0.40, 0.44, 1.0)


class SetupScreen(Screen):
    title_text = StringProperty("")
    hint_text = StringProperty("")
    next_text = StringProperty("")
    next_ready = BooleanProperty(True)

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
        self.page = "players"
        self.active_seat = 0
        self.selected_room: str | None = None
        self.message = ""
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)
        view.on_cell = self._on_cell
        view.on_drag = self._on_drag
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
            if not self.plan.problems():
                try:
                    self.start(self.plan)
                except CompanionError as refusal:  # a read-only or full log says why
                    self.message = str(refusal)
                    self.rebuild()
            return
        self._go(PAGES[index + 1])

    def _go(self, page: str) -> None:
        self.page = page
        self.message = ""
        self.rebuild()

    def _try(self, change: Callable[[], None]) -> None:
        """Apply a change; a refusal is shown as the hint, nothing else changes."""
        try:
            change()
            self.message = ""
        except CompanionError as refusal:
            self.message = str(refusal)
        self.rebuild()

    # ----- drawing -----------------------------------------------------------------------------
    def rebuild(self) -> None:
        self.title_text = f"{PAGES.index(self.page) + 1}/{len(PAGES)} · {tr(TITLES[self.page])}"
        self.hint_text = self.message or tr(HINTS[self.page])
        last = self.page == PAGES[-1]
        self.next_text = tr("Start game") if last else tr("Next")
        self.next_ready = not (last or self.page == "ladders") or not self.plan.problems()
        self._board()
        box = self.ids.content
        box.clear_widgets()
        getattr(self, f"_page_{self.page}")(box)

    def _board(self) -> None:
        view = self.view
        view.fortress = self.plan.fortress
        view.situation = Situation(board=self.plan.fortress.initial_state())
        view.outlined = (
            {self.selected_room} if self.page == "layout" and self.selected_room else set()
        )
        markers: dict[Cell, tuple[float, float, float, float]] = {}
        if self.page == "ladders":
            for site in self.plan.sites():
                cell = site_cell(self.plan.fortress, site.room, site.side)
                markers[cell] = SITE_OK if site.allowed else SITE_REFUSED
            for seat in self.plan.seats:
                if seat.site is not None:
                    markers[site_cell(self.plan.fortress, *seat.site)] = theme.HERO
        view.markers = markers
        view.highlight = set()
        view.redraw()

    def _button(self, box: BoxLayout, text: str, action: Callable[[], None], **kw: object) -> None:
        button = Factory.RowButton(text=text, **kw)
        button.bind(on_release=lambda _b: action())
        box.add_widget(button)

    def _row(self, box: BoxLayout) -> BoxLayout:
        row = BoxLayout(orientation="horizontal", size_hint_y=None, height=48, spacing=4)
        box.add_widget(row)
        return row

    def _note(self, box: BoxLayout, text: str) -> None:
        box.add_widget(Factory.NoteLabel(text=text))

    # ----- pages -------------------------------------------------------------------------------
    def _page_players(self, box: BoxLayout) -> None:
        for i, seat in enumerate(self.plan.seats):
            row = self._row(box)
            self._button(
                row,
                f"{i + 1}. {hero_name(seat.hero)}",
                lambda i=i: self._try(lambda: self.plan.next_hero(i)),
                size_hint_x=2,
            )
            self._button(row, tr("Up"), lambda i=i: self._try(lambda: self.plan.move_seat(i, -1)))
            self._button(row, tr("Down"), lambda i=i: self._try(lambda: self.plan.move_seat(i, +1)))
            self._button(
                row, tr("Remove"), lambda i=i: self._try(lambda: self.plan.remove_player(i))
            )
        self._button(box, tr("Add player"), lambda: self._try(self.plan.add_player))

    def _page_layout(self, box: BoxLayout) -> None:
        row = self._row(box)
        self._button(row, tr("Default"), lambda: self._try(self.plan.use_default_layout))
        self._button(
            row,
            tr("Random"),
            lambda: self._try(lambda: self.plan.randomise_layout(random.Random())),
        )
        room = self.selected_room
        if room is None:
            self._note(box, tr("No room chosen."))
            return
        info = self.plan.fortress.rooms[room]
        self._note(
            box,
            tr("Room {room}: tile {tile}, platform {platform}").format(
                room=room, tile=info.tile, platform=info.platform or "-"
            ),
        )
        row = self._row(box)
        self._button(row, tr("Turn tile"), lambda: self._try(lambda: self.plan.turn_tile(room)))
        if info.platform:
            self._button(
                row, tr("Turn platform"), lambda: self._try(lambda: self.plan.turn_platform(room))
            )

    def _page_ladders(self, box: BoxLayout) -> None:
        row = self._row(box)
        for i, seat in enumerate(self.plan.seats):
            place = "-" if seat.site is None else site_label(*seat.site)
            self._button(
                row,
                f"{hero_name(seat.hero)}\n{place}",
                lambda i=i: self._pick_seat(i),
                background_color=theme.ACCENT if i == self.active_seat else theme.PANEL,
                size_hint_y=1,  # as high as the row
            )
        row.height = 84  # the hero and the place in words: up to three lines
        seat = self.plan.seats[self.active_seat]
        self._note(box, tr("Where does {hero}'s ladder stand?").format(hero=hero_name(seat.hero)))
        for site in self.plan.sites():
            if site.allowed or (site.room, site.side) == seat.site:
                self._button(
                    box,
                    site_label(site.room, site.side),
                    lambda site=site: self._place(site.room, site.side),
                )
        refused = [
            f"{site_label(site.room, site.side)}: {site.refusal_in(tr)}"
            for site in self.plan.sites()
            if not site.allowed and (site.room, site.side) != seat.site
        ]
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
            how = tr("physical") if physical else tr("digital")
            self._button(
                box,
                f"{tr(STACK_NAMES.get(stack, stack))}: {how}",
                lambda stack=stack, physical=physical: self._try(
                    lambda: self.plan.set_physical(stack, not physical)
                ),
            )

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
    def _on_cell(self, cell: Cell) -> None:
        if self.page == "layout":
            room = self.plan.fortress.room_at(cell)
            if room is not None:
                self.selected_room = room
                self.message = ""
                self.rebuild()
        elif self.page == "ladders":
            for site in self.plan.sites():
                if site_cell(self.plan.fortress, site.room, site.side) == cell:
                    if site.allowed:
                        self._place(site.room, site.side)
                    else:
                        self.message = f"{site_label(site.room, site.side)}: {site.refusal_in(tr)}"
                        self.rebuild()

    def _on_drag(self, start: Cell, end: Cell) -> None:
        if self.page != "layout":
            return
        first, second = self.plan.fortress.room_at(start), self.plan.fortress.room_at(end)
        if first is not None and second is not None and first != second:
            self.selected_room = second
            self._try(lambda: self.plan.swap_rooms(first, second))
