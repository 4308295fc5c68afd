"""Painting the fortress view (a part of FortressView, ui/board/view.py): the static board
into one offscreen buffer, the overlays, rings, figures, books, ladders and texts over it."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

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

from companion.engine.fortress import BoardTables
from companion.engine.hexgrid import Cell
from ui import theme
from ui.board.geometry import (
    BOOK_DISC,
    BOOK_PX,
    SQRT3,
)
from ui.board.layout import (
    Box,
    Circle,
    intersects,
)
from ui.board.mesh_batch import RGBA, MeshBatch, Shape

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


class Painting:
    """FortressView's drawing (it mixes this in)."""

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
        self.ladders_drawn = []
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
                    self.ladders_drawn.append((ladder.id, ladder.cell))

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
