"""The fortress drawn from the engine's board tables, as it stands on the table: spaces by
feature (with shape marks), room names, each platform's book letters turned as the platform is,
ladders and stairs marked, figures told apart by colour *and* glyph with a legend, and each
platform's LED ring as the hardware shows it. Touches report the cell under the finger; a drag
reports where it started and ended.

`zoom_room` fits one room to the view (tapping a room zooms to it when `zoom_on_tap` is set):
at 800x480 a space is then over 48 px, big enough to be chosen by a finger.

Overlays the screens set: `highlight` rings the spaces that can be chosen (keeping each space's
own fill and mark), `selected` marks the one chosen and waiting for confirmation, `tints` shade
spaces and `crosses` mark the deadly ones (threat map), `markers` are dots on any cell (ladder
sites beside the fortress), `lines` are drawn through cell centres (a Strigoi's teleport arrow,
its line of sight), `outlined` rings whole rooms (the room being edited).

No two figures and no two names cover each other (ui/board/layout.py): crowded figures are
pushed apart beside their spaces, each room's name goes where no figure and no other name is;
`drawn` keeps where each went, for the layout check. Names and the legend grow with the Text
size setting (`text_scale`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kivy.clock import Clock
from kivy.graphics import (
    Fbo,
)
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from ui import theme
from ui.board.figures import Figures
from ui.board.geometry import (
    SQRT3,
    axial_round,
)
from ui.board.layout import (
    Box,
    Circle,
    Item,
    Placed,
)
from ui.board.mesh_batch import RGBA
from ui.board.names import NamesAndLegend
from ui.board.painting import OverlayLine, Painting


class FortressView(NamesAndLegend, Figures, Painting, Widget):
    """The fortress on the touchscreen: its layout and touches here, its names and legend
    (ui/board/names.py) and its painting (ui/board/painting.py) mixed in."""

    def __init__(self, fortress: Fortress, situation: Situation, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fortress = fortress
        self.situation = situation
        self.leds: Mapping[str, str | None] = {}  # room -> colour shown by its LED ring
        #: room -> {direction: colour}: ring segments lit apart (the edge a book must face)
        self.segments: Mapping[str, Mapping[int, str]] = {}
        self.marked: set[Cell] = set()  # figures a card names (the attacked hero): a thick ring
        #: what the legend explains besides the figures: (shape, colour, words); shape is
        #: "ring" (an LED ring's colour), "tint" (a threat map shade) or "deadly"
        self.legend_extra: list[tuple[str, RGBA, str]] = []
        self.ringed: set[str] = set()  # Strigoi whose ring colour is lit: ringed in the legend
        self.highlight: set[Cell] = set()
        self.tints: Mapping[Cell, RGBA] = {}
        self.markers: Mapping[Cell, RGBA] = {}
        #: the Strigoi mark printed on a platform's centre (the setup wizard): a Strigoi's diamond
        self.strigoi_marks: set[Cell] = set()
        self.lines: list[OverlayLine] = []
        self.outlined: set[str] = set()
        self.crosses: set[Cell] = set()  # deadly on the threat map: a mark, not colour alone
        self.selected: Cell | None = None  # a chosen space waiting for confirmation
        self.zoom_room: str | None = None  # one room fitted to the view
        self.zoom_on_tap = False  # a tap on the whole fortress zooms to the room tapped
        self.on_zoom: Callable[[str | None], None] = lambda room: None
        self.names: Mapping[str, str] = {}  # room id -> its name, in the players' language
        self.figure_names: Mapping[str, str] = {}  # "hero:roel" -> "Roel" (the legend)
        self.ladder_owners: Mapping[str, str] = {}  # ladder id -> hero id (its mark's colour)
        self.show_legend = False
        self.on_cell: Callable[[Cell], None] = lambda cell: None
        self.on_drag: Callable[[Cell, Cell], None] = lambda start, end: None
        self.size_px = 10.0
        self.origin = (0.0, 0.0)
        self._textures: dict[tuple[str, int, bool], Texture] = {}
        self._fbo: Fbo | None = None
        self._static: Fbo | None = None  # spaces, books, ladders: redrawn when they change
        self._static_key: tuple[object, ...] | None = None
        self.static_builds = 0  # how often the static layer was drawn (benchmarks/ui.py)
        self.text_scale = 1.0  # the Text size setting: room names and the legend grow with it
        #: what the last redraw placed, for the layout check (tests/ui_driver/checks.py): each
        #: figure circle, each room name as a box, where drawn (in the coordinates of `pos`)
        self.drawn: list[Item] = []
        self._figures_at: dict[Cell, Circle] = {}  # where each figure's disc went
        self._soft: list[tuple[Circle, float]] = []  # what a name had better not cover
        self._names_key: tuple[object, ...] | None = None
        self._names_placed: list[Placed] = []
        self._legend_h = 0.0
        #: the spaces drawn (each as the circle inside its hexagon) and what lies over the board
        #: (the legend, the screen's buttons): for the layout check, nothing may cover a space
        self.ground: list[Circle] = []
        self.overlays: list[Box] = []
        self.books_drawn: list[tuple[str, int]] = []  # (letter, px) of the last static layer
        self.ladders_drawn: list[tuple[str, Cell]] = []  # the ladders the last static layer drew
        #: the event layer's letters and figures in the order drawn, as (kind, circle): a figure
        #: is never drawn under a letter (tests/ui/board/test_zoomed_board.py reads it)
        self.draw_order: list[tuple[str, Circle]] = []
        self._letter_spots: list[Circle] = []  # every letter's disc in the static layer
        self._hidden: set[Cell] = set()  # spaces under the legend or a button: not drawn
        self._shrink_key: tuple[object, ...] | None = None
        self._shrink = 1.0
        self._strip = 0.0  # zoomed: the strip along the top kept free of spaces (`_layout`)
        self._name_size: int | None = None  # the names' px chosen by `_fit_names`
        #: smaller still for this redraw: a figure stands where a name had its place
        self._crowded_size: int | None = None
        #: parts of the view the screen covers with its own buttons (the round screen's "Whole
        #: fortress" while zoomed), in the view's coordinates: room names stay off them
        self.covered: Callable[[], list[Box]] = lambda: []
        self.bind(pos=self.redraw, size=self.redraw)
        self._redraw_soon = Clock.create_trigger(self.redraw)

    def keep_clear_of(self, *widgets: Widget) -> None:
        """Redraw when a widget over the board (`covered`: a button) moves or resizes: a
        layout pass may place it after the view's own redraw (a new language, the banner
        shown), and the heading must stay off where it is now, not where it was."""
        for widget in widgets:
            widget.bind(pos=self._redraw_soon, size=self._redraw_soon)

    # ----- geometry ----------------------------------------------------------------------------
    def shown_cells(self) -> list[Cell]:
        """The cells the view fits: the zoomed room (all of it, collapsed platform too), or
        every space of the fortress and every marker (the wizard's ladder sides beyond it)."""
        tables = self.fortress.tables(self.situation.board)
        room = self.zoom_room
        if room is not None and room in self.fortress.rooms:
            centre = self.fortress.centre(room)
            radius = self.fortress.room_radius
            cells = [
                (centre[0] + dq, centre[1] + dr)
                for dq in range(-radius, radius + 1)
                for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
            ]
            # the room's ladders stand outside it: in the view too, to be chosen
            return cells + [x.cell for x in self.fortress.ladders.values() if x.room == room]
        return [*tables.spaces, *self.markers]

    def _layout(self, shrink: float | None = None) -> None:
        """Fit the shown cells to the view above the legend (zoomed: below a strip along the
        top for the room's name and the screen's button); the whole fortress drawn smaller by
        `shrink` (found by `_fit_names` unless given) so every name has a clear place."""
        cells = self.shown_cells()
        xs = [SQRT3 * (q + r / 2) for q, r in cells]
        ys = [1.5 * r for _, r in cells]
        margin = 2.4 if self.zoom_room is None else 2.2  # room names above, books around
        span_x = max(xs) - min(xs) + margin
        span_y = max(ys) - min(ys) + margin
        legend = self.legend_height()
        strip = self.top_strip()
        touch = theme.MIN_TOUCH_PX / (SQRT3 * 0.95)  # a space's size_px at 48 px
        if strip and self.width / span_x >= touch:  # never a strip that makes spaces too small
            strip = min(strip, max(0.0, self.height - legend - touch * span_y))
        self._strip = strip
        free = max(1.0, self.height - legend - strip)
        base = min(self.width / span_x, free / span_y)
        factor = 1.0
        if self.zoom_room is None:
            factor = self._fit_names() if shrink is None else shrink
        self.size_px = base * factor
        mid_x = (max(xs) + min(xs)) / 2
        mid_y = (max(ys) + min(ys)) / 2
        centre_y = self.y + legend + free / 2
        self.origin = (self.center_x - mid_x * self.size_px, centre_y + mid_y * self.size_px)

    def space_px(self) -> float:
        """The width of one space on screen (flat side to flat side), for the touch check."""
        return self.size_px * SQRT3 * 0.95

    def to_pixel(self, cell: Cell) -> tuple[float, float]:
        q, r = cell
        return (
            self.origin[0] + self.size_px * SQRT3 * (q + r / 2),
            self.origin[1] - self.size_px * 1.5 * r,  # rows grow downwards on screen
        )

    def cell_at(self, x: float, y: float) -> Cell:
        px = (x - self.origin[0]) / self.size_px
        py = (self.origin[1] - y) / self.size_px
        r = py / 1.5
        q = px / SQRT3 - r / 2
        return axial_round(q, r)

    # ----- touch -------------------------------------------------------------------------------
    def room_near(self, cell: Cell) -> str | None:
        """The room a tap meant: the room of the cell, or of the ladder on it."""
        room = self.fortress.room_at(cell)
        if room is None and cell in self.fortress.ladder_by_cell:
            room = self.fortress.ladders[self.fortress.ladder_by_cell[cell]].room
        return room

    def zoom_to(self, room: str | None) -> None:
        if room != self.zoom_room:
            self.zoom_room = room
            self.redraw()
            self.on_zoom(room)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        cell = self.cell_at(*touch.pos)
        if self.zoom_on_tap:
            room = self.room_near(cell)
            if self.zoom_room is None and room is not None:
                self.zoom_to(room)  # first the room, big enough to choose a space in
                return True
            beside = self.zoom_room is not None and room is not None and room != self.zoom_room
            if beside and cell not in self.highlight:  # a neighbour's edge: zoom over to it
                self.zoom_to(room)
                return True
        if cell in self.fortress.tables(self.situation.board).adjacency or cell in self.markers:
            touch.grab(self)
            touch.ud["fortress_start"] = cell
            self.on_cell(cell)
            return True
        return False

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        start, end = touch.ud.get("fortress_start"), self.cell_at(*touch.pos)
        if start is not None and end != start:
            self.on_drag(start, end)
        return True
