"""A game situation: the board state plus figures and counters (value types, immutable)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from companion.engine.explain import HERO_NAMES, STRIGOI_NAMES
from companion.engine.fortress import BoardState, Fortress
from companion.engine.hexgrid import Cell
from companion.errors import IllegalCommand

HEROES: tuple[str, ...] = tuple(HERO_NAMES)  # the ids, in the rulebook's order
STRIGOI: tuple[str, ...] = tuple(STRIGOI_NAMES)


class HeroFigure(NamedTuple):
    """A hero on the board (a named tuple: one is made per hero on every query)."""

    hero: str
    at: Cell
    initiative: int = 0  # of the card played this round
    leap: bool = False  # a Leap is still available (R-COL-2)


@dataclass(frozen=True, slots=True)
class Situation:
    board: BoardState
    strigoi: Mapping[str, str] = field(default_factory=dict)  # strigoi name -> room id
    heroes: tuple[HeroFigure, ...] = ()  # in seat order
    fight_markers: frozenset[Cell] = frozenset()
    players: int = 2
    altar: int = 0
    inferno: int = 0

    def hero(self, name: str) -> HeroFigure:
        for figure in self.heroes:
            if figure.hero == name:
                return figure
        raise IllegalCommand(f"hero {name!r} is not on the board")

    def seat(self, name: str) -> int:
        return next(i for i, h in enumerate(self.heroes) if h.hero == name)

    def strigoi_room(self, name: str) -> str:
        try:
            return self.strigoi[name]
        except KeyError:
            raise IllegalCommand(f"strigoi {name!r} is not on the board") from None

    def other_strigoi(self, name: str) -> str | None:
        return next((s for s in self.strigoi if s != name), None)

    def occupants(self, fortress: Fortress) -> dict[Cell, str]:
        """Cell -> figure id (`hero:<id>` or `strigoi:<id>`)."""
        cells = {fortress.centre(room): f"strigoi:{name}" for name, room in self.strigoi.items()}
        for figure in self.heroes:
            cells[figure.at] = f"hero:{figure.hero}"
        return cells

    def with_board(self, board: BoardState) -> Situation:
        return replace(self, board=board)

    def with_strigoi(self, name: str, room: str) -> Situation:
        strigoi = {**self.strigoi, name: room}
        return Situation(
            self.board,
            strigoi,
            self.heroes,
            self.fight_markers,
            self.players,
            self.altar,
            self.inferno,
        )

    def with_hero_at(self, name: str, cell: Cell) -> Situation:
        heroes = tuple(h._replace(at=cell) if h.hero == name else h for h in self.heroes)
        return replace(self, heroes=heroes)


__all__ = [
    "HEROES",
    "STRIGOI",
    "HeroFigure",
    "Situation",
]
