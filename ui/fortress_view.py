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

No two figures and no two names cover each other (ui/board_layout.py): crowded figures are
pushed apart beside their spaces, each room's name goes where no figure and no other name is;
`drawn` keeps where each went, for the layout check. Names and the legend grow with the Text
size setting (`text_scale`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Translate,
)
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.metrics import sp
from kivy.uix.widget import Widget

from companion.app.board.marks import STRIGOI_COLOUR
from companion.app.words.i18n import capital_first
from companion.engine.fortress import BoardTables, Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from ui import theme
from ui.board_layout import (
    GAP,
    Box,
    Circle,
    Item,
    Name,
    Placed,
    crossing,
    intersects,
    misread,
    place_names,
    reads_as,
    room_spaces,
    split_in_two,
    spread,
)
from ui.mesh_batch import RGBA, MeshBatch, Shape

#: a line through cell centres: the cells, its colour, whether it ends in an arrow head
OverlayLine = tuple[list[Cell], RGBA, bool]
SPACE_COLOURS: dict[str, RGBA] = {
    "red": theme.RED_ENCOUNTER,
    "grey": theme.GREY_ENCOUNTER,
    "stairs": theme.STAIRS,
}
MARK: RGBA = (0, 0, 0, 0.6)  # the shape on an encounter or stairs space
CROSS: RGBA = (0, 0, 0, 0.8)  # deadly on the threat map
FIGHT: RGBA = (1, 1, 1, 0.9)  # a fight marker (R-ENC)

SQRT3 = math.sqrt(3)
#: text sizes in sp (Kivy's density makes them as large to the eye on the denser upright
#: display as on the first one): room names, the zoomed room's name (a heading), book letters
#: on the platforms (in a disc, read at a glance across the table), a figure's mark, the legend
NAME_PX = 16
#: the room names may be drawn smaller than NAME_PX sp (on a denser display, or with large
#: text) rather than the board smaller, never under the body size in px (issue 29: upright, the
#: German ladder page's spaces were 25.7 px for 28)
MIN_NAME_PX = 16
HEADING_PX = 22
BOOK_PX = 16
BOOK_DISC = 0.56  # a book letter's disc: its radius per px of the letter (holds a capital)
FIGURE_TEXT_PX = 16
LEGEND_TEXT_PX = 16
LEGEND_PX = 30.0  # the legend's strip along the bottom (sp per row)
#: what a room's name costs over a space, a book letter, a ladder (ui/board_layout.place_names):
#: near a figure's, so a name never covers one while a clear place exists
SPACE_COST, BOOK_COST, LADDER_COST = 60.0, 80.0, 80.0
#: the whole fortress drawn smaller, step by step, until every room's name has a place that
#: covers no space (a margin of its own): at most down to the last of these
SHRINK_STEPS = (1.0, 0.94, 0.88, 0.82, 0.76, 0.7)


def axial_round(q: float, r: float) -> Cell:
    x, z = q, r
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rx), int(rz)


