"""The room names and the legend of the fortress view (a part of FortressView, ui/board/view.py):
where each name goes so that it covers no figure, no other name and no space, how large it
is drawn, and the legend's entries and rows."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from kivy.graphics import (
    Color,
    Ellipse,
    Line,
    Rectangle,
)
from kivy.metrics import sp

from companion.app.board.marks import STRIGOI_COLOUR
from companion.app.words.i18n import capital_first
from companion.engine.hexgrid import Cell
from ui import theme
from ui.board.figures import diamond
from ui.board.geometry import (
    BOOK_COST,
    BOOK_PX,
    HEADING_PX,
    LADDER_COST,
    LEGEND_PX,
    LEGEND_TEXT_PX,
    MIN_NAME_PX,
    NAME_PX,
    SHRINK_STEPS,
    SPACE_COST,
    SQRT3,
    first_unclear,
    names_clear,
)
from ui.board.layout import (
    GAP,
    Box,
    Circle,
    Item,
    Name,
    Placed,
    crossing,
    misread,
    place_names,
    split_in_two,
)
from ui.board.mesh_batch import RGBA


class NamesAndLegend:
    """FortressView's names and legend (it mixes this in)."""

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
        the layout check (tests/ui_driver/checks.board_overlaps)."""
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
                    diamond(x + 11, y, 13)
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
