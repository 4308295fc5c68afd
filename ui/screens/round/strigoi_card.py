"""What the board shows while a story item's card shows (the round screen, one card after the
other): the words come from story/cards.py; here, the scene. A Strigoi step's arrow from
its room to the new one and the hero it attacks marked; a curse's room outlined and every hero
it hits marked; the Strigoi entering in round 2 marked on their centres; a collapse's room
outlined; a fight's or a monk's hero marked in their room. Zoomed out when the item spans two
rooms, onto its one room otherwise."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.app.story.announcement import Announcement
from companion.engine.game.context import GameRules
from companion.engine.hexgrid import Cell
from ui import theme
from ui.board.painting import OverlayLine


@dataclass(frozen=True)
class Scene:
    lines: list[OverlayLine] = field(default_factory=list)
    marked: set[Cell] = field(default_factory=set)
    outlined: set[str] = field(default_factory=set)
    zoom: str | None = None  # one room to zoom onto; None: the whole fortress
    rooms: tuple[str, ...] = ()  # the rooms it involves (from, to): the tests check them


def card_scene(rules: GameRules, announcement: Announcement) -> Scene:
    facts = announcement.facts
    fortress = rules.fortress
    board = announcement.board
    kind = announcement.kind

    def hero_cell(hero: object) -> Cell | None:
        if board is None or not isinstance(hero, str):
            return None
        at = next((h.at for h in board.heroes if h.hero == hero), None)
        return None if at is None else (int(at[0]), int(at[1]))

    if kind in ("strigoi_step", "curse"):
        start, to = facts.get("from"), facts.get("to")
        lines: list[OverlayLine] = []
        rooms = tuple(r for r in (start, to) if isinstance(r, str))
        if isinstance(start, str) and isinstance(to, str) and start != to:
            lines.append(([fortress.centre(start), fortress.centre(to)], theme.STRIGOI, True))
        heroes = [facts.get("hero")] if kind == "strigoi_step" else list(facts.get("heroes") or ())  # type: ignore[call-overload]
        marked = {cell for cell in map(hero_cell, heroes) if cell is not None}
        target = facts.get("target_cell")
        if isinstance(to, str) and isinstance(target, list) and len(target) == 2:
            cell = (int(target[0]), int(target[1]))
            lines.append(([fortress.centre(to), cell], theme.SIGHT, True))  # the line of sight
            marked.add(cell)
        outlined = {to} if kind == "curse" and isinstance(to, str) else set()
        return Scene(lines, marked, outlined, None, rooms)
    if kind == "strigoi_placed":  # R-SET-3: each Strigoi marked on the centre it enters
        placed = facts.get("placed")
        entered = tuple(str(r) for r in placed.values()) if isinstance(placed, dict) else ()
        centres = {fortress.centre(room) for room in entered if room in fortress.rooms}
        return Scene(marked=centres, zoom=None, rooms=entered)
    if kind == "collapse":
        room = str(facts.get("room", ""))
        return Scene(outlined={room}, zoom=None, rooms=(room,))
    if kind in ("fight", "monk", "wound", "reward"):
        cell = hero_cell(facts.get("hero"))
        if cell is None:
            return Scene()
        room = fortress.room_at(cell)
        return Scene(marked={cell}, zoom=room, rooms=(room,) if room else ())
    return Scene()
