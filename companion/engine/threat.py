"""Threat map: for every space, which outcomes of the next Strigoi step would attack a hero there.

An outcome is (Strigoi that may be drawn, letter). The hero in question is moved to each
candidate space in turn while everybody else stays; an outcome threatens the space when the
Strigoi step (R-TEL, R-LOS) would pick that hero. Teleports do not depend on heroes, so each
outcome is resolved once and its six sight lines are walked: O(outcomes x line length), not
O(spaces x outcomes) full resolutions (`threat_map_brute` is that reference, used by tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.options import Options
from companion.engine.sight import first_on_ray, hero_rank, ray, target_key
from companion.engine.situation import Situation
from companion.engine.strigoi import ladder_guard, strigoi_step, teleport

ThreatKind = Literal["attack", "landing", "ladder_guard", "ladder"]
Level = Literal["safe", "risky", "deadly"]
ALL_LETTERS = "ABCDEFX"


@dataclass(frozen=True, slots=True, order=True)
class Threat:
    strigoi: str
    letter: str
    kind: ThreatKind  # attack on sight / landed on the hero / hero guards a ladder / hero on ladder
    wounds: int  # card damage + bonus (0 for "ladder": a blood point and a forced move instead)
    protectable: bool
    distance: int


@dataclass(frozen=True, slots=True)
class ThreatMap:
    hero: str
    strigoi: tuple[str, ...]
    letters: tuple[str, ...]
    cells: Mapping[Cell, tuple[Threat, ...]]  # every space the hero could stand on

    @property
    def outcome_count(self) -> int:
        return len(self.strigoi) * len(self.letters)

    def level(self, cell: Cell) -> Level:
        """safe: no outcome hits; deadly: half the outcomes or more, or an unblockable hit."""
        threats = self.cells.get(cell, ())
        if not threats:
            return "safe"
        if 2 * len(threats) >= self.outcome_count or any(not t.protectable for t in threats):
            return "deadly"
        return "risky"


def drawable_strigoi(situation: Situation) -> tuple[str, ...]:
    """R-TEL-1: the token names Master or Apprentice; once the Supreme is in play, only it moves."""
    if "supreme" in situation.strigoi:
        return ("supreme",)
    return tuple(s for s in ("master", "apprentice") if s in situation.strigoi)


def _setup(
    fortress: Fortress, situation: Situation, hero: str, letter: str | None
) -> tuple[Situation, list[Cell], tuple[str, ...]]:
    """Everybody but `hero`, the spaces `hero` could stand on, the letters to try."""
    situation.hero(hero)  # refuses a hero who is not on the board
    others = replace(situation, heroes=tuple(h for h in situation.heroes if h.hero != hero))
    taken = set(others.occupants(fortress))
    candidates = [c for c in fortress.spaces(situation.board) if c not in taken]
    letters = tuple(ALL_LETTERS) if letter is None else (letter,)
    return others, candidates, letters


def threat_map(
    fortress: Fortress,
    situation: Situation,
    hero: str,
    letter: str | None,
    damage: Mapping[str, int],
    options: Options,
    bonus: int = 0,
) -> ThreatMap:
    """Threats to `hero` on every space for the next Strigoi step; `letter` None = card unknown."""
    others, candidates, letters = _setup(fortress, situation, hero, letter)
    found: dict[Cell, list[Threat]] = {c: [] for c in candidates}
    mover_tie = hero_rank(situation, options, hero)
    strigoi_names = drawable_strigoi(situation)
    for name in strigoi_names:
        wounds = damage[name] + bonus
        for card in letters:
            jump = teleport(fortress, others, name, card, options)
            if jump.moved:
                origin = fortress.centre(jump.to)
                after = others.with_strigoi(name, jump.to)
                if origin in found:
                    found[origin].append(Threat(name, card, "landing", wounds, False, 0))
                elif any(h.at == origin for h in others.heroes):
                    continue  # R-LOS-4: the comrade on the landing centre takes the attack
                occupants = after.occupants(fortress)
                del occupants[origin]
                best: tuple[int, int, int] | None = None
                for d in range(6):
                    seen = first_on_ray(fortress, after.board, occupants, origin, d)
                    if seen is not None and seen.hero is not None:
                        key = target_key(situation, options, seen)
                        best = key if best is None or key < best else best
                for d in range(6):
                    for k, cell in enumerate(ray(fortress, after.board, origin, d), 1):
                        if cell in occupants:
                            break
                        if cell not in found:  # the cell the moving Strigoi just left
                            continue
                        if best is None or (k, *mover_tie) < best:
                            found[cell].append(Threat(name, card, "attack", wounds, True, k))
            elif jump.ladder is not None:
                ladder = fortress.ladders[jump.ladder]
                origin = fortress.centre(jump.start)
                occupants = others.occupants(fortress)
                for k, cell in enumerate(ray(fortress, others.board, origin, ladder.side), 1):
                    if cell in occupants or cell == ladder.cell:
                        break
                    found[cell].append(Threat(name, card, "ladder_guard", wounds, True, k))
                guarded = ladder_guard(fortress, others, jump.start, jump.ladder) is not None
                if not guarded and ladder.cell in found:  # R-TEL-4: seen or not, it falls
                    distance = fortress.room_radius + 1
                    found[ladder.cell].append(Threat(name, card, "ladder", 0, False, distance))
    cells = {c: tuple(sorted(t)) if t else () for c, t in found.items()}
    return ThreatMap(hero, strigoi_names, letters, cells)


def threat_map_brute(
    fortress: Fortress,
    situation: Situation,
    hero: str,
    letter: str | None,
    damage: Mapping[str, int],
    options: Options,
    bonus: int = 0,
) -> ThreatMap:
    """Reference implementation: a full Strigoi step for every space x outcome."""
    _, candidates, letters = _setup(fortress, situation, hero, letter)
    strigoi_names = drawable_strigoi(situation)
    found: dict[Cell, tuple[Threat, ...]] = {}
    for cell in candidates:
        placed = situation.with_hero_at(hero, cell)
        threats: list[Threat] = []
        for name in strigoi_names:
            for card in letters:
                step = strigoi_step(fortress, placed, name, card, bonus, damage, options)
                attack = step.attack
                if attack is not None and attack.hero == hero:
                    if step.teleport.moved:
                        kind: ThreatKind = "attack" if attack.distance else "landing"
                    else:
                        kind = "ladder_guard"
                    threats.append(
                        Threat(name, card, kind, attack.wounds, attack.protectable, attack.distance)
                    )
                elif step.ladder_destroyed is not None and hero in step.relocate:
                    distance = fortress.room_radius + 1
                    threats.append(Threat(name, card, "ladder", 0, False, distance))
        found[cell] = tuple(sorted(threats))
    return ThreatMap(hero, strigoi_names, letters, found)


__all__ = [
    "ALL_LETTERS",
    "Level",
    "Threat",
    "ThreatKind",
    "ThreatMap",
    "drawable_strigoi",
    "threat_map",
    "threat_map_brute",
]
