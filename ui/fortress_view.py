"""The fortress drawn from the engine's board tables: spaces by feature (with shape marks),
platform rims, figures, and each platform's LED ring as the hardware shows it. Touches report
the cell under the finger; a drag reports where it started and ended.

Overlays the screens set: `tints` shade spaces (threat map), `markers` are dots on any cell
(ladder sites beside the fortress), `lines` are drawn through cell centres (a Strigoi's teleport
arrow, its line of sight), `outlined` rings whole rooms (the room being edited)."""

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
    PopMatrix,
    PushMatrix,
    Rectangle,
    Translate,
)
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

from companion.engine.fortress import BoardTables, Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from ui import theme
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


class FortressView(Widget):
    def __init__(self, fortress: Fortress, situation: Situation, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.fortress = fortress
        self.situation = situation
        self.leds: Mapping[str, str | None] = {}  # room -> colour shown by its LED ring
        self.highlight: set[Cell] = set()
        self.tints: Mapping[Cell, RGBA] = {}
        self.markers: Mapping[Cell, RGBA] = {}
        self.lines: list[OverlayLine] = []
        self.outlined: set[str] = set()
        self.crosses: set[Cell] = set()  # deadly on the threat map: a mark, not colour alone
        self.on_cell: Callable[[Cell], None] = lambda cell: None
        self.on_drag: Callable[[Cell, Cell], None] = lambda start, end: None
        self.size_px = 10.0
        self.origin = (0.0, 0.0)
        self._initials: dict[tuple[str, int], Texture] = {}  # rendered once per name and size
        self._fbo: Fbo | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    # ----- geometry ----------------------------------------------------------------------------
    def _layout(self) -> None:
        cells = self.fortress.tables(self.situation.board).spaces
        xs = [SQRT3 * (q + r / 2) for q, r in cells]
        ys = [1.5 * r for _, r in cells]
        span_x = max(xs) - min(xs) + 2
        span_y = max(ys) - min(ys) + 2
        self.size_px = min(self.width / span_x, self.height / span_y)
        mid_x = (max(xs) + min(xs)) / 2
        mid_y = (max(ys) + min(ys)) / 2
        self.origin = (self.center_x - mid_x * self.size_px, self.center_y + mid_y * self.size_px)

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
        two events (a banner, a button press) cost one rectangle instead of every space."""
        if self.width <= 1 or self.height <= 1:
            return
        self._layout()
        size = (int(self.width), int(self.height))
        if self._fbo is None:
            self._fbo = Fbo(size=size)
        elif tuple(self._fbo.size) != size:
            # Resized, not replaced: each new Fbo links its own shader program, and the GL
            # driver keeps compiled variants per program (about 15 MB over a game under Mesa).
            self._fbo.size = size
        fbo = self._fbo
        fbo.clear()
        with fbo:
            ClearColor(*theme.BACKGROUND)
            ClearBuffers()
            PushMatrix()
            Translate(-self.x, -self.y)  # the drawing below is in window coordinates
        self._draw(fbo)
        with fbo:
            PopMatrix()
        self.canvas.clear()
        self.canvas.add(fbo)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=fbo.texture, pos=self.pos, size=size)

    def _draw(self, target: Fbo) -> None:
        tables = self.fortress.tables(self.situation.board)
        figures = self.situation.occupants(self.fortress)
        self._spaces(target, tables)
        with target:
            for room in self.outlined:
                if room in self.fortress.rooms:
                    self._outline(room)
            for room, colour in self.leds.items():
                if colour is not None and room in self.fortress.rooms:
                    self._ring(room, colour)
            for cell, colour in self.markers.items():
                self._marker(cell, colour)
            for cell, figure in figures.items():
                self._figure(cell, figure)
            for cells, colour, arrow in self.lines:
                self._line(cells, colour, arrow)

    def _spaces(self, target: Fbo, tables: BoardTables) -> None:
        """Every space: fill by feature (highlight, tint), outline, and a shape mark so red and
        grey differ by more than colour; crosses (deadly) and fight markers on top."""
        board = self.situation.board
        fills, marks = MeshBatch(), MeshBatch()
        corners = self._hexagon(0.95)
        hexagon = Shape.polygon(corners)
        outline = Shape.ring(corners, self._hexagon(0.95 - 1.0 / max(self.size_px, 1.0)))
        mark = self.size_px * 0.3
        thin = max(1.0, self.size_px * 0.06)
        for cell in tables.spaces:
            cx, cy = self.to_pixel(cell)
            feature = self.fortress.feature(cell, board)
            if cell in self.highlight:
                colour = theme.ACCENT
            elif feature is not None and feature in SPACE_COLOURS:
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
            if cell in self.crosses:
                marks.segment(CROSS, cx - mark, cy, cx + mark, cy, thin * 2)
            if cell in self.situation.fight_markers:
                marks.segment(FIGHT, cx - mark, cy - mark, cx + mark, cy + mark, thin * 1.5)
                marks.segment(FIGHT, cx - mark, cy + mark, cx + mark, cy - mark, thin * 1.5)
        tints = MeshBatch()  # over the fills, under the outlines and marks
        for cell, tint in self.tints.items():
            if cell in tables.adjacency:
                tints.stamp(tint, hexagon, *self.to_pixel(cell))
        fills.draw_into(target)
        tints.draw_into(target)
        marks.draw_into(target)

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

    def _ring(self, room: str, colour: str) -> None:
        cx, cy = self.to_pixel(self.fortress.centre(room))
        radius = self.size_px * SQRT3 * (self.fortress.platform_radius + 0.55)
        Color(*theme.hex_colour(colour))
        Line(circle=(cx, cy, radius), width=max(2.0, self.size_px * 0.18))

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

    def _line(self, cells: list[Cell], colour: RGBA, arrow: bool) -> None:
        points = [v for cell in cells for v in self.to_pixel(cell)]
        if len(points) < 4:
            return
        Color(*colour)
        Line(points=points, width=max(1.5, self.size_px * 0.15))
        if arrow:  # a head at the last point, along the last segment
            x0, y0, x1, y1 = points[-4:]
            angle = math.atan2(y1 - y0, x1 - x0)
            head = self.size_px * 0.9
            Line(
                points=[
                    x1 + head * math.cos(angle + 2.6),
                    y1 + head * math.sin(angle + 2.6),
                    x1,
                    y1,
                    x1 + head * math.cos(angle - 2.6),
                    y1 + head * math.sin(angle - 2.6),
                ],
                width=max(1.5, self.size_px * 0.15),
            )

    def _figure(self, cell: Cell, figure: str) -> None:
        kind, _, name = figure.partition(":")
        cx, cy = self.to_pixel(cell)
        radius = self.size_px * 0.72
        Color(*(theme.STRIGOI if kind == "strigoi" else theme.HERO))
        Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        texture = self._initials_of(name, max(8, int(self.size_px * 0.8)))
        Color(1, 1, 1, 1)
        Rectangle(
            texture=texture,
            pos=(cx - texture.width / 2, cy - texture.height / 2),
            size=texture.size,
        )

    def _initials_of(self, name: str, font_size: int) -> Texture:
        texture = self._initials.get((name, font_size))
        if texture is None:
            label = CoreLabel(text=name[:2].upper(), font_size=font_size, bold=True)
            label.refresh()
            texture = self._initials[(name, font_size)] = label.texture
        return texture

    # ----- touch -------------------------------------------------------------------------------
    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        cell = self.cell_at(*touch.pos)
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
