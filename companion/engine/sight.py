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
    _, reach = scan(fortress, state, {}, origin, direction)
    dq, dr = DIRECTIONS[direction]
    return [(origin[0] + dq * k, origin[1] + dr * k) for k in range(1, reach + 1)]


def scan(
    fortress: Fortress,
    state: BoardState,
    occupants: Mapping[Cell, str],
    origin: Cell,
    direction: int,
) -> tuple[Sighting | None, int]:
    """Walk one line (R-LOS-1): the first figure on it (it blocks the rest) and how many cells
    the walk covered (up to the figure, or to the closed edge ending the line)."""
    dq, dr = DIRECTIONS[direction]
    cell, dist = origin, 0
    bit = 1 << direction
    records = fortress.edge_records
    collapsed, rotations, ladders = state.collapsed, state.rotations, state.ladders
    limit = len(fortress.room_of_cell) + len(fortress.ladders) + 1
    while dist < limit:
        record = records.get(cell)
        if record is None:
            break
        mask, room, by_rotation, ladder, ladder_bit = record
        if by_rotation is not None and room not in collapsed:
            mask |= by_rotation[rotations[room]]  # type: ignore[index]  # room set with bits
        if ladder is not None and ladder in ladders:
            mask |= ladder_bit
        if not mask & bit:
            break
        cell = (cell[0] + dq, cell[1] + dr)
        dist += 1
        figure = occupants.get(cell)
        if figure is not None:
            return Sighting(figure, cell, dist, direction), dist
    return None, dist


def first_on_ray(
    fortress: Fortress,
    state: BoardState,
    occupants: Mapping[Cell, str],
    origin: Cell,
    direction: int,
) -> Sighting | None:
    """The first figure along one line (R-LOS-1): it blocks the rest of the line."""
    return scan(fortress, state, occupants, origin, direction)[0]


def line_of_sight(
    fortress: Fortress, state: BoardState, occupants: Mapping[Cell, str], origin: Cell
) -> list[Sighting]:
    """The first figure on each of the six lines from `origin`, sorted by direction."""
    seen = (scan(fortress, state, occupants, origin, d)[0] for d in range(6))
    return [s for s in seen if s is not None]


def hero_rank(situation: Situation, options: Options, hero: str) -> tuple[int, int]:
    """Tie-break part of R-LOS-2: higher initiative first, then (option) the later seat."""
    figure = situation.hero(hero)
    seat = situation.seat(hero)
    return (-figure.initiative, -seat if options.seat_order_breaks_ties else seat)


def target_key(situation: Situation, options: Options, sighting: Sighting) -> tuple[int, int, int]:
    """Sort key of R-LOS-2: nearest first, then `hero_rank`."""
    hero = sighting.hero
    assert hero is not None
    return (sighting.distance, *hero_rank(situation, options, hero))


def choose_target(
    situation: Situation, options: Options, sightings: list[Sighting]
) -> tuple[Sighting, bool] | None:
    """The hero a Strigoi attacks among what it sees, and whether a distance tie was broken."""
    heroes = [s for s in sightings if s.figure.startswith("hero:")]
    if not heroes:
        return None
    if len(heroes) == 1:
        return heroes[0], False
    heroes.sort(key=lambda s: target_key(situation, options, s))
    return heroes[0], heroes[1].distance == heroes[0].distance


__all__ = [
    "Sighting",
    "choose_target",
    "first_on_ray",
    "hero_rank",
    "line_of_sight",
    "ray",
    "scan",
    "target_key",
]
