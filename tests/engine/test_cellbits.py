"""Cell bit masks read back exactly the cells put in, sorted, sparse or dense."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.boardfile import load_board_file
from companion.engine.cellbits import CellBits

FORTRESS = load_board_file()
BITS = FORTRESS.bits


@given(st.sets(st.sampled_from(BITS.cells)))
def test_a_mask_reads_back_its_cells_sorted(cells: set[tuple[int, int]]) -> None:
    mask = BITS.mask(cells)
    assert mask.bit_count() == len(cells)
    assert BITS.cells_of(mask) == sorted(cells)
    assert BITS.bits_of(mask) == sorted(BITS.index[c] for c in cells)


def test_cells_outside_the_fortress_are_left_out() -> None:
    assert BITS.mask([(99, 99)]) == 0
    assert BITS.cells_of(0) == []


def test_every_space_of_every_board_state_has_a_bit() -> None:
    tables = FORTRESS.tables(FORTRESS.initial_state())
    assert set(tables.spaces) <= set(BITS.cells)
    assert BITS.cells_of(tables.stairs_mask) == list(tables.stairs)
    for cell, near in tables.adjacency.items():
        assert BITS.cells_of(tables.neighbour_masks[BITS.index[cell]]) == sorted(near)


def test_numbering_follows_sorted_order_whatever_the_input_order() -> None:
    bits = CellBits([(2, 0), (0, 1), (0, 0), (1, -1)])
    assert bits.cells == ((0, 0), (0, 1), (1, -1), (2, 0))
    assert bits.cells_of(bits.mask([(2, 0), (0, 0)])) == [(0, 0), (2, 0)]
