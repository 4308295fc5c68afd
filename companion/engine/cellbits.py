"""Sets of board cells as integer bit masks, for searches that run on every move.

Bit i stands for `cells[i]`, the fortress's cells in sorted order, so reading a mask back in
bit order gives sorted cells without sorting. Uniting, subtracting and testing whole sets is one
integer operation each, much cheaper than the same on sets of tuples.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from companion.engine.hexgrid import Cell

_CHUNK = 8  # bits decoded per table lookup
_FEW = 6  # up to this many bits, picking them one by one beats the table walk
_T = TypeVar("_T")


class CellBits:
    """The bit numbering of one fortress's cells."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        self.cells: tuple[Cell, ...] = tuple(sorted(set(cells)))
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(self.cells)}
        chunks = range(0, len(self.cells), _CHUNK)
        self._size = len(chunks)  # bytes in a mask
        #: per chunk of 8 bits and per value of that chunk: its cells and its bit numbers
        self._chunk_cells = [
            [self._pick(self.cells[start : start + _CHUNK], value) for value in range(256)]
            for start in chunks
        ]
        self._chunk_bits = [
            [self._pick(tuple(range(start, start + _CHUNK)), value) for value in range(256)]
            for start in chunks
        ]

    @staticmethod
    def _pick(items: tuple[_T, ...], value: int) -> tuple[_T, ...]:
        return tuple(item for bit, item in enumerate(items) if value >> bit & 1)

    def mask(self, cells: Iterable[Cell]) -> int:
        """The mask of `cells`; cells outside the fortress are left out."""
        index = self.index
        found = 0
        for cell in cells:
            i = index.get(cell)
            if i is not None:
                found |= 1 << i
        return found

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of `mask`, sorted (`mask` must not be negative)."""
        if mask.bit_count() > _FEW:
            return self._decode(self._chunk_cells, mask)
        cells = self.cells
        return [cells[i] for i in self.bits_of(mask)]

    def bits_of(self, mask: int) -> list[int]:
        """The bit numbers set in `mask`, ascending (`mask` must not be negative)."""
        if mask.bit_count() > _FEW:
            return self._decode(self._chunk_bits, mask)
        found: list[int] = []
        while mask:
            low = mask & -mask
            found.append(low.bit_length() - 1)
            mask ^= low
        return found

    def _decode(self, tables: list[list[tuple[_T, ...]]], mask: int) -> list[_T]:
        """One table lookup per non-empty byte of the mask (`mask` must not be negative)."""
        found: list[_T] = []
        for table, chunk in zip(tables, mask.to_bytes(self._size, "little"), strict=True):
            if chunk:
                found.extend(table[chunk])
        return found


__all__ = [
    "CellBits",
]
