"""Where a hero may end a move (R-MOV), as defined for `reachable` in SCENARIOS.md.

A 0-1 breadth-first search: a comrade's space costs nothing to enter and cannot be an end
(R-MOV-3); an active encounter space ends the move unless Stealth (R-MOV-2); a Strigoi's space
needs Stealth to cross and is never an end (R-MOV-4); stairs reach every other stairs (R-MOV-5).
Decision: a comrade standing on an encounter space is jumped over, so that encounter does not
stop the move (the move cannot end there, and the rules fight only where a move ends).
"""

from __future__ import annotations

from collections import deque

from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation


def active_encounter(fortress: Fortress, situation: Situation, cell: Cell) -> bool:
    feature = fortress.feature(cell, situation.board)
    return feature in ("red", "grey") and cell not in situation.fight_markers


def reachable(
    fortress: Fortress, situation: Situation, start: Cell, steps: int, stealth: bool
) -> list[Cell]:
    """Sorted cells where a hero starting at `start` may legally end a move of up to `steps`."""
    state = situation.board
    occupants = situation.occupants(fortress)
    occupants.pop(start, None)
    comrades = {c for c, f in occupants.items() if f.startswith("hero:")}
    strigoi = {c for c, f in occupants.items() if f.startswith("strigoi:")}
    tables = fortress.tables(state)
    stops = set() if stealth else tables.encounters - situation.fight_markers - comrades
    stair_list = tables.stairs
    stairs = set(stair_list)
    adjacency = tables.adjacency
    best: dict[Cell, int] = {start: 0}
    queue: deque[tuple[int, Cell]] = deque([(0, start)])
    while queue:
        cost, cell = queue.popleft()
        if cost > best[cell] or (cell in stops and cell != start):
            continue
        targets: tuple[Cell, ...] | list[Cell] = adjacency.get(cell, ())
        if cell in stairs:
            targets = [*targets, *stair_list]
        for nxt in targets:
            if nxt == cell or (nxt in strigoi and not stealth):
                continue
            new = cost if nxt in comrades else cost + 1
            if new <= steps and new < best.get(nxt, steps + 1):
                best[nxt] = new
                if new == cost:
                    queue.appendleft((new, nxt))
                else:
                    queue.append((new, nxt))
    return sorted(c for c in best if c != start and c not in comrades and c not in strigoi)
