"""Hypothesis strategies: random but valid situations on a given fortress."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from companion.engine.fortress import BoardState, Fortress
from companion.engine.hexgrid import Cell, rotate
from companion.engine.situation import HEROES, HeroFigure, Situation


@st.composite
def situations(draw: st.DrawFn, fortress: Fortress, max_heroes: int = 5) -> Situation:
    platform_rooms = sorted(fortress.platforms)
    rotations = {room: draw(st.integers(0, 5)) for room in platform_rooms}
    collapsed = frozenset(draw(st.lists(st.sampled_from(platform_rooms), max_size=2, unique=True)))
    ladders = frozenset(
        draw(st.lists(st.sampled_from(sorted(fortress.ladders)), unique=True))
        if fortress.ladders
        else []
    )
    board = BoardState(rotations, collapsed, ladders)
    standing = [r for r in platform_rooms if r not in collapsed]
    strigoi: dict[str, str] = {}
    if draw(st.booleans()) and standing:
        strigoi["supreme"] = draw(st.sampled_from([*standing, fortress.centre_room]))
    elif len(standing) >= 2:
        rooms = draw(st.lists(st.sampled_from(standing), min_size=2, max_size=2, unique=True))
        strigoi = {"master": rooms[0], "apprentice": rooms[1]}
    taken = {fortress.centre(r) for r in strigoi.values()}
    free = [c for c in fortress.spaces(board) if c not in taken]
    names = draw(st.lists(st.sampled_from(HEROES), max_size=max_heroes, unique=True))
    cells = draw(
        st.lists(st.sampled_from(free), min_size=len(names), max_size=len(names), unique=True)
    )
    heroes = tuple(
        HeroFigure(name, cell, draw(st.integers(1, 6)), draw(st.booleans()))
        for name, cell in zip(names, cells, strict=True)
    )
    encounters = [
        c for c in fortress.spaces(board) if fortress.feature(c, board) in ("red", "grey")
    ]
    markers = frozenset(
        draw(st.lists(st.sampled_from(encounters), max_size=4, unique=True)) if encounters else []
    )
    return Situation(board, strigoi, heroes, markers, players=draw(st.integers(2, 5)))


def rotate_board_data(data: dict[str, Any], k: int) -> dict[str, Any]:
    """The same fortress turned k sixth-turns about the origin."""
    turned = copy.deepcopy(data)
    for room in turned["layout"]["rooms"]:
        room["at"] = list(rotate(tuple(room["at"]), k))
        room["orientation"] = (room.get("orientation", 0) + k) % 6
        if room.get("platform") is not None:
            room["rotation"] = (room.get("rotation", 0) + k) % 6
    for ladder in turned["layout"].get("ladders", []):
        ladder["side"] = (ladder["side"] + k) % 6
    return turned


def rotate_situation(situation: Situation, k: int) -> Situation:
    board = situation.board
    turned_board = BoardState(
        {room: (r + k) % 6 for room, r in board.rotations.items()}, board.collapsed, board.ladders
    )
    heroes = tuple(
        HeroFigure(h.hero, rotate(h.at, k), h.initiative, h.leap) for h in situation.heroes
    )
    markers = frozenset(rotate(c, k) for c in situation.fight_markers)
    return Situation(turned_board, dict(situation.strigoi), heroes, markers, situation.players)


def rot(cell: Cell, k: int) -> Cell:
    return rotate(cell, k)
