"""The figures on the fortress view (a part of FortressView, ui/board/view.py): each one's disc
or diamond beside its space, pushed apart where they crowd, and the lines drawn clear of them."""

from __future__ import annotations

import math
from collections.abc import Mapping

from kivy.graphics import (
    Color,
    Ellipse,
    Line,
    Mesh,
)

from companion.engine.hexgrid import Cell
from ui import theme
from ui.board.geometry import (
    FIGURE_TEXT_PX,
    SQRT3,
    toward,
)
from ui.board.layout import (
    GAP,
    Box,
    Circle,
    intersects,
    spread,
)
from ui.board.mesh_batch import RGBA

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


class Figures:
    """FortressView's figures (it mixes this in)."""

    def _strigoi_mark(self, cell: Cell) -> None:
        """A Strigoi's diamond (as its figure in play), outlined, without a letter: no Strigoi
        stands there yet, the platform is only marked for one."""
        cx, cy = self.to_pixel(cell)
        reach = self.size_px * 0.8
        Color(*theme.OUTLINE)
        diamond(cx, cy, reach)
        Color(*theme.STRIGOI)
        diamond(cx, cy, reach - max(1.5, self.size_px * 0.1))

    def _clear_path(self, cells: list[Cell], figures: Mapping[Cell, str]) -> list[float]:
        """An arrow from one cell to another that covers no figure: it starts and stops short
        of the figures at its ends, and bends aside (a gentle arc) around any figure on the
        way; the straightest such arc is taken."""
        (x0, y0), (x1, y1) = self.figure_at(cells[0]), self.figure_at(cells[1])
        clear = self.figure_radius() + self.size_px * 0.2
        if cells[0] in figures:
            x0, y0 = toward(x0, y0, x1, y1, clear)
        if cells[1] in figures:
            x1, y1 = toward(x1, y1, x0, y0, clear)
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
            diamond(cx, cy, outer)
            Color(*colour)
            diamond(cx, cy, outer - 2)
        else:
            Ellipse(pos=(cx - radius - 2, cy - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
            Color(*colour)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        mark = theme.FIGURE_MARKS.get(name, name[:2].upper())
        size = int(min(32, max(FIGURE_TEXT_PX, radius * 0.7)))  # grows with the zoom
        self._text(mark, cx, cy, size, bold=True, colour=theme.ink_on(colour))


def diamond(cx: float, cy: float, r: float) -> None:
    """A diamond of half-diagonal `r` around (cx, cy), in the current colour (a Strigoi)."""
    Mesh(
        vertices=[cx, cy + r, 0, 0, cx + r, cy, 0, 0, cx, cy - r, 0, 0, cx - r, cy, 0, 0],
        indices=[0, 1, 2, 0, 2, 3],
        mode="triangles",
    )