def names_clear(
    placed: Sequence[Placed],
    wanted: Sequence[Name],
    soft: Sequence[tuple[Circle, float]],
    figures: Sequence[Item] = (),
) -> bool:
    """Every placed name clear of the figures, of each other and of every space, and read as
    its own room's (`misread`): the fit of the board's names and their size beside figures."""
    boxes = [p.box for p in placed]
    if any(intersects(b, f) for b in boxes for f in figures):
        return False
    if any(intersects(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
        return False
    if any(intersects(b, t) for b in boxes for t, _ in soft):
        return False
    return not misread(placed, wanted, soft)


def first_unclear(
    wanted: Sequence[Name],
    soft: Sequence[tuple[Circle, float]],
    figures: Sequence[Item] = (),
) -> Callable[[list[Placed]], bool]:
    """A `place_names` stop for a caller that asks `names_clear` of the result: True as soon
    as the newest name makes it false (over a figure, an earlier name or a space, or read as
    another room's), so that a placing that cannot be clear ends there. (A name that may
    stand anywhere is also checked against the names after it: that part is left to
    `names_clear`.)"""
    names = {n.room: n for n in wanted}
    centres = {n.room: (n.cx, n.cy) for n in wanted}
    rooms = room_spaces(soft)

    def stop(placed: list[Placed]) -> bool:
        newest, box = placed[-1], placed[-1].box
        if any(intersects(box, f) for f in figures):
            return True
        if any(intersects(box, p.box) for p in placed[:-1]):
            return True
        if any(intersects(box, t) for t, _ in soft):
            return True
        name = names.get(newest.room)
        if name is None or name.zoomed:
            return False
        return reads_as(name, box, newest.line, rooms, centres) is not None

    return stop


class FortressView(Widget):
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
        #: what the last redraw placed, for the layout check (ui/checks.py): each figure as a
        #: circle, each room name as a box, where they were drawn (in the coordinates of `pos`)
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
        #: the event layer's letters and figures in the order drawn, as (kind, circle): a figure
        #: is never drawn under a letter (tests/test_zoomed_board.py reads it)
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

    def top_strip(self) -> float:
        """Zoomed: the strip along the top kept free of spaces, for the room's name (a
        heading) and the screen's buttons over the board ("Whole fortress"); else none."""
        if self.zoom_room is None:
            return 0.0
        lines = self._heading_lines()
        heading = sum(h for _, _, h in lines)
        buttons = [b.h for b in self.covered() if b.top >= self.top - 1]
        return max([heading, *buttons]) + 4

    def _heading_lines(self) -> tuple[tuple[str, float, float], ...]:
        """The zoomed room's name as drawn: on one line, or on two when one does not fit
        beside the screen's buttons along the top ("chambre" over "nord-ouest"). A heading
        opens with a capital ("Chambre nord-ouest"), as the panels' do; the map's labels
        keep the running-text names ("chambre nord-ouest")."""
        name = capital_first(self.names.get(self.zoom_room or "", ""))
        if not name:
            return ()
        lines = self._lines_of(name, heading=True)
        beside = self.width - sum(b.w for b in self.covered() if b.top >= self.top - 1) - 12
        halves = split_in_two(name)
        if lines[0][1] > beside and halves:
            return self._lines_of("\n".join(halves), heading=True)
        return lines

    def _fit_names(self) -> float:
        """How much smaller than the view allows the whole fortress is drawn: the first of
        SHRINK_STEPS at which every room's name has a place covering no space, book letter
        or ladder (figures aside: they move; a name then takes another place). Kept until the
        view's size, the names or the board change."""
        board = self.situation.board
        key = (
            tuple(self.size),
            tuple(self.pos),
            tuple(sorted(self.names.items())),
            self.text_scale,
            self.legend_height(),
            tuple(sorted(board.rotations.items())),
            board.collapsed,
            board.ladders,
            tuple(self.markers),
            tuple(sorted(self.strigoi_marks)),
            id(self.fortress),
        )
        if key == self._shrink_key:
            return self._shrink
        self._shrink_key = key
        self._name_size = self._crowded_size = None
        if not self.names:
            self._shrink = 1.0
            return 1.0
        full = round(sp(NAME_PX) * self.text_scale)
        sizes = sorted({full, round(sp(NAME_PX)), *range(MIN_NAME_PX, full, 4)}, reverse=True)
        # the board as large as it can be (its spaces are the game), the names as large as
        # they fit on it: the names smaller first (down to body size), then the board
        for step in SHRINK_STEPS:
            for size in sizes:
                self._name_size = size
                if self._names_clear(step):
                    self._shrink = step
                    return step
        self._shrink, self._name_size = SHRINK_STEPS[-1], MIN_NAME_PX
        return self._shrink

    def _names_clear(self, step: float) -> bool:
        """Whether at `step` every name has a place near its room, covering nothing."""
        self._layout(shrink=step)
        soft = self._soft_things()
        wanted = self._wanted_names()
        placed = place_names(
            wanted, [], soft, self._name_bounds(), GAP + 1, self.name_px() * 0.6,
            stop=first_unclear(wanted, soft),
        )  # fmt: skip
        if len(placed) < len(wanted):
            return False  # stopped at a name that is not clear
        return names_clear(placed, wanted, soft) and not crossing(placed, soft)

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

    # ----- drawing -----------------------------------------------------------------------------
    def redraw(self, *_: object) -> None:
        """Draw the board into an offscreen buffer, shown as one texture: the frames between
        two events (a banner, a button press) cost one rectangle instead of every space. What
        changes only with the board, the zoom or the size (spaces, books, ladders) is drawn
        into a buffer of its own, kept until one of those changes: an event redraws only the
        figures, room names (placed around the figures), choices and overlays over it."""
        if self.width <= 1 or self.height <= 1:
            return
        self._layout()
        size = (int(self.width), int(self.height))
        self._fbo = self._sized(self._fbo, size)
        board = self.situation.board
        static_key = (
            size,
            tuple(self.pos),
            self.zoom_room,
            self.size_px,
            id(self.fortress),
            tuple(sorted(board.rotations.items())),
            board.collapsed,
            board.ladders,
            tuple(sorted(self.ladder_owners.items())),
            tuple(self._reserved()),
        )
        if static_key != self._static_key:
            self.static_builds += 1
            self._static = self._sized(self._static, size)
            self._paint(self._static, self._draw_static)
            self._static.draw()  # rendered now, once: it is in no canvas, only its texture is
            self._static_key = static_key
            self._soft = self._soft_things()
            self.ground = [
                Circle(f"space {cell}", *self.to_pixel(cell), self.size_px * 0.8)
                for cell in self.fortress.tables(board).spaces
                if cell not in self._hidden
                and self._in_view(Circle("", *self.to_pixel(cell), self.size_px * 0.8))
            ]
        self._paint(self._fbo, self._draw)
        self.canvas.clear()
        self.canvas.add(self._fbo)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._fbo.texture, pos=self.pos, size=size)

    @staticmethod
    def _sized(fbo: Fbo | None, size: tuple[int, int]) -> Fbo:
        if fbo is None:
            return Fbo(size=size)
        if tuple(fbo.size) != size:
            # Resized, not replaced: each new Fbo links its own shader program, and the GL
            # driver keeps compiled variants per program (about 15 MB over a game under Mesa).
            fbo.size = size
        return fbo

    def _paint(self, fbo: Fbo, draw: Callable[[Fbo], None]) -> None:
        fbo.clear()
        with fbo:
            ClearColor(*theme.BACKGROUND)
            ClearBuffers()
            PushMatrix()
            Translate(-self.x, -self.y)  # the drawing below is in window coordinates
        draw(fbo)
        with fbo:
            PopMatrix()

    def _reserved(self) -> list[Box]:
        """What lies over the board and must cover no space: the legend's strip, zoomed the
        strip along the top (the room's name), the screen's buttons over the board."""
        boxes = list(self.covered())
        legend = self.legend_height()
        if legend:
            boxes.append(Box("legend", self.x, self.y, self.width, legend))
        if self._strip:
            boxes.append(Box("heading", self.x, self.top - self._strip, self.width, self._strip))
        return boxes

    def _draw_static(self, target: Fbo) -> None:
        tables = self.fortress.tables(self.situation.board)
        self.books_drawn = []
        self._letter_spots = []
        reserved = self._reserved()
        room = set(self.shown_cells()) if self.zoom_room is not None else set()
        self._hidden = {  # other rooms' spaces under the legend or a button: not drawn
            cell
            for cell in tables.spaces
            if cell not in room
            and any(intersects(Circle("", *self.to_pixel(cell), self.size_px), b) for b in reserved)
        }
        self._spaces(target, tables)
        with target:
            for room in self.fortress.rooms:
                self._books(room)
            for ladder in self.fortress.ladders.values():
                if ladder.id in self.situation.board.ladders and not self._under(
                    ladder.cell, reserved
                ):
                    self._ladder(ladder.id, ladder.cell)

    def _draw(self, target: Fbo) -> None:
        tables = self.fortress.tables(self.situation.board)
        figures = self.situation.occupants(self.fortress)
        assert self._static is not None
        with target:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._static.texture, pos=self.pos, size=self._static.size)
        self._overlays(target, tables)
        with target:
            for room in self.outlined:
                if room in self.fortress.rooms:
                    self._outline(room)
            for room, colour in self.leds.items():
                if colour is not None and room in self.fortress.rooms:
                    self._ring(room, colour)
            for room, lit in self.segments.items():
                if room in self.fortress.rooms:
                    for direction, edge in lit.items():
                        self._segment(room, direction, edge)
            for cell, colour in self.markers.items():
                self._marker(cell, colour)
            for cell in self.strigoi_marks:
                self._strigoi_mark(cell)
            self._legend_h = self.legend_height()
            self._figures_at = self._place_figures(figures)
            for cells, colour, arrow in self.lines:
                self._line(cells, colour, arrow, figures)
            for cell in self.marked:
                self._mark(cell)
            # the letters next to a ring, tint or figure again, over the overlays drawn each
            # event (a ring never hides a letter), but under the figures: a hero or a Strigoi
            # matters more than the letter beside it, which moves aside, smaller (playtest S3)
            self.draw_order = []
            over = {*self.highlight, *self.tints, *self.crosses, *self.marked, *figures}
            if self.selected is not None:
                over.add(self.selected)
            near = [self.to_pixel(c) for c in over if c not in self._hidden]
            if near:
                for room in self.fortress.rooms:
                    self._books(room, near)
            for cell, figure in figures.items():
                if cell not in self._hidden:
                    self._figure(cell, figure)
                    placed = self._figures_at.get(cell)
                    if placed is not None:
                        self.draw_order.append(("figure", placed))
            if near:
                for room in self.fortress.rooms:
                    self._books(room, near, aside=True)
            names = self._place_names()
            for placed in names:
                self._room_name(placed)
            self.drawn = [
                *(
                    c
                    for cell, c in self._figures_at.items()
                    if self._in_view(c) and cell not in self._hidden
                ),
                *(p.box for p in names),
            ]
            self.overlays = [b for b in self._reserved() if b.name != "heading"]
            if self.show_legend:
                self._legend(figures)

    def _spaces(self, target: Fbo, tables: BoardTables) -> None:
        """Every space: fill by feature, outline, and a shape mark so red and grey differ by
        more than colour (the static layer)."""
        board = self.situation.board
        fills, marks = MeshBatch(), MeshBatch()
        corners = self._hexagon(0.95)
        hexagon = Shape.polygon(corners)
        outline = Shape.ring(corners, self._hexagon(0.95 - 1.0 / max(self.size_px, 1.0)))
        mark = self.size_px * 0.3
        thin = max(1.0, self.size_px * 0.06)
        for cell in tables.spaces:
            if cell in self._hidden:
                continue
            cx, cy = self.to_pixel(cell)
            feature = self.fortress.feature(cell, board)
            if feature is not None and feature in SPACE_COLOURS:
                colour = SPACE_COLOURS[feature]
            elif self.fortress.on_platform(cell, board) is not None:
                colour = theme.PLATFORM_SPACE
            else:
                colour = theme.SPACE
            fills.stamp(colour, hexagon, cx, cy)
            marks.stamp(theme.OUTLINE, outline, cx, cy)
            if feature == "red":  # a triangle
                marks.polygon(
                    MARK, (cx, cy + mark, cx - mark, cy - mark * 0.7, cx + mark, cy - mark * 0.7)
                )
            elif feature == "grey":  # a dot
                marks.circle(MARK, cx, cy, mark / 2, sides=10)
            elif feature == "stairs":  # steps
                for k in (-1, 0, 1):
                    y = cy + k * mark / 2
                    marks.segment(MARK, cx - mark, y, cx + mark, y, thin)
        fills.draw_into(target)
        marks.draw_into(target)

    def _overlays(self, target: Fbo, tables: BoardTables) -> None:
        """What changes with each event, over the static layer: threat tints and the deadly
        mark, fight markers, the spaces to choose (rings that keep each space's own fill) and
        the one chosen."""
        hexagon = Shape.polygon(self._hexagon(0.95))
        mark = self.size_px * 0.3
        thin = max(1.0, self.size_px * 0.06)
        tints, marks, choices = MeshBatch(), MeshBatch(), MeshBatch()
        for cell, tint in self.tints.items():
            if cell in tables.adjacency and cell not in self._hidden:
                tints.stamp(tint, hexagon, *self.to_pixel(cell))
        deadly = Shape.ring(self._hexagon(0.62), self._hexagon(0.62 - 0.18))
        for cell in self.crosses:  # deadly: a red ring inside the space, like no feature
            if cell in tables.adjacency:
                marks.stamp(theme.DEADLY, deadly, *self.to_pixel(cell))
        for cell in self.situation.fight_markers:
            cx, cy = self.to_pixel(cell)
            marks.segment(FIGHT, cx - mark, cy - mark, cx + mark, cy + mark, thin * 1.5)
            marks.segment(FIGHT, cx - mark, cy + mark, cx + mark, cy - mark, thin * 1.5)
        choice_ring = Shape.ring(self._hexagon(0.9), self._hexagon(0.9 - 0.16))
        for cell in self.highlight:
            if cell in tables.adjacency and cell not in self._hidden:
                cx, cy = self.to_pixel(cell)
                choices.stamp(theme.CHOICE, choice_ring, cx, cy)
                choices.circle(theme.CHOICE, cx, cy, max(2.0, self.size_px * 0.14), sides=10)
        if self.selected is not None:
            cx, cy = self.to_pixel(self.selected)
            choices.stamp(
                theme.SELECTED, Shape.ring(self._hexagon(1.0), self._hexagon(0.7)), cx, cy
            )
        tints.draw_into(target)
        marks.draw_into(target)
        choices.draw_into(target)

    def _hexagon(self, shrink: float) -> list[float]:
        """A pointy-top hexagon's corners around (0, 0) at the current size."""
        points: list[float] = []
        for k in range(6):
            angle = math.radians(60 * k + 30)
            points += [
                self.size_px * shrink * math.cos(angle),
                self.size_px * shrink * math.sin(angle),
            ]
        return points

    def _book_ring(self, room: str) -> tuple[float, float, float, float]:
        """Where a room's book letters stand: centre x, y, their radius and a letter disc's."""
        cx, cy = self.to_pixel(self.fortress.centre(room))
        radius = self.size_px * SQRT3 * (self.fortress.platform_radius + 0.5)
        return cx, cy, radius, self.book_px() * BOOK_DISC

    def _ring(self, room: str, colour: str) -> None:
        """An LED ring as the six arcs between the book letters: it never hides a letter the
        table is asked to turn by."""
        cx, cy, radius, disc = self._book_ring(room)
        gap = math.degrees(math.asin(min(0.9, (disc + 3) / max(radius, 1.0))))
        Color(*theme.hex_colour(colour))
        width = max(2.0, self.size_px * 0.16)
        for k in range(6):
            start, end = 60 * k + gap, 60 * (k + 1) - gap
            points: list[float] = []
            for step in range(9):
                angle = math.radians(start + (end - start) * step / 8)
                points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
            Line(points=points, width=width)

    def _segment(self, room: str, direction: int, colour: str) -> None:
        """A lit edge (the one a book must face, an attack's side): a thick halo around that
        edge's letter and a wedge beyond it pointing in — unlike the plain ring arcs."""
        cx, cy, radius, disc = self._book_ring(room)
        angle = math.radians(60 * direction)
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        Color(*theme.hex_colour(colour))
        Line(circle=(x, y, disc + 4), width=max(3.0, self.size_px * 0.14))
        tip = radius + disc + 6
        back = tip + max(12.0, self.size_px * 0.6)
        half = max(8.0, self.size_px * 0.35)
        ux, uy = math.cos(angle), math.sin(angle)
        Mesh(
            vertices=[
                cx + tip * ux,
                cy + tip * uy,
                0,
                0,
                cx + back * ux - half * uy,
                cy + back * uy + half * ux,
                0,
                0,
                cx + back * ux + half * uy,
                cy + back * uy - half * ux,
                0,
                0,
            ],
            indices=[0, 1, 2],
            mode="triangles",
        )

    def _mark(self, cell: Cell) -> None:
        """A figure the card names (the hero attacked, cursed or fighting): a thick ring."""
        cx, cy = self.figure_at(cell)
        radius = self.figure_radius() + max(5.0, self.size_px * 0.25)
        Color(*theme.MARKED)
        Line(circle=(cx, cy, radius), width=max(3.0, self.size_px * 0.14))

    def _outline(self, room: str) -> None:
        cx, cy = self.to_pixel(self.fortress.centre(room))
        radius = self.size_px * SQRT3 * (self.fortress.room_radius + 0.5)
        Color(*theme.ACCENT)
        Line(circle=(cx, cy, radius), width=2)

    def _marker(self, cell: Cell, colour: RGBA) -> None:
        cx, cy = self.to_pixel(cell)
        radius = self.size_px * 0.6
        Color(*colour)
        Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        Color(*theme.OUTLINE)
        Line(circle=(cx, cy, radius), width=1)

    def _strigoi_mark(self, cell: Cell) -> None:
        """A Strigoi's diamond (as its figure in play), outlined, without a letter: no Strigoi
        stands there yet, the platform is only marked for one."""
        cx, cy = self.to_pixel(cell)
        reach = self.size_px * 0.8
        Color(*theme.OUTLINE)
        _diamond(cx, cy, reach)
        Color(*theme.STRIGOI)
        _diamond(cx, cy, reach - max(1.5, self.size_px * 0.1))

    def _line(
        self, cells: list[Cell], colour: RGBA, arrow: bool, figures: Mapping[Cell, str]
    ) -> None:
        points = [v for cell in cells for v in self.to_pixel(cell)]
        if len(points) < 4:
            return
        if arrow and len(cells) == 2:
            points = self._clear_path(cells, figures)
        x0, y0, x1, y1 = points[-4:]
        angle = math.atan2(y1 - y0, x1 - x0)
        width = max(2.0, self.size_px * 0.16)
        Color(*colour)
        Line(points=points, width=width)
        if arrow:  # a head at the last point, along the last segment
            head = max(10.0, self.size_px * 0.9)
            Line(
                points=[
                    x1 + head * math.cos(angle + 2.6),
                    y1 + head * math.sin(angle + 2.6),
                    x1,
                    y1,
                    x1 + head * math.cos(angle - 2.6),
                    y1 + head * math.sin(angle - 2.6),
                ],
                width=width,
            )

    def _clear_path(self, cells: list[Cell], figures: Mapping[Cell, str]) -> list[float]:
        """An arrow from one cell to another that covers no figure: it starts and stops short
        of the figures at its ends, and bends aside (a gentle arc) around any figure on the
        way; the straightest such arc is taken."""
        (x0, y0), (x1, y1) = self.figure_at(cells[0]), self.figure_at(cells[1])
        clear = self.figure_radius() + self.size_px * 0.2
        if cells[0] in figures:
            x0, y0 = _toward(x0, y0, x1, y1, clear)
        if cells[1] in figures:
            x1, y1 = _toward(x1, y1, x0, y0, clear)
        others = [self.figure_at(c) for c in figures if c not in cells]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # the normal: which side to bend
        best: list[float] = [x0, y0, x1, y1]
        for bend in (0.0, 0.12, -0.12, 0.25, -0.25, 0.4, -0.4):
            path: list[float] = []
            for step in range(17):
                t = step / 16
                lift = 4 * t * (1 - t) * bend * length
                path += [x0 + (x1 - x0) * t + nx * lift, y0 + (y1 - y0) * t + ny * lift]
            hits = any(
                math.hypot(px - fx, py - fy) < clear
                for fx, fy in others
                for px, py in zip(path[::2], path[1::2], strict=True)
            )
            if not hits:
                return path
            if bend == 0.0:
                best = path
        return best

    def figure_radius(self) -> float:
        """Figures stay readable when the whole fortress is shown: never under 13 px. Zoomed,
        a hero beside a Strigoi (its diamond reaches 1.25 radii) still clears it."""
        return max(13.0, min(self.size_px * 0.8, (SQRT3 * self.size_px - 2 * GAP - 4) / 2.25))

    def _figure_circle(self, cell: Cell, figure: str) -> Circle:
        """The figure as drawn, its outline included: a hero's disc, a Strigoi's diamond
        (taken as the circle through its corners)."""
        kind, _, name = figure.partition(":")
        x, y = self.to_pixel(cell)
        reach = self.figure_radius() * 1.25 if kind == "strigoi" else self.figure_radius() + 2
        return Circle(theme.FIGURE_MARKS.get(name, name[:2].upper()), x, y, reach)

    def _place_figures(self, figures: Mapping[Cell, str]) -> dict[Cell, Circle]:
        """Where each figure's disc goes: its space's centre, or beside it when that disc would
        cover another (ui/board_layout.spread)."""
        cells = list(figures)
        wanted = [self._figure_circle(cell, figures[cell]) for cell in cells]
        return dict(zip(cells, spread(wanted), strict=True))

    def figure_at(self, cell: Cell) -> tuple[float, float]:
        """Where the figure on `cell` is drawn (its space's centre unless it was moved aside;
        any other cell: its centre)."""
        placed = self._figures_at.get(cell)
        return self.to_pixel(cell) if placed is None else (placed.x, placed.y)

    def _under(self, cell: Cell, boxes: list[Box]) -> bool:
        x, y = self.to_pixel(cell)
        return any(intersects(Circle("", x, y, self.size_px * 0.8), b) for b in boxes)

    def _in_view(self, item: Circle) -> bool:
        return bool(
            self.x < item.x + item.r
            and item.x - item.r < self.right
            and self.y + self._legend_h < item.y + item.r
            and item.y - item.r < self.top
        )

    def _figure(self, cell: Cell, figure: str) -> None:
        """A hero: a disc in the hero's colour with a two-letter mark; a Strigoi: a diamond
        with a one-letter mark. Colour and shape and letters: never colour alone. A disc moved
        aside from its space (a crowd) points at it: a line from the disc to a dot on the
        space, in the figure's colour."""
        kind, _, name = figure.partition(":")
        cx, cy = self.figure_at(cell)
        radius = self.figure_radius()
        colour = theme.FIGURE_COLOURS.get(name, theme.HERO if kind == "hero" else theme.STRIGOI)
        sx, sy = self.to_pixel(cell)
        if math.hypot(cx - sx, cy - sy) > 2.0:
            dot = max(3.0, self.size_px * 0.3)
            Color(*theme.OUTLINE)
            Line(points=[sx, sy, cx, cy], width=2.5)
            Ellipse(pos=(sx - dot - 1.5, sy - dot - 1.5), size=(2 * dot + 3, 2 * dot + 3))
            Color(*colour)
            Line(points=[sx, sy, cx, cy], width=1.2)
            Ellipse(pos=(sx - dot, sy - dot), size=(2 * dot, 2 * dot))
        Color(*theme.OUTLINE)
        if kind == "strigoi":
            outer = radius * 1.25
            _diamond(cx, cy, outer)
            Color(*colour)
            _diamond(cx, cy, outer - 2)
        else:
            Ellipse(pos=(cx - radius - 2, cy - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
            Color(*colour)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        mark = theme.FIGURE_MARKS.get(name, name[:2].upper())
        size = int(min(32, max(FIGURE_TEXT_PX, radius * 0.7)))  # grows with the zoom
        self._text(mark, cx, cy, size, bold=True, colour=theme.ink_on(colour))

    def _books(
        self, room: str, near: list[tuple[float, float]] | None = None, aside: bool = False
    ) -> None:
        """The six book letters of a room's platform (or of the centre room), each where it
        points now (BOARD-FORMAT.md: index + rotation), as they stand on the real platform;
        given `near` (spaces' centres drawn over), only the letters beside one of them.
        A letter a figure covers is left to the figure; `aside` (after the figures): those
        letters again, smaller, moved outward from the room's centre until clear of every
        figure (never over one)."""
        board = self.situation.board
        if room == self.fortress.centre_room:
            books, turn = self.fortress.centre_books, self.fortress.rooms[room].orientation
            radius = self.size_px * SQRT3 * 1.0
        elif room in self.fortress.platforms and room not in board.collapsed:
            books = self.fortress.platforms[room].books
            turn = board.rotations.get(room, self.fortress.rooms[room].rotation)
            radius = self.size_px * SQRT3 * (self.fortress.platform_radius + 0.5)
        else:
            return
        if not self.books_shown():
            return  # a small overview (home, wizard): the letters would hide the board
        cx, cy = self.to_pixel(self.fortress.centre(room))
        size = self.book_px()  # grows with the zoom
        reserved = self._reserved()
        for index, letter in enumerate(books):
            direction = (index + turn) % 6
            angle = math.radians(60 * direction)  # direction 0 is east, counter-clockwise
            x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
            if any(intersects(Circle("", x, y, size * BOOK_DISC), b) for b in reserved):
                continue  # under the legend or a button
            reach = 2.0 * self.size_px
            if near is not None and not any(abs(x - nx) < reach > abs(y - ny) for nx, ny in near):
                continue  # nothing drawn over it this event
            disc = size * BOOK_DISC
            px = size
            if near is not None:
                figures = list(self._figures_at.values())
                if aside != any(intersects(Circle("", x, y, disc), f) for f in figures):
                    continue  # clear of the figures: drawn before them; else after, aside
                if aside:
                    found = self._aside(x, y, size, figures, reserved)
                    if found is None:
                        continue  # no room beside the figure: the figure matters more
                    x, y, px = found
                    disc = px * BOOK_DISC
            Color(*theme.BOOK)
            Ellipse(pos=(x - disc, y - disc), size=(2 * disc, 2 * disc))
            self._text(letter, x, y, px, bold=True, colour=theme.OUTLINE)
            if near is None:
                self.books_drawn.append((letter, size))
                self._letter_spots.append(Circle(letter, x, y, disc))
            else:
                self.draw_order.append(("book", Circle(letter, x, y, disc)))

    def _aside(
        self, x: float, y: float, size: int, figures: list[Circle], reserved: list[Box]
    ) -> tuple[float, float, int] | None:
        """Where a letter a figure covers goes instead: the nearest spot around its own (at
        most about one space away), smaller (down to 3/4, not under BOOK_PX px), clear of
        every figure, every other letter, the legend and the buttons; None when nowhere is."""
        px = max(BOOK_PX, round(size * 0.75))
        disc = px * BOOK_DISC
        letters = [*self._letter_spots, *(c for kind, c in self.draw_order if kind == "book")]
        step = max(1.0, disc * 0.5)
        for k in range(1, 13):
            for turn in range(12):
                angle = math.radians(30 * turn + 15 * (k % 2))
                spot = Circle(
                    "", x + k * step * math.cos(angle), y + k * step * math.sin(angle), disc
                )
                clear = not any(intersects(spot, f) for f in figures)
                if (
                    clear
                    and not any(intersects(spot, o) for o in letters if (o.x, o.y) != (x, y))
                    and not any(intersects(spot, b) for b in reserved)
                ):
                    return spot.x, spot.y, px
        return None

    def books_shown(self) -> bool:
        """The game's board (with its legend) always shows the book letters, however small
        its spaces; a small overview (home, the wizard's map) leaves them out."""
        return self.show_legend or self.size_px >= 10

    def name_px(self) -> int:
        """The room names' size on the whole fortress: larger with the Text size setting,
        unless the board is too small for them at that size (`_fit_names`: then smaller, down
        to MIN_NAME_PX); the zoomed room's heading always grows."""
        if self._crowded_size is not None:
            return self._crowded_size
        if self._name_size is not None:
            return self._name_size
        return round(sp(NAME_PX) * self.text_scale)

    def heading_px(self) -> int:
        """The zoomed room's name: a heading."""
        return round(sp(HEADING_PX) * self.text_scale)

    def book_px(self) -> int:
        """The book letters' size: never under BOOK_PX px, on the whole fortress as large as
        its spaces allow up to BOOK_PX sp, zoomed larger with the spaces (up to 28 sp)."""
        fits = min(sp(BOOK_PX), self.size_px * 1.2)
        return int(max(BOOK_PX, fits, min(sp(28), self.size_px * 0.45)))

    def _soft_things(self) -> list[tuple[Circle, float]]:
        """What a room's name had better not cover (weighted): book letters and ladders more
        than spaces (the static layer's things, found when it is drawn)."""
        board = self.situation.board
        things: list[tuple[Circle, float]] = []
        if self.books_shown():  # the book letters are drawn (see _books)
            for room in self.fortress.rooms:
                if room != self.fortress.centre_room and (
                    room not in self.fortress.platforms or room in board.collapsed
                ):
                    continue
                cx, cy, radius, disc = self._book_ring(room)
                if room == self.fortress.centre_room:
                    radius = self.size_px * SQRT3 * 1.0
                for direction in range(6):
                    angle = math.radians(60 * direction)
                    x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
                    things.append((Circle("book", x, y, disc), BOOK_COST))
        for ladder in self.fortress.ladders.values():
            if ladder.id in board.ladders:
                x, y = self.to_pixel(ladder.cell)
                things.append((Circle("ladder", x, y, self.size_px * 0.6), LADDER_COST))
        for cell in self.fortress.tables(board).spaces:  # named by their room (see place_names)
            x, y = self.to_pixel(cell)
            room = self.fortress.room_at(cell) or ""
            things.append((Circle(f"space:{room}", x, y, self.size_px * 0.8), SPACE_COST))
        # the wizard's ladder sides and Strigoi marks: as dear to cover as a ladder (here, so
        # that _fit_names judges the board by what the names will avoid)
        for cell in [*self.markers, *self.strigoi_marks]:
            things.append((Circle("mark", *self.to_pixel(cell), self.size_px * 0.7), LADDER_COST))
        return things

    def _lines_of(self, text: str, heading: bool = False) -> tuple[tuple[str, float, float], ...]:
        size = self.heading_px() if heading else self.name_px()
        measured = []
        for line in text.split("\n"):
            texture = self._texture(line, size, heading)
            measured.append((line, float(texture.width), float(texture.height)))
        return tuple(measured)

    def _name_bounds(self) -> Box:
        """Where names may go: the view above the legend (zoomed, the heading is tried along
        the top first: board_geometry.candidates)."""
        legend = self.legend_height()
        return Box(
            "view", self.x + 2, self.y + legend + 2, self.width - 4, self.height - legend - 4
        )

    def _wanted_names(self) -> list[Name]:
        """Each shown room's name with its sizes and where its room is (the zoomed room's
        alone, as a heading)."""
        centre = self.fortress.centre_room
        rooms = [r for r in self.fortress.rooms if self.names.get(r)]
        rooms.sort(key=lambda r: r == centre)  # the centre room's last: it may go anywhere
        if self.zoom_room is not None:
            rooms = [r for r in rooms if r == self.zoom_room]
        middle = self.to_pixel(self.fortress.centre(self.fortress.centre_room))[0]
        wanted = []
        for room in rooms:
            text = self.names[room]
            cx, cy = self.to_pixel(self.fortress.centre(room))
            if self.zoom_room == room:
                lines = self._heading_lines()
                halves = split_in_two(text)  # where one line covers a space (S3: fr, large)
                two = self._lines_of("\n".join(halves), heading=True) if halves else lines
                wanted.append(Name(room, lines, two, self.center_x, cy, zoomed=True))
                continue
            lines = self._lines_of(text)
            halves = split_in_two(text)
            two = self._lines_of("\n".join(halves)) if halves else lines
            side = 0 if abs(cx - middle) < self.size_px else (1 if cx > middle else -1)
            radius = self.fortress.room_radius
            rx = self.size_px * SQRT3 * (radius + 0.5)
            ry = self.size_px * (1.5 * radius + 0.8)
            wanted.append(Name(room, lines, two, cx, cy, rx, ry, side, anywhere=room == centre))
        return wanted

    def _place_names(self) -> list[Placed]:
        """Where each room's name goes (the zoomed room's alone, in the strip along the top):
        clear of the figures, of each other and of every space (ui/board_layout.place_names);
        one that must stand away from its room gets a leader line."""
        rooms = [r for r in self.fortress.rooms if self.names.get(r)]
        figures: list[Item] = [c for c in self._figures_at.values() if self._in_view(c)]
        figures += self.covered()
        marks = [*self.markers, *self.strigoi_marks]
        soft = self._soft_things() if marks else self._soft  # the wizard's marks where they are
        crowded, self._crowded_size = self._crowded_size, None
        fitted = self.name_px()  # the size `_fit_names` chose for the board without figures
        key = (
            self._static_key,
            tuple((r, self.names[r]) for r in rooms),
            tuple(figures),
            tuple(marks),
            fitted,
            self._legend_h,
        )
        if key == self._names_key:
            self._crowded_size = crowded
            return self._names_placed
        # the board keeps its size whatever the figures do; when a figure stands where a name
        # had its only clear place (a hero on a ladder above the centre room), the names are
        # drawn smaller for as long as it stands there, down to body size
        fitted_placed = placed = self._placed_now(figures, soft)
        wanted = self._wanted_names()
        for size in range(fitted - 2, MIN_NAME_PX - 1, -2):
            if len(placed) == len(wanted) and names_clear(placed, wanted, soft, figures):
                break
            self._crowded_size = size
            placed = self._placed_now(figures, soft, first_unclear(wanted, soft, figures))
        else:
            if len(placed) < len(wanted) or not names_clear(placed, wanted, soft, figures):
                self._crowded_size, placed = None, fitted_placed  # none clear: as fitted
        self._names_placed = placed
        self._names_key = key
        return self._names_placed

    def _placed_now(
        self,
        figures: list[Item],
        soft: list[tuple[Circle, float]],
        stop: Callable[[list[Placed]], bool] | None = None,
    ) -> list[Placed]:
        """Every name at its best place at the names' size now (`name_px`); with `stop`, up
        to the first name it stops at."""
        return place_names(
            self._wanted_names(), figures, soft, self._name_bounds(), GAP + 1,
            self.name_px() * 0.6, blocked=self.covered(), stop=stop,
        )  # fmt: skip

    def misread_names(self) -> list[str]:
        """The names of the last redraw that read as another room's (board_layout.misread):
        the layout check (ui/checks.board_overlaps)."""
        if not self._names_placed:
            return []
        return misread(self._names_placed, self._wanted_names(), self._soft_things())

    def _room_name(self, placed: Placed) -> None:
        """A room's name where `_place_names` put it, line under line, each centred (the
        zoomed room's as a heading); a name away from its room with a line to it."""
        heading = placed.room == self.zoom_room
        size = self.heading_px() if heading else self.name_px()
        if placed.line is not None:
            Color(*theme.MUTED)
            Line(points=list(placed.line), width=1.2)
        top = placed.box.top
        for text, _, height in placed.lines:
            top -= height
            self._text(text, placed.box.x + placed.box.w / 2, top + height / 2, size,
                       bold=heading, colour=theme.TEXT, shadow=True)  # fmt: skip

    def _ladder(self, ladder: str, cell: Cell) -> None:
        """A ladder: two rails and rungs in its hero's colour (stairs have plain steps)."""
        cx, cy = self.to_pixel(cell)
        owner = self.ladder_owners.get(ladder, "")
        colour = theme.FIGURE_COLOURS.get(owner, theme.TEXT)
        half = self.size_px * 0.5
        width = max(1.5, self.size_px * 0.08)
        Color(*colour)
        Line(points=[cx - half * 0.6, cy - half, cx - half * 0.6, cy + half], width=width)
        Line(points=[cx + half * 0.6, cy - half, cx + half * 0.6, cy + half], width=width)
        for k in (-0.5, 0.0, 0.5):
            Line(
                points=[cx - half * 0.6, cy + k * half, cx + half * 0.6, cy + k * half], width=width
            )

    def _legend_entries(self, figures: Mapping[Cell, str]) -> list[tuple[str, RGBA, str, str]]:
        """(shape, colour, mark, words) of every legend entry: the figures on the board, then
        the LED ring colours and threat map shades shown (`legend_extra`)."""
        shown = set(self.shown_cells())
        if self.zoom_room is not None:  # only who is in sight
            figures = {cell: f for cell, f in figures.items() if cell in shown}
        present = set(figures.values())
        entries: list[tuple[str, RGBA, str, str]] = []
        for figure in self.figure_names:
            if figure in present:
                kind, _, name = figure.partition(":")
                colour = theme.FIGURE_COLOURS.get(name, theme.HERO)
                mark = theme.FIGURE_MARKS.get(name, name[:2].upper())
                entries.append((kind, colour, mark, self.figure_names[figure]))
        # a shade's words only while a space in sight has it (not over an unshaded board)
        tints = {self.tints[cell] for cell in shown if cell in self.tints}
        deadly = any(cell in self.crosses for cell in shown)
        entries += [
            (shape, colour, "", words)
            for shape, colour, words in self.legend_extra
            if (shape != "tint" or colour in tints) and (shape != "deadly" or deadly)
        ]
        return entries

    def _legend_rows(self, entries: list[tuple[str, RGBA, str, str]]) -> list[list[int]]:
        """The entries' indices per row: the figures first, then what the rings and shades
        mean, in a row of their own when they do not fit beside the figures. Zoomed to a room
        the legend keeps to one row (its spaces must stay big enough for a finger) unless the
        figures in sight need a second, else to two; what does not fit of the rings' and
        shades' words is left out, never a figure on the board (nor the board made smaller)."""
        most = 1 if self.zoom_room is not None else 2
        rows: list[list[int]] = [[]]
        x = 8.0
        px = self.legend_px()
        for i, (shape, _, _, words) in enumerate(entries):
            width = 28 + self._texture(words, px, False).width + 14
            if rows[-1] and x + width > self.width:
                figure = shape in ("hero", "strigoi")
                if len(rows) >= (max(most, 2) if figure else most):
                    continue
                rows.append([])
                x = 8.0
            rows[-1].append(i)
            x += width
        return rows

    def legend_height(self) -> float:
        if not self.show_legend:
            return 0.0
        figures = self.situation.occupants(self.fortress)
        rows = len(self._legend_rows(self._legend_entries(figures)))
        return sp(LEGEND_PX) * self.text_scale * rows

    def legend_px(self) -> int:
        """The legend's text size: larger with the Text size setting; zoomed, where the legend
        keeps to one row, back to the plain body size when that lets every figure in sight
        fit in it (five heroes at large text on the 800x480 board)."""
        full = round(sp(LEGEND_TEXT_PX) * self.text_scale)
        small = round(sp(LEGEND_TEXT_PX))
        if self.zoom_room is None or full <= small:
            return full
        figures = self.situation.occupants(self.fortress)
        entries = [e for e in self._legend_entries(figures) if e[0] in ("hero", "strigoi")]
        for px in (full, small):
            width = 8.0 + sum(42 + self._texture(e[3], px, False).width for e in entries)
            if width <= self.width:
                return px
        return full  # a second row then (`_legend_rows`)

    def _legend(self, figures: Mapping[Cell, str]) -> None:
        """Who is who, along the bottom of the view: each figure's glyph mark and its name;
        then what each lit ring colour and threat shade means (a second row when needed)."""
        entries = self._legend_entries(figures)
        rows = self._legend_rows(entries)
        px = self.legend_px()
        mark_names = {theme.FIGURE_MARKS.get(n, ""): n for n in STRIGOI_COLOUR}
        for row_index, row in enumerate(rows):
            x = self.x + 8.0
            row_px = sp(LEGEND_PX) * self.text_scale
            y = self.y + row_px * (len(rows) - row_index) - row_px / 2
            for i in row:
                shape, colour, mark, words = entries[i]
                Color(*colour)
                if shape == "hero":
                    Ellipse(pos=(x, y - 11), size=(22, 22))
                elif shape == "strigoi":
                    _diamond(x + 11, y, 13)
                    name = mark_names.get(mark)
                    if name in self.ringed:  # its LED ring's colour: the ring in the legend
                        Color(*theme.hex_colour(STRIGOI_COLOUR[name]))
                        Line(circle=(x + 11, y, 15), width=2.5)
                        Color(*colour)
                elif shape == "ring":
                    Line(circle=(x + 11, y, 9), width=3)
                elif shape == "tint":
                    Rectangle(pos=(x, y - 10), size=(22, 20))
                else:  # the deadly mark
                    Line(circle=(x + 11, y, 8), width=2.5)
                if mark:
                    self._text(mark, x + 11, y, 12, bold=True, colour=theme.ink_on(colour))
                texture = self._texture(words, px, False)
                Color(*theme.TEXT)
                Rectangle(texture=texture, pos=(x + 28, y - texture.height / 2), size=texture.size)
                x += 28 + texture.width + 14

    def _text(
        self,
        text: str,
        x: float,
        y: float,
        font_size: int,
        bold: bool = False,
        colour: RGBA = (1, 1, 1, 1),
        shadow: bool = False,
    ) -> None:
        texture = self._texture(text, font_size, bold)
        pos = (x - texture.width / 2, y - texture.height / 2)
        if shadow:
            Color(0, 0, 0, 0.7)
            Rectangle(texture=texture, pos=(pos[0] + 1, pos[1] - 1), size=texture.size)
        Color(*colour)
        Rectangle(texture=texture, pos=pos, size=texture.size)

    def _texture(self, text: str, font_size: int, bold: bool) -> Texture:
        """Rendered once per text and size (white: drawn in any colour)."""
        key = (text, font_size, bold)
        texture = self._textures.get(key)
        if texture is None:
            label = CoreLabel(text=text, font_size=font_size, bold=bold)
            label.refresh()
            texture = self._textures[key] = label.texture
        return texture

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


def _toward(x: float, y: float, tx: float, ty: float, by: float) -> tuple[float, float]:
    """(x, y) moved `by` pixels toward (tx, ty)."""
    length = math.hypot(tx - x, ty - y) or 1.0
    return x + (tx - x) * by / length, y + (ty - y) * by / length


def _diamond(cx: float, cy: float, r: float) -> None:
    """A diamond of half-diagonal `r` around (cx, cy), in the current colour (a Strigoi)."""
    Mesh(
        vertices=[cx, cy + r, 0, 0, cx + r, cy, 0, 0, cx, cy - r, 0, 0, cx - r, cy, 0, 0],
        indices=[0, 1, 2, 0, 2, 3],
        mode="triangles",
    )
