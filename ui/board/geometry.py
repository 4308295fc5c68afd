"""The board's sizes and pure geometry (no Kivy): text sizes, the steps the fortress shrinks by
until every room's name has a clear place, a pixel back to its cell, and the checks of
placed names (ui/board/layout.py, companion/app/board/geometry.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from companion.engine.hexgrid import Cell
from ui.board.layout import (
    Circle,
    Item,
    Name,
    Placed,
    intersects,
    misread,
    reads_as,
    room_spaces,
)

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


def toward(x: float, y: float, tx: float, ty: float, by: float) -> tuple[float, float]:
    """(x, y) moved `by` pixels toward (tx, ty)."""
    length = math.hypot(tx - x, ty - y) or 1.0
    return x + (tx - x) * by / length, y + (ty - y) * by / length
