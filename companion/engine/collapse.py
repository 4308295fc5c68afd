"""The fortress crumbles (R-COL): a platform collapses when the Supreme Strigoi is wounded."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.explain import Reason, reason
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation
from companion.engine.strigoi import check_letter


@dataclass(frozen=True, slots=True)
class Collapse:
    room: str | None  # the room whose platform collapsed, or None
    direction: int | None
    blood_lost: int
    relocate: tuple[str, ...]  # heroes who must move to stairs or a ladder
    leapt: tuple[str, ...]  # heroes who Leap to another space of the room
    strigoi_moved_to: str | None
    why: tuple[Reason, ...]
    after: Situation


def _leap_landings(fortress: Fortress, situation: Situation, room: str) -> list[Cell]:
    """Empty tile spaces of `room` a hero may Leap to: not an encounter space (R-ABL Leap)."""
    taken = set(situation.occupants(fortress))
    return [
        cell
        for cell in fortress.tile_spaces
        if fortress.room_of_cell[cell] == room
        and cell not in taken
        and fortress.tile_features.get(cell) not in ("red", "grey")
    ]


def collapse(fortress: Fortress, situation: Situation, letter: str) -> Collapse:
    """R-COL-1..3: read `letter` on the centre room's books; that room's platform is removed."""
    check_letter(letter)
    centre = fortress.centre_room
    state = situation.board
    if letter == "X":
        nothing = (reason("R-COL-1", "collapse_letter_x"),)
        return Collapse(None, None, 0, (), (), None, nothing, situation)
    direction = fortress.book_direction(centre, letter, state)
    assert direction is not None
    why: list[Reason] = [
        reason("R-COL-1", "collapse_book", letter=letter, room=centre, direction=direction)
    ]
    target = fortress.rooms[centre].neighbours[direction]
    if target is None:
        why.append(reason("R-COL-1", "collapse_no_room", direction=direction))
        return Collapse(None, direction, 0, (), (), None, tuple(why), situation)
    if target not in fortress.platforms or target in state.collapsed:
        why.append(reason("R-COL-1", "already_collapsed", target=target))
        return Collapse(None, direction, 0, (), (), None, tuple(why), situation)
    why.append(reason("R-COL-1", "collapse", target=target))
    platform_cells = fortress.platforms[target].cells
    landings = _leap_landings(fortress, situation, target)
    leapt: list[str] = []
    relocate: list[str] = []
    for figure in situation.heroes:
        if figure.at not in platform_cells:
            continue
        if figure.leap and landings:
            landings.pop()
            leapt.append(figure.hero)
            why.append(reason("R-COL-2", "leap", hero=figure.hero, target=target))
        else:
            relocate.append(figure.hero)
            why.append(reason("R-COL-2", "crushed", hero=figure.hero))
    after = situation.with_board(state.with_collapsed(target))
    moved_to = None
    strigoi = {name: room for name, room in situation.strigoi.items()}
    for name, room in situation.strigoi.items():
        if room == target:
            strigoi[name] = centre
            moved_to = centre
            why.append(reason("R-COL-3", "strigoi_to_centre", strigoi=name, room=centre))
    after = replace(after, strigoi=strigoi)
    return Collapse(
        target,
        direction,
        len(relocate),
        tuple(sorted(relocate)),
        tuple(sorted(leapt)),
        moved_to,
        tuple(why),
        after,
    )


__all__ = [
    "Collapse",
    "collapse",
]
