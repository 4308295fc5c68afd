"""The round, board first: the fortress takes most of the screen; tapping a room zooms to it so
every space is big enough for a finger, and a space is chosen in two steps (tap, then "Move
here"). The panel beside it holds the Altar and Inferno counters, what the game waits for, the
options the engine allows, Undo and Redo that say what they undo, and a row of tools (Why?,
Fix, More). A Strigoi step or a curse comes as a card, one after the other, until the players
say the figures are moved. What the table must do first (companion/app/table/tracking.py) holds the
options back. A card choice stays hidden until all players have chosen (R-RND-1)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from pathlib import Path

from kivy.clock import Clock
from kivy.core.text.markup import MarkupLabel as CoreLabel
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.app.board.targets import target_cell
from companion.app.board.threats import threat_levels, waiting_hero
from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import Card
from companion.app.story.cards import card_of
from companion.app.story.hero_panel import PanelAction, hero_panel
from companion.app.table.tracking import TableStatus
from companion.app.web.qr import phone_word
from companion.app.web.seat_guide import PRIVATE_TASKS
from companion.app.words.command_labels import command_label, group_label
from companion.app.words.i18n import tr
from companion.app.words.names import room_name, strigoi_label, strigoi_subject
from companion.app.words.table_texts import differences_alert
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.context import ALTAR_NEEDED, INFERNO_LOSES, GameRules, situation
from companion.engine.game.kinds import TaskKind
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from companion.engine.hexgrid import Cell
from companion.engine.situation import STRIGOI
from companion.engine.threat import Level
from ui import theme
from ui.board.layout import Box
from ui.board.view import FortressView
from ui.screens.round.board import BoardChoice, FixTarget, board_prompt, focus_room
from ui.screens.round.card_panel import CardPanel  # noqa: F401  (screen.kv places it)
from ui.screens.round.guard import guard_round
from ui.screens.round.hero_panel import HeroPanelView
from ui.screens.round.host import RoundHost
from ui.screens.round.panel import RoundPanel
from ui.screens.round.phones import PhonesView
from ui.screens.round.status import status_text, threat_legend, wound_chips
from ui.screens.round.strigoi_card import card_scene
from ui.widgets.busy import Busy
from ui.widgets.button_row import ButtonRow  # noqa: F401  (the kv's commit box)
from ui.widgets.glyphs import ARROW_MARKUP, with_arrows
from ui.widgets.option_groups import ProtectPicker, arrange, board_mode
from ui.widgets.scrolling import WholeRows, to_top  # noqa: F401  (round.kv: the card's list place)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Run = Callable[[c.Command], None]
CARD_FIGURES = 4  # the large figures a card shows at most (a curse on four heroes)
CARD_LINES = 8  # the lines of what the table must do
Choices = list[tuple[str, Callable[[], None]]]
seat = attrgetter("seat")  # heroes in seat order


class RoundScreen(RoundPanel, Screen):
    banner_text = StringProperty("")
    banner_strong = BooleanProperty(False)  # an announcement (red), not a hint (grey)
    status_text = StringProperty("")
    waiting_text = StringProperty("")
    altar_text = StringProperty("")
    inferno_text = StringProperty("")
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    can_explain = BooleanProperty(False)
    threat_on = BooleanProperty(False)
    fixing = BooleanProperty(False)
    list_first = BooleanProperty(False)  # an opened list folds the status lines away
    menu_open = BooleanProperty(False)  # Why?, More… or Fix: Undo and Redo fold away too
    zoomed = BooleanProperty(False)
    card_showing = BooleanProperty(False)  # a Strigoi card over the panel
    card_title = StringProperty("")
    card_headline = StringProperty("")  # large: "Master -> north-east room"
    card_source = StringProperty("")  # the token and whose card letter drove it
    card_done_text = StringProperty("")
    card_has_reasons = BooleanProperty(False)
    alert_text = StringProperty("")  # a lasting difference between table and game: Resync
    alerts = NumericProperty(0)

    def __init__(self, host: RoundHost, **kwargs: object) -> None:
        self.host = host  # what it may call (round/host.py), never the App itself
        self.working = Busy()  # a command's busy sign on the button that started it
        super().__init__(**kwargs)

    def attach_board(self, view: FortressView) -> None:
        self.view = view
        view.zoom_on_tap = True
        view.show_legend = True
        view.on_zoom = self._zoomed
        view.on_cell = self._on_cell
        view.covered = self._covering
        view.keep_clear_of(self.ids.zoom_out)
        self.choice = BoardChoice()
        self.open_group: tuple[str, ...] | None = None
        self.picker: ProtectPicker | None = None
        self.showing_why = self.showing_more = False
        self.last: Announcement | None = None
        self.cards: list[Announcement] = []  # the command's story items still to be read
        self._lines: list[str] = []  # the command's line items said so far (its banner)
        self.card: Card | None = None  # the card showing (its words are the banner's)
        self._card_on_board: Announcement | None = None  # the item the board shows
        self.stale = True  # no options until the app shows the first ones
        self._pool: list[Widget] = []  # option buttons off screen, ready to be reused
        self._labels: dict[str, list[Widget]] = {"InfoLabel": [], "TitleLabel": []}
        self.table = TableStatus((), (), ())
        self.focused = -1  # the option the Pi's Next button moved to (-1: none)
        self.by_hand: Callable[[], None] = lambda: None
        self.repeat: Callable[[Announcement], None] = lambda announcement: None
        #: tells the table service which story item shows (the LED rings follow it)
        self.app_showing: Callable[[Announcement | None], None] = lambda announcement: None
        self._card_item: Announcement | None = None
        self.ring_legend: list[tuple[str, tuple[float, float, float, float], str]] = []
        self.threat_legend: list[tuple[str, tuple[float, float, float, float], str]] = []
        self.choices: tuple[str, Choices] | None = None
        self._panel_shown: tuple[str, int] | None = None  # the list's kind and the game's step
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)
        self.hero_view = HeroPanelView()
        self.add_widget(self.hero_view)  # over everything else of the screen
        self.hero_view.dismissing = self.close_hero  # closed, it stays closed
        self.hero_open: tuple[str, bool, bool] | None = None  # hero, hand shown, Fix offered
        self.guard = guard_round(self)  # a touch on what just moved is held back a moment
        self._warm_card()

    def _warm_card(self) -> None:
        """What the first card would otherwise build in its own frame: its labels, and the
        arrow's font (DejaVu Sans, loaded once per size) with its text textures."""
        figures, todo = self.ids.card_figures, self.ids.card_todo
        for _ in range(CARD_FIGURES):
            figure = Factory.CardFigure()
            figure.folded = True
            figures.add_widget(figure)
        for _ in range(CARD_LINES):
            todo.add_widget(Factory.CardLine())
        scale = self.host.text_scale
        for size, bold in ((sp(24) * scale, True), (sp(26) * scale, True), (sp(16) * scale, False)):
            warm = CoreLabel(text=f"0 {ARROW_MARKUP} 0", font_size=size, bold=bold, markup=True)
            warm.refresh()

    # ----- what the app calls ------------------------------------------------------------------
    def show_options(
        self,
        rules: GameRules,
        state: GameState,
        task: Task | None,
        waiting: str,
        options: list[c.Command],
        run: Run,
        undo: str | None = None,
        redo: str | None = None,
    ) -> None:
        """The state after a command (or undo, redo, resume): counters, what the game waits
        for, the options; `undo`/`redo` are the buttons' sentences (labels.undo_label)."""
        self.rules, self.state, self.task, self.options = rules, state, task, options
        self.waiting, self.run = waiting, run
        self.stale = False
        players = state.players
        self.altar_text = tr("Altar {altar}/{needed}").format(
            altar=state.altar, needed=ALTAR_NEEDED[players]
        )
        self.inferno_text = tr("Inferno {inferno}/{loses}").format(
            inferno=state.inferno, loses=INFERNO_LOSES[players]
        )
        self.status_text = status_text(state)
        self._show_wounds(wound_chips(rules, state))
        self.can_undo, self.can_redo = undo is not None, redo is not None
        self.undo_text = undo or tr("Undo")  # one sentence: "Undo Attila's move to …"
        self.redo_text = redo or tr("Redo")
        keys = {getattr(item, "key", None) for item in arrange(options)}
        if self.open_group not in keys:
            self.open_group = None
        protects = tuple(o for o in options if isinstance(o, c.Protect))
        if not protects:
            self.picker = None
        elif self.picker is None or self.picker.options != protects:
            self.picker = ProtectPicker(protects)
        self.choice.offer(options)
        self._auto_zoom()  # before the prompt: it says whether to zoom in first
        self._update_waiting()
        self._board()
        self._fill()
        if self.hero_open is not None:
            self.open_hero(*self.hero_open)

    def _update_waiting(self) -> None:
        fix = self.choice.fix
        if fix is not None:
            self.waiting_text = self._fix_prompt(fix)
        elif self.choice.modes:
            prompt = board_prompt(self.choice, zoomed=self.zoomed)
            self.waiting_text = self.waiting if prompt is None else prompt
        else:
            self.waiting_text = self.waiting

    def _auto_zoom(self, follow: bool = True) -> None:
        """The board shows what the game waits for, derived from the state alone, so that
        undo, redo and resume leave no zoom of another turn behind: the room of what the table
        must do first (a platform to turn), else the room of the spaces to choose, else the
        waiting hero's room (`focus_room`), else the whole fortress. A zoom
        the players chose lasts until the next command. `follow` False (another way of
        moving chosen): only the room of the spaces, when they lie in one. A card showing
        decides the zoom itself (the board shows what the card tells); Fix is the players'."""
        if self.cards or self.choice.fix is not None:
            return
        cells = self.choice.cells(self.rules.fortress, self.state)
        rooms_to_do = {action.room for action in self.table.actions}
        if follow and rooms_to_do:  # the table's to-dos hold the game: their room, if one
            room = rooms_to_do.pop() if len(rooms_to_do) == 1 else None
        elif follow:
            room = focus_room(self.state, self.task, cells, self.view.room_near)
        else:
            rooms = {self.view.room_near(cell) for cell in cells}
            one = len(rooms) == 1 and None not in rooms
            room = rooms.pop() if one else (self.view.zoom_room if cells else None)
        if room != self.view.zoom_room:
            self.view.zoom_room = room
        self.zoomed = room is not None

    def _choose(self, command: c.Command) -> None:
        if not self.stale:  # a second tap before the new options are shown is not a choice
            self.choice.cancel()
            self.working.start(lambda: self.run(command))  # behind its button's busy sign

    def show_table(self, status: TableStatus, by_hand: Callable[[], None]) -> None:
        """The table's open actions (they hold the game's options back until the table has
        followed) and its alerts (a strip that opens the Resync screen)."""
        changed = status.actions != self.table.actions
        self.table, self.by_hand = status, by_hand
        if changed and getattr(self, "hero_open", None) is not None:
            self.open_hero(*self.hero_open)  # type: ignore[misc]
        self.alerts = len(status.alerts)
        self.alert_text = differences_alert(self.rules.fortress, status.alerts)
        if changed and hasattr(self, "options"):
            self._auto_zoom()  # the board shows the room of what the table must do
            self._update_waiting()
            self._fill()

    def show_choices(self, title: str, choices: Choices) -> None:
        """A short list to pick from (a tapped reward card's uses, what a new tag is), over the
        options until one is picked, Close is tapped or a command is made."""
        self.choices = (title, choices)
        self._fill()

    def close_choices(self) -> None:
        self.choices = None
        self.showing_more = False
        self._fill()

    def hint(self, text: str) -> None:
        """A quiet line in the banner (grey, not an announcement)."""
        self.banner_text, self.banner_strong = text, False

    def announced(self, announcement: Announcement, headline: str) -> None:
        """One item of a command's story (a Strigoi step, a curse or none, a collapse, a fight,
        a monk, wounds): its card in turn, the banner saying the card's words, the board
        showing what it tells. A line item (a round, the turn order, whose turn, an undo) has
        no card: the banner says it unless a card's words show."""
        if announcement.line:  # one command's lines together: a block, then whose turn
            self._lines.append(headline)
            if not self.cards:
                self.banner_text, self.banner_strong = " ".join(self._lines), True
            return
        self.cards.append(announcement)
        if announcement.kind == "strigoi_step":
            self.last = announcement
            self.can_explain = bool(announcement.reasons)
        if hasattr(self, "options"):
            self._show_card()  # in the same frame as the banner: texts and an opacity
            if len(self.cards) == 1:  # the board follows in the next frame
                Clock.schedule_once(lambda _dt: self._story_board(), 0)
        elif len(self.cards) == 1:
            self.banner_text, self.banner_strong = headline, True

    def clear_announcements(self) -> None:
        """A new game, undo, redo, resume, a new language: nothing stale stays."""
        self.banner_text, self.banner_strong = "", False
        self._lines = []
        self.cards = []
        self.card, self._card_on_board = None, None
        self.card_showing = False
        self.last, self.can_explain = None, False
        self.showing_why = False

    def refresh_options(self) -> None:
        """A phone took or left a seat: the options of a card choice or a private decision say
        again who decides where; any other step's list stays as it is, not moved under a finger."""
        task = getattr(self, "task", None)
        if self.stale or task is None or task.kind not in (TaskKind.CHOOSE, *PRIVATE_TASKS):
            return
        self._fill()

    def command_done(self) -> None:
        """A new command: the last step's arrow and sight line go, "Why?" stays available. The
        options on screen belong to the state before it until the app shows the new ones."""
        self.stale = True
        self._lines = []
        self.showing_why = self.showing_more = False
        self.choices = None
        self.cards = []  # the cards of the command before; this one's follow in order
        self.card = None
        self.card_showing = False
        self.close_hero()
        self.choice.cancel()
        if self.choice.fix is not None:
            self.choice.fix = None
            self.fixing = False

    # ----- the board ---------------------------------------------------------------------------
    def _board(self) -> None:
        if self.cards:
            self._story_board(redraw=False)
            return
        view = self.view
        view.marked = set()
        view.outlined = set()
        fortress = self.rules.fortress
        view.highlight = self.choice.cells(fortress, self.state)
        pending = self.choice.pending
        view.selected = target_cell(pending) if pending is not None else None
        if isinstance(pending, c.SetStrigoiPosition):
            view.selected = fortress.centre(pending.room)
        elif isinstance(pending, c.SetRotation):
            view.selected = None
        levels = self._threat_levels() if self.threat_on else {}
        view.tints = {cell: theme.THREAT[level] for cell, level in levels.items()}
        view.crosses = {cell for cell, level in levels.items() if level == "deadly"}
        self.threat_legend = threat_legend() if self.threat_on else []
        self._legend()
        view.lines = []  # a Strigoi's arrow shows while its card does, never after
        self._names()

    def _names(self) -> None:
        view = self.view
        fortress = self.rules.fortress
        view.names = {room: room_name(room) for room in fortress.rooms}
        view.figure_names = {
            **{f"hero:{h.hero}": hero_name(h.hero) for h in sorted(self.state.heroes, key=seat)},
            **{
                f"strigoi:{name}": f"{strigoi_label(name)} {self.state.strigoi_wounds.get(name, 0)}"
                f"/{self.rules.catalog.strigoi[name].existence}"
                for name in STRIGOI
                if name in self.rules.catalog.strigoi
            },
        }

    def _on_cell(self, cell: Cell) -> None:
        if self.stale:
            return
        command = self.choice.tap(cell, self.rules.fortress, self.state)
        fix = self.choice.fix
        if command is None and fix is not None and fix.kind == "rotation" and fix.name:
            self.view.zoom_to(fix.name)  # the platform chosen: now the edge its book faces
        self._update_waiting()
        self._board()
        self.view.redraw()
        self._fill()

    def _zoomed(self, room: str | None) -> None:
        self.zoomed = room is not None
        if hasattr(self, "options"):
            self._update_waiting()

    def _covering(self) -> list[Box]:
        """The "Whole fortress" button over the zoomed board (the same screen's coordinates)."""
        button = self.ids.zoom_out
        if self.view.zoom_room is None:  # shown with the zoom (set after this redraw)
            return []
        return [Box("Whole fortress", button.x, button.y, button.width, button.height)]

    def zoom_out(self) -> None:
        self.view.zoom_to(None)

    def confirm(self) -> None:
        """Commit the chosen space (or the correction)."""
        pending = self.choice.pending
        if pending is not None:
            self._choose(pending)

    def cancel(self) -> None:
        self.choice.cancel()
        self._board()
        self.view.redraw()
        self._fill()

    def _threat_levels(self) -> dict[Cell, Level]:
        """The engine's threat map for the hero the game waits for (the mover), on the
        situation the app already built for the board view."""
        return threat_levels(self.rules, self.view.situation, waiting_hero(self.task, self.state))

    def toggle_threat(self) -> None:
        self.threat_on = not self.threat_on
        self._board()
        self.view.redraw()

    # ----- corrections (Fix) -------------------------------------------------------------------
    def toggle_fix(self) -> None:
        """Fix: pick what to correct, then tap where it really is (two taps on the board)."""
        self.fixing = not self.fixing
        self.choice.fix = None
        self.choice.cancel()
        self._update_waiting()
        self._board()
        self.view.redraw()
        self._fill()

    def fix_position_of(self, hero: str) -> None:
        """Fix position for this hero (the Resync screen: a figure the readers miss)."""
        self.fixing = True
        self._fix(FixTarget("hero", hero))

    def _fix(self, target: FixTarget) -> None:
        self.choice.fix = target
        self.choice.cancel()
        if target.kind != "hero" or self.view.zoom_room is None:
            self.view.zoom_to(None)
        self._update_waiting()
        self._board()
        self.view.redraw()
        self._fill()

    def _fix_prompt(self, fix: FixTarget) -> str:
        if fix.kind == "hero":
            return tr("Tap the space where {hero} really stands.").format(hero=hero_name(fix.name))
        if fix.kind == "strigoi":
            return tr("Tap the platform centre where {strigoi} really stands.").format(
                strigoi=strigoi_subject(fix.name)  # inside a sentence: with its article
            )
        if not fix.name:
            return tr("Tap the platform whose rotation is wrong.")
        return tr("Tap the edge that book {book} of the {room} really faces.").format(
            book=self.rules.fortress.platforms[fix.name].books[0], room=room_name(fix.name)
        )

    # ----- the panel ---------------------------------------------------------------------------
    def toggle_why(self) -> None:
        self.showing_why = not self.showing_why and self.last is not None
        self._fill()

    def _why_of(self, announcement: Announcement) -> None:
        """Why? on a card: the reasons of that card (a curse's, a step's)."""
        self.last = announcement
        self.can_explain = True  # the tool row's Why? closes it again
        self.showing_why = True
        self._fill()

    def open_more(self) -> None:
        self.showing_more = not self.showing_more
        self._fill()

    def _set_mode(self, mode: tuple[str, str]) -> None:
        self.choice.mode = mode
        self.choice.cancel()
        self._auto_zoom(follow=False)
        self._board()
        self.view.redraw()
        self._fill()

    def _show_card(self) -> None:
        """The first story item still to be read, over the panel (hidden while Why? or More is
        open); the banner says that card's words, whichever list is open."""
        showing = bool(self.cards) and not self.showing_why and not self.showing_more
        if self.cards:
            announcement = self.cards[0]
            card = self.card
            if card is None or self._card_item is not announcement:
                card = self.card = card_of(self.rules.catalog, announcement, self.rules.fortress)
                self._card_item = announcement
                self.card_title = card.title
                self.card_headline = with_arrows(escape_markup(card.headline))
                self.card_source = card.source
                self._card_texts(card)
                self.card_has_reasons = bool(card.why)
                to_top(self.ids.card_scroll)  # each card read from its headline
            self.banner_text, self.banner_strong = card.words, True
            more = len(self.cards) - 1
            self.card_done_text = (
                tr("Next ({count} more)").format(count=more) if more else card.done
            )
        self.card_showing = showing

    def _card_texts(self, card: Card) -> None:
        """The card's large figures and what the table must do, in labels made once and kept
        (a new kv widget costs more than a frame): the unused ones are empty and folded."""
        figures = self.ids.card_figures
        todo = self.ids.card_todo
        figures.cols = 1  # each a whole sentence, as wide as the card (issue 29)
        size = int(sp(18) * self.host.text_scale)  # under the headline's 24
        shown = [
            f"[size={size}][b]{escape_markup(f.value)}[/b][/size]"
            + (f"\n{escape_markup(f.caption)}" if f.caption else "")
            for f in card.figures[:CARD_FIGURES]
        ]
        for i, widget in enumerate(reversed(figures.children)):
            widget.text = shown[i] if i < len(shown) else ""
            widget.folded = i >= len(shown)
        lines = list(card.todo[: CARD_LINES - 1])
        if len(card.todo) >= CARD_LINES:  # never seen in a game; kept whole all the same
            lines.append(" ".join(card.todo[CARD_LINES - 1 :]))
        for i, widget in enumerate(reversed(todo.children)):
            widget.text = lines[i] if i < len(lines) else ""

    def _story_board(self, redraw: bool = True) -> None:
        """While a card shows, the board shows what it tells: the game just after that item,
        zoomed out (or onto its one room), the arrow from one room to the other around the
        figures, the heroes it names marked, the cursed or collapsing room outlined."""
        if not self.cards or not hasattr(self, "rules"):
            return
        announcement = self.cards[0]
        view = self.view
        scene = card_scene(self.rules, announcement)
        if announcement.board is not None:
            view.situation = situation(self.rules, announcement.board)
        view.highlight = set()
        view.selected = None
        view.tints, view.crosses = {}, set()
        view.lines = scene.lines
        view.marked = scene.marked
        view.outlined = scene.outlined
        self.threat_legend = []
        self._legend()
        self._names()
        if view.zoom_room != scene.zoom:
            view.zoom_room = scene.zoom
            self.zoomed = scene.zoom is not None
        self._card_on_board = announcement
        if redraw:
            view.redraw()
        self.app_showing(announcement)

    def _legend(self) -> None:
        self.view.legend_extra = [*self.ring_legend, *self.threat_legend]

    def card_why(self) -> None:
        """Why? on a card: the reasons of that card (a curse's, a step's)."""
        if self.cards:
            self._why_of(self.cards[0])

    def card_repeat(self) -> None:
        if self.cards:
            self.repeat(self.cards[0])

    def card_done(self) -> None:
        """The card is read (its figures moved): the next card, its board and rings; after the
        last one the board shows the game as it stands and the options come back."""
        if self.cards:
            self.cards.pop(0)
        if self.cards:
            self._fill()
            self._story_board()
            return
        self.by_hand()  # the players say the figures stand where the card said
        self.card = None
        self.banner_strong = False  # the last card's words stay, quiet, until the next command
        self.app_showing(None)
        self.view.situation = situation(self.rules, self.state)
        self._auto_zoom()
        self._update_waiting()
        self._board()
        self.view.redraw()
        self._fill()

    # ----- a hero's panel ------------------------------------------------------------------------
    def open_hero(self, hero: str, show_hand: bool = False, fix: bool = False) -> None:
        """The hero's panel over the screen (a chip tapped, the figure on the reader, a hand
        opened for the secret choice); `fix` offers Fix position too (the figure's tap)."""
        if not hasattr(self, "options") or hero not in {h.hero for h in self.state.heroes}:
            return
        self.hero_open = (hero, show_hand, fix)
        # what the table must do first holds the panel's commands back too, as the options
        legal = [] if self.table.actions else self.options
        panel = hero_panel(self.rules, self.state, hero, legal, show_hand=show_hand)
        extra = []
        if fix:
            extra.append(
                (
                    tr("Fix position of {hero}").format(hero=hero_name(hero)),
                    lambda: (self.close_hero(), self.fix_position_of(hero)),
                )
            )
        phone = None
        if self.host.web_feed is not None and self.state.phase != "over":
            # the hero's seat link as a QR code, for that player's own phone (round/phones.py)
            phone = (phone_word("seat").format(hero=hero_name(hero)), lambda: self._phone(hero))
        again = lambda: self.open_hero(hero, True, fix)  # noqa: E731
        self.hero_view.show(panel, self._hero_action, again, extra, phone)
        self.focused = -1

    def _phone(self, hero: str) -> None:
        self.close_hero()
        PhonesView(self.host, seat=hero).open()

    def close_hero(self) -> None:
        if getattr(self, "hero_open", None) is not None:
            self.hero_open = None
            self.hero_view.close()

    def _hero_action(self, action: PanelAction) -> None:
        """An ability (or a card) from the panel: the same legal command the options send; an
        ability still to be aimed goes to the board (Leap, Pack) or to its room's list
        (Mechanics)."""
        self.close_hero()
        commands = action.commands
        if len(commands) == 1 and board_mode(commands[0]) is None:
            self._choose(commands[0])
            return
        mode = board_mode(commands[0])
        if mode is not None and mode in self.choice.modes:
            self.view.zoom_to(None)
            self._set_mode(mode)
            return
        rooms = list(dict.fromkeys(getattr(x, "room", "") for x in commands))
        hero = str(getattr(commands[0], "hero", ""))
        self.show_choices(
            action.label,
            [
                (
                    group_label(("mechanics", hero, room)),
                    lambda room=room: self._aim(action, room),
                )
                for room in rooms
            ],
        )

    def _aim(self, action: PanelAction, room: str) -> None:
        """Mechanics from the panel, its room chosen: the turns of that room's platform."""
        turns = [x for x in action.commands if getattr(x, "room", None) == room]
        self.show_choices(
            action.label,
            [
                (
                    command_label(x, self.rules.catalog, self.rules.fortress),
                    lambda x=x: self._choose(x),
                )
                for x in turns
            ],
        )

    # ----- the Pi's buttons --------------------------------------------------------------------
    def option_widgets(self) -> list[Widget]:
        if self.hero_open is not None:
            return list(self.hero_view.buttons())
        shown = [*reversed(self.ids.options.children), *reversed(self.ids.commit_box.children)]
        return [w for w in shown if getattr(w, "pooled", False)]

    def focus_next(self) -> None:
        """Next: move the highlight to the following option (round and round)."""
        buttons = self.option_widgets()
        if not buttons or (self.card_showing and self.hero_open is None):
            return
        self.focused = (self.focused + 1) % len(buttons)
        for i, button in enumerate(buttons):
            rest = theme.COMMIT if getattr(button, "commit", False) else theme.PANEL
            button.background_color = theme.FOCUS if i == self.focused else rest

    def primary(self) -> bool:
        """Confirm: the highlighted option, else the screen's one committing button (Move
        here, Done by hand, the card's Done, the protection picker's choice), else the only
        option. False: nothing to do."""
        if self.card_showing and self.hero_open is None:
            self.card_done()
            return True
        buttons = self.option_widgets()
        chosen = None
        if 0 <= self.focused < len(buttons):
            chosen = buttons[self.focused]
        else:
            commits = [b for b in buttons if getattr(b, "commit", False)]
            if len(commits) == 1:
                chosen = commits[0]
            elif len(buttons) == 1:
                chosen = buttons[0]
        if chosen is None:
            return False
        chosen.action()
        return True
