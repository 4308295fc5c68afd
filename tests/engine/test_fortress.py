"""Geometry of the default fortress and of small hand-checked boards."""

from __future__ import annotations

import json

import pytest

from companion.engine.board_build import load_board
from companion.engine.fortress import Fortress
from companion.errors import BoardFormatError, CompanionError
from tests.conftest import SCENARIOS


def board_of(scenario: str) -> dict:
    return json.loads((SCENARIOS / scenario).read_text())["board"]


@pytest.mark.rule("R-CMP-1", "R-CMP-2", "R-SET-1")
def test_default_fortress_shape(fortress: Fortress) -> None:  # R-CMP-1, R-CMP-2, R-SET-1
    assert fortress.room_radius == 3 and fortress.platform_radius == 1
    assert len(fortress.rooms) == 7 and len(fortress.platforms) == 6
    assert fortress.centre_room == "C"
    assert sorted(r.id for r in fortress.rooms.values() if r.strigoi_start) == ["NW", "SE"]
    state = fortress.initial_state()
    features = [fortress.feature(c, state) for c in fortress.spaces(state)]
    assert features.count("red") >= 6 and features.count("grey") >= 6
    assert features.count("stairs") >= 6 + len(fortress.ladders)
    assert len(fortress.ladders) == 5


def test_turning_a_platform_connects_and_disconnects_corridors() -> None:
    # Room E of the m7 board holds the straight platform "pl" (passages 0 and 3) at rotation 1.
    fortress = load_board(board_of("movement/turned-platform.json"))
    state = fortress.initial_state()
    centre = fortress.centre("E")
    assert not fortress.is_open(centre, 0, state) and fortress.is_open(centre, 1, state)
    turned = state.rotated("E", 0)
    assert fortress.is_open(centre, 0, turned) and fortress.is_open(centre, 3, turned)
    assert not fortress.is_open(centre, 1, turned)
    # the edge is open from both sides, and the original state is untouched
    assert fortress.is_open((4, 0), 3, turned) and not fortress.is_open((4, 0), 3, state)
    assert state.rotations["E"] == 1


def test_books_follow_rotation_and_orientation() -> None:
    fortress = load_board(board_of("teleport/basic.json"))
    state = fortress.initial_state()
    assert fortress.book_direction("W", "B", state) == 1
    assert fortress.book_direction("W", "B", state.rotated("W", 4)) == 5
    assert fortress.book_direction("C", "A", state) == 0


def test_collapsed_platform_cells_stop_being_spaces() -> None:
    fortress = load_board(board_of("teleport/basic.json"))
    state = fortress.initial_state()
    centre = fortress.centre("E")
    assert fortress.is_space(centre, state)
    gone = state.with_collapsed("E")
    assert not fortress.is_space(centre, gone)
    assert fortress.open_mask(centre, gone) == 0
    assert fortress.is_space((4, 0), gone)  # the tile keeps its own cells


def test_destroyed_ladder_closes_its_door() -> None:
    fortress = load_board(board_of("teleport/basic.json"))
    state = fortress.initial_state()
    assert fortress.is_open((4, 0), 0, state) and fortress.is_space((5, 0), state)
    gone = state.without_ladder("L1")
    assert not fortress.is_open((4, 0), 0, gone) and not fortress.is_space((5, 0), gone)
    assert (5, 0) not in fortress.stairs(gone) and (5, 0) in fortress.stairs(state)


def test_errors_share_one_root_and_resemble_value_errors() -> None:
    with pytest.raises(BoardFormatError) as caught:
        load_board({"format": "armata-board/1", "room_radius": 0})
    assert isinstance(caught.value, CompanionError) and isinstance(caught.value, ValueError)
    with pytest.raises(BoardFormatError, match=r"^format: unknown format tag"):
        load_board({"format": "nope"})
    with pytest.raises(BoardFormatError, match="a board must be a JSON object"):
        load_board([1, 2])


def test_board_sizes_are_bounded_before_anything_is_built() -> None:
    """Issue 16, item 9: radius 1,000 took 15 s and then all the memory; now a clear error."""
    from companion.boardfile import dump_board, load_board_file

    data = json.loads(dump_board(load_board_file()))
    for radius in (13, 40, 1_000_000):  # refused before any geometry is built
        with pytest.raises(BoardFormatError, match=r"room_radius: must be at most 12"):
            load_board({**data, "room_radius": radius})
    rooms = data["layout"]["rooms"]
    many = {**data, "layout": {**data["layout"], "rooms": rooms * 6}}
    with pytest.raises(BoardFormatError, match=r"layout.rooms: at most 37 rooms"):
        load_board(many)
