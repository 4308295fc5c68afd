"""Shapes of one colour collected into one Kivy `Mesh`: one draw call instead of one per shape.

The board has ~170 spaces with a fill, an outline and a mark each; drawn one instruction per
shape that is ~700 draw calls a frame, which a software renderer (llvmpipe under Xvfb, and the
Pi's GPU less so) pays for on every frame. Batched by colour it is about a dozen.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from kivy.graphics import Color, Mesh
from kivy.graphics.instructions import CanvasBase

RGBA = tuple[float, float, float, float]

#: Kivy's default vertex format: x, y, u, v; indices are 16-bit
_MAX_VERTICES = 65_535


@dataclass(frozen=True)
class Shape:
    """Triangles around (0, 0), stamped anywhere by `MeshBatch.stamp` (a space's hexagon and its
    outline are the same at every cell: computed once per size, not per cell and redraw)."""

    points: tuple[float, ...]  # x0, y0, x1, y1, ...
    triangles: tuple[int, ...]

    @classmethod
    def polygon(cls, points: Sequence[float]) -> Shape:
        """A convex polygon, filled."""
        count = len(points) // 2
        return cls(tuple(points), tuple(i for k in range(1, count - 1) for i in (0, k, k + 1)))

    @classmethod
    def ring(cls, outer: Sequence[float], inner: Sequence[float]) -> Shape:
        """The band between two polygons with as many corners (an outline of some width)."""
        count = len(outer) // 2
        triangles: list[int] = []
        points: list[float] = []
        for k in range(count):
            j = (k + 1) % count
            triangles += (2 * k, 2 * j, 2 * k + 1, 2 * k + 1, 2 * j, 2 * j + 1)
            points += (outer[2 * k], outer[2 * k + 1], inner[2 * k], inner[2 * k + 1])
        return cls(tuple(points), tuple(triangles))


class MeshBatch:
    """Filled triangles per colour; thick lines and circles are made of triangles too."""

    def __init__(self) -> None:
        # typed arrays: Kivy's Mesh keeps what it is given, and a list of Python floats is
        # eight times the size of the same numbers packed
        self._vertices: dict[RGBA, array[float]] = {}
        self._indices: dict[RGBA, array[int]] = {}
        self._order: list[RGBA] = []  # colours in the order first used: later ones draw on top

    def _buffers(self, colour: RGBA, adding: int) -> tuple[array[float], array[int], int]:
        if colour not in self._vertices:
            self._vertices[colour], self._indices[colour] = array("f"), array("H")
            self._order.append(colour)
        vertices = self._vertices[colour]
        first = len(vertices) // 4
        if first + adding > _MAX_VERTICES:
            raise ValueError(f"more than {_MAX_VERTICES} vertices of one colour in one batch")
        return vertices, self._indices[colour], first

    def polygon(self, colour: RGBA, points: Sequence[float]) -> None:
        """A convex polygon (x0, y0, x1, y1, ...), filled."""
        count = len(points) // 2
        vertices, indices, first = self._buffers(colour, count)
        for k in range(count):
            vertices.extend((points[2 * k], points[2 * k + 1], 0.0, 0.0))
        for k in range(1, count - 1):
            indices.extend((first, first + k, first + k + 1))

    def stamp(self, colour: RGBA, shape: Shape, cx: float, cy: float) -> None:
        """`shape` moved to (cx, cy)."""
        points = shape.points
        vertices, indices, first = self._buffers(colour, len(points) // 2)
        for k in range(0, len(points), 2):
            vertices.extend((points[k] + cx, points[k + 1] + cy, 0.0, 0.0))
        indices.extend([first + i for i in shape.triangles])

    def segment(
        self, colour: RGBA, x0: float, y0: float, x1: float, y1: float, width: float
    ) -> None:
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            return
        nx, ny = (y0 - y1) / length * width / 2, (x1 - x0) / length * width / 2
        self.polygon(
            colour, (x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny)
        )

    def circle(self, colour: RGBA, cx: float, cy: float, radius: float, sides: int = 12) -> None:
        step = 2 * math.pi / sides
        self.polygon(
            colour,
            [
                v
                for k in range(sides)
                for v in (cx + radius * math.cos(k * step), cy + radius * math.sin(k * step))
            ],
        )

    def draw_into(self, target: CanvasBase) -> None:
        """Add one colour and one mesh per colour to `target` (directly: nested instruction
        groups would keep each other alive after the canvas is cleared)."""
        for colour in self._order:
            target.add(Color(*colour))
            target.add(
                Mesh(
                    vertices=self._vertices[colour],
                    indices=self._indices[colour],
                    mode="triangles",
                )
            )
