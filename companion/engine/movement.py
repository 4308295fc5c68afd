"""Where a hero may end a move (R-MOV), as defined for `reachable` in SCENARIOS.md.

A 0-1 breadth-first search: a comrade's space costs nothing to enter and cannot be an end
(R-MOV-3); an active encounter space ends the move unless Stealth (R-MOV-2); a Strigoi's space
needs Stealth to cross and is never an end (R-MOV-4); stairs reach every other stairs (R-MOV-5).
Decision: a comrade standing on an encounter space is jumped over, so that encounter does not
stop the move (the move cannot end there, and the rules fight only where a move ends).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.fortress import BoardState, Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation


def active_encounter(fortress: Fortress, situation: Situation, cell: Cell) -> bool:
    feature = fortress.feature(cell, situation.board)
    return feature in ("red", "grey") and cell not in situation.fight_markers


def reachable(
    fortress: Fortress, situation: Situation, start: Cell, steps: int, stealth: bool
) -> list[Cell]:
    """Sorted cells where a hero starting at `start` may legally end a move of up to `steps`.

    Breadth-first by cost, a whole layer at a time, on cell bit masks. A comrade's cell costs
    nothing, so comrades reached join the current layer; every other cell reached joins the next.
    Each cell is thus first reached at its lowest cost. Stairs reach every other stairs (R-MOV-5);
    the first stairs reached is the cheapest way into that network, so it is walked once.
    """
    return reachable_on(
        fortress,
        situation.board,
        start,
        steps,
        stealth,
        [h.at for h in situation.heroes],
        situation.strigoi.values(),
        situation.fight_markers,
    )


def reachable_on(
    fortress: Fortress,
    board: BoardState,
    start: Cell,
    steps: int,
    stealth: bool,
    heroes: Iterable[Cell],
    strigoi_rooms: Iterable[str],
    fight_markers: Iterable[Cell],
    through_encounters: bool | None = None,
) -> list[Cell]:
    """`reachable` from the figures' places alone (no situation to build first).

    `through_encounters` (default: as `stealth`, the SCENARIOS.md contract of `reachable`) lets
    the move cross active encounter spaces; the game passes False, as RULES.md R-MOV-2 decides
    (Stealth passes a Strigoi, never an encounter unflipped)."""
    tables = fortress.tables(board)
    bits = fortress.bits
    near = tables.neighbour_masks
    here = bits.mask((start,))
    comrades = bits.mask(heroes) & ~here
    strigoi = bits.mask(fortress.centre(room) for room in strigoi_rooms) & ~here
    markers = bits.mask(fight_markers)
    # R-MOV-2: an active encounter ends the move (the start is left whatever it holds)
    walk_over = stealth if through_encounters is None else through_encounters
    stops = 0 if walk_over else tables.encounter_mask & ~markers & ~comrades & ~here
    blocked = 0 if stealth else strigoi  # R-MOV-4
    stairs = tables.stairs_mask
    seen = layer = here
    cost = 0
    while layer:
        following = 0
        pending = layer
        while pending:
            spreading = pending & ~stops
            reached = 0
            for i in bits.bits_of(spreading):
                reached |= near[i]
            if spreading & stairs:
                reached |= stairs
                stairs = 0  # walked
            reached &= ~seen & ~blocked
            pending = reached & comrades  # R-MOV-3: skipped, not counted
            seen |= pending
            following |= reached & ~pending
        if cost == steps:
            break
        layer = following & ~seen
        seen |= layer
        cost += 1
    return bits.cells_of(seen & ~here & ~comrades & ~strigoi)


__all__ = [
    "active_encounter",
    "reachable",
    "reachable_on",
]
