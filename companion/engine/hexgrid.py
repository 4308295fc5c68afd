"""Axial hex coordinates as used by `armata-board/1` (see BOARD-FORMAT.md, Geometry)."""

from __future__ import annotations

from typing import Final

Cell = tuple[int, int]

#: Direction vectors indexed 0-5: 0=[1,0] 1=[1,-1] 2=[0,-1] 3=[-1,0] 4=[-1,1] 5=[0,1].
DIRECTIONS: Final[tuple[Cell, ...]] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ORIGIN: Final[Cell] = (0, 0)


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def add(a: Cell, b: Cell) -> Cell:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Cell, b: Cell) -> Cell:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Cell, k: int) -> Cell:
    return (a[0] * k, a[1] * k)


def step(cell: Cell, direction: int, k: int = 1) -> Cell:
    dq, dr = DIRECTIONS[direction]
    return (cell[0] + dq * k, cell[1] + dr * k)


def rotate(cell: Cell, steps: int) -> Cell:
    """Turn a cell about the origin by `steps` sixth-turns: direction d becomes d + steps."""
    q, r = cell
    for _ in range(steps % 6):
        q, r = q + r, -q
    return (q, r)


def distance(a: Cell, b: Cell = ORIGIN) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_between(a: Cell, b: Cell) -> int | None:
    """The direction index from `a` to its neighbour `b`, or None when they are not adjacent."""
    delta = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        return None


def disc(radius: int) -> list[Cell]:
    """Every cell within `radius` of the origin."""
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
    ]


__all__ = [
    "DIRECTIONS",
    "ORIGIN",
    "Cell",
    "add",
    "direction_between",
    "disc",
    "distance",
    "opposite",
    "rotate",
    "scale",
    "step",
    "sub",
]
