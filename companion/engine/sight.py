"""Line of sight (R-LOS-1) and the Strigoi's choice of target (R-LOS-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.fortress import BoardState, Fortress
from companion.engine.hexgrid import DIRECTIONS, Cell
from companion.engine.options import Options
from companion.engine.situation import Situation


@dataclass(frozen=True, slots=True)
class Sighting:
    figure: str  # "hero:<id>" or "strigoi:<id>"
    at: Cell
    distance: int
    direction: int

    @property
    def hero(self) -> str | None:
        return self.figure[5:] if self.figure.startswith("hero:") else None


def ray(fortress: Fortress, state: BoardState, origin: Cell, direction: int) -> list[Cell]:
    """The cells seen from `origin` along one straight line, up to the first closed edge."""
    cells: list[Cell] = []
    dq, dr = DIRECTIONS[direction]
    cell = origin
    limit = len(fortress.room_of_cell) + len(fortress.ladders) + 1
    while len(cells) < limit and fortress.open_mask(cell, state) >> direction & 1:
        cell = (cell[0] + dq, cell[1] + dr)
        cells.append(cell)
    return cells


def first_on_ray(
    fortress: Fortress,
    state: BoardState,
    occupants: Mapping[Cell, str],
    origin: Cell,
    direction: int,
) -> Sighting | None:
    """The first figure along one line (R-LOS-1): it blocks the rest of the line."""
    dq, dr = DIRECTIONS[direction]
    cell, dist = origin, 0
    limit = len(fortress.room_of_cell) + len(fortress.ladders) + 1
    while dist < limit and fortress.open_mask(cell, state) >> direction & 1:
        cell = (cell[0] + dq, cell[1] + dr)
        dist += 1
        figure = occupants.get(cell)
        if figure is not None:
            return Sighting(figure, cell, dist, direction)
    return None


def line_of_sight(
    fortress: Fortress, state: BoardState, occupants: Mapping[Cell, str], origin: Cell
) -> list[Sighting]:
    """The first figure on each of the six lines from `origin`, sorted by direction."""
    seen = (first_on_ray(fortress, state, occupants, origin, d) for d in range(6))
    return [s for s in seen if s is not None]


def target_key(situation: Situation, options: Options, sighting: Sighting) -> tuple[int, int, int]:
    """Sort key: nearest first, then higher initiative, then (option) later seat (R-LOS-2)."""
    hero = sighting.hero
    assert hero is not None
    figure = situation.hero(hero)
    seat = situation.seat(hero) if options.seat_order_breaks_ties else -situation.seat(hero)
    return (sighting.distance, -figure.initiative, -seat)


def choose_target(
    situation: Situation, options: Options, sightings: list[Sighting]
) -> tuple[Sighting, bool] | None:
    """The hero a Strigoi attacks among what it sees, and whether a distance tie was broken."""
    heroes = [s for s in sightings if s.hero is not None]
    if not heroes:
        return None
    heroes.sort(key=lambda s: target_key(situation, options, s))
    tied = len(heroes) > 1 and heroes[1].distance == heroes[0].distance
    return heroes[0], tied
