"""`Fortress.tables` (cached, assembled room by room) equals the plain whole-board computation
for any rotations, collapses and destroyed ladders."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.boardfile import load_board_file
from companion.engine.fortress import BoardState
from tests.support.reference_tables import plain_tables

FORTRESS = load_board_file()
PLATFORM_ROOMS = sorted(FORTRESS.platforms)


@st.composite
def board_states(draw: st.DrawFn) -> BoardState:
    rotations = {room: draw(st.integers(0, 5)) for room in PLATFORM_ROOMS}
    collapsed = draw(st.frozensets(st.sampled_from(PLATFORM_ROOMS)))
    ladders = draw(st.frozensets(st.sampled_from(sorted(FORTRESS.ladders))))
    return BoardState(rotations, collapsed, ladders)


@settings(max_examples=300)
@given(board_states())
def test_tables_equal_the_plain_computation(state: BoardState) -> None:
    assert FORTRESS.tables(state) == plain_tables(FORTRESS, state)


def test_the_initial_board_too() -> None:
    state = FORTRESS.initial_state()
    assert FORTRESS.tables(state) == plain_tables(FORTRESS, state)
