"""Where a hero may end a move (R-MOV), as defined for `reachable` in SCENARIOS.md.

A 0-1 breadth-first search: a comrade's space costs nothing to enter and cannot be an end
(R-MOV-3); an active encounter space ends the move unless Stealth (R-MOV-2); a Strigoi's space
needs Stealth to cross and is never an end (R-MOV-4); stairs reach every other stairs (R-MOV-5).
Decision: a comrade standing on an encounter space is jumped over, so that encounter does not
stop the move (the move cannot end there, and the rules fight only where a move ends).
"""

from __future__ import annotations

from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation


def active_encounter(fortress: Fortress, situation: Situation, cell: Cell) -> bool:
    feature = fortress.feature(cell, situation.board)
    return feature in ("red", "grey") and cell not in situation.fight_markers


def reachable(
    fortress: Fortress, situation: Situation, start: Cell, steps: int, stealth: bool
) -> list[Cell]:
    """Sorted cells where a hero starting at `start` may legally end a move of up to `steps`.

    Breadth-first by cost: a comrade's cell joins the layer it is reached in (it costs nothing),
    every other cell the next layer, so each cell is first reached at its lowest cost.
    """
    tables = fortress.tables(situation.board)
    occupants = situation.occupants(fortress)
    occupants.pop(start, None)
    comrades = {c for c, f in occupants.items() if f.startswith("hero:")}
    strigoi = {c for c, f in occupants.items() if f.startswith("strigoi:")}
    stops = set() if stealth else tables.encounters - situation.fight_markers - comrades
    blocked = set() if stealth else strigoi
    moves = tables.steps
    best: dict[Cell, int] = {start: 0}
    layer = [start]
    cost = 0
    while layer:
        following: list[Cell] = []
        i = 0
        while i < len(layer):
            cell = layer[i]
            i += 1
            if cell in stops and cell != start:
                continue  # R-MOV-2: an active encounter ends the move
            for nxt in moves.get(cell, ()):
                if nxt in best or nxt in blocked:
                    continue
                if nxt in comrades:  # R-MOV-3: skipped, not counted
                    best[nxt] = cost
                    layer.append(nxt)
                elif cost < steps:
                    best[nxt] = cost + 1
                    following.append(nxt)
        layer = following
        cost += 1
    return sorted(c for c in best if c != start and c not in comrades and c not in strigoi)
