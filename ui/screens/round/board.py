"""Choosing on the board: the round screen's spaces to tap and what a tap means.

Commands that go to a space are chosen on the board (option_groups.board_modes): a mode says
which ones the board offers now (move, move with Stealth, Leap, Pack, a ladder to go to...). A
tap on an offered space does not commit: it selects it, and the panel asks to confirm ("Move
here") or cancel. Corrections work the same way (Fix): a hero to any space, a Strigoi to a
platform centre, a platform's rotation by tapping the edge its first book must face.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.app.board.threats import waiting_hero
from companion.app.words.i18n import N_, tr
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game.context import board_state
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from companion.engine.hexgrid import DIRECTIONS, Cell
from ui.widgets.option_groups import Mode, board_modes

MODE_NAMES = {
    "move": N_("Move"),
    "stealth": N_("Move with Stealth"),
    "relocate": N_("Go to a ladder or stairs"),
    "escape": N_("Leap"),
    "marker": N_("Take a fight marker"),
    "leap": N_("Leap"),
    "pack": N_("Pack"),
}
MODE_ORDER = ("move", "relocate", "escape", "marker", "stealth", "leap", "pack")
#: what the board asks while whole-fortress: one whole sentence per mode, naming the hero
#: whose command it is (never the task's words glued in: the task may be the Strigoi token
#: while a hero may still Pack or Leap)
MODE_PROMPTS = {
    "move": N_("{hero} moves: tap a room to zoom in, then a space."),
    "stealth": N_("{hero} moves with Stealth: tap a room to zoom in, then a space."),
    "relocate": N_("{hero} goes to a ladder or stairs: tap a room to zoom in, then a space."),
    "escape": N_("Leap, {hero}? Tap a room to zoom in, then a space, or fall."),
    "marker": N_("{hero} takes a fight marker: tap a room to zoom in, then its space."),
    "leap": N_("Leap, {hero}? Tap a room to zoom in, then a space, or go on."),
    "pack": N_("Pack, {hero}? Tap a room to zoom in, then a space, or go on."),
}


#: zoomed in, the rings are the choice: what tapping one does, for a mode the game's sentence
#: does not name ("Waiting for Attila to use an ability or go on." over Pack's rings)
ZOOMED_PROMPTS = {
    "stealth": N_("{hero} moves with Stealth: tap a space."),
    "relocate": N_("{hero} goes to a ladder or stairs: tap one."),
    "escape": N_("Leap, {hero}? Tap a space, or fall with the platform."),
    "marker": N_("{hero} takes a fight marker: tap one of the lit spaces."),
    "leap": N_("Leap, {hero}? Tap a space, or go on."),
    "pack": N_("Pack, {hero}? Tap a space, or go on."),
}


@dataclass(frozen=True)
class FixTarget:
    """What Fix corrects: a hero's space, a Strigoi's room, or a platform's rotation."""

    kind: str  # "hero" | "strigoi" | "rotation"
    name: str = ""  # the hero, the Strigoi, or the room (rotation; "" until a room is tapped)


def board_prompt(choice: BoardChoice, zoomed: bool = False) -> str | None:
    """The board's request in the current mode, one sentence in the players' language; zoomed
    in, only for a mode the game's own sentence does not name (None: that sentence says it)."""
    mode = choice.mode[0] if choice.mode is not None else "move"
    template = (ZOOMED_PROMPTS if zoomed else MODE_PROMPTS).get(mode)
    return None if template is None else tr(template).format(hero=hero_name(choice.hero()))


class BoardChoice:
    def __init__(self) -> None:
        self.modes: dict[Mode, dict[Cell, c.Command]] = {}
        self.mode: Mode | None = None
        self.pending: c.Command | None = None
        self.fix: FixTarget | None = None

    def offer(self, commands: list[c.Command]) -> None:
        """The legal commands changed: the board's modes follow, the mode stays if it can."""
        self.modes = board_modes(commands)
        self.pending = None
        if self.mode not in self.modes:
            ordered = sorted(self.modes, key=lambda m: MODE_ORDER.index(m[0]))
            self.mode = ordered[0] if ordered else None

    def ordered_modes(self) -> list[Mode]:
        return sorted(self.modes, key=lambda m: (MODE_ORDER.index(m[0]), m[1]))

    def cells(self, fortress: Fortress, state: GameState) -> set[Cell]:
        """The spaces a tap may choose now."""
        if self.fix is not None:
            return self._fix_cells(fortress, state)
        if self.mode is None:
            return set()
        return set(self.modes.get(self.mode, {}))

    def _fix_cells(self, fortress: Fortress, state: GameState) -> set[Cell]:
        fix = self.fix
        assert fix is not None
        board = board_state(state)
        if fix.kind == "hero":
            taken = {h.at for h in state.heroes if h.hero != fix.name}
            taken |= {fortress.centre(room) for room in state.strigoi.values()}
            return {x for x in fortress.spaces(board) if x not in taken}
        if fix.kind == "strigoi":
            return {
                fortress.centre(room)
                for room in fortress.rooms
                if room not in state.strigoi.values() or state.strigoi.get(fix.name) == room
            }
        if fix.name:  # rotation: the six edges of the chosen platform
            centre = fortress.centre(fix.name)
            reach = fortress.platform_radius + 1
            return {(centre[0] + dq * reach, centre[1] + dr * reach) for dq, dr in DIRECTIONS}
        return {fortress.centre(room) for room in fortress.platforms if room not in state.collapsed}

    def tap(self, cell: Cell, fortress: Fortress, state: GameState) -> c.Command | None:
        """A tap on the board: the command it would make (not yet committed), or None."""
        if self.fix is not None:
            return self._fix_tap(cell, fortress, state)
        if self.mode is None:
            return None
        self.pending = self.modes.get(self.mode, {}).get(cell)
        return self.pending

    def _fix_tap(self, cell: Cell, fortress: Fortress, state: GameState) -> c.Command | None:
        fix = self.fix
        assert fix is not None
        if cell not in self._fix_cells(fortress, state):
            return None
        if fix.kind == "hero":
            self.pending = c.SetHeroPosition(hero=fix.name, to=cell)
        elif fix.kind == "strigoi":
            room = fortress.room_at(cell)
            self.pending = (
                None if room is None else c.SetStrigoiPosition(strigoi=fix.name, room=room)
            )
        elif not fix.name:
            room = fortress.room_at(cell)
            self.fix = FixTarget("rotation", room or "")  # second tap: the edge
            self.pending = None
        else:
            centre = fortress.centre(fix.name)
            step = ((cell[0] - centre[0]), (cell[1] - centre[1]))
            reach = fortress.platform_radius + 1
            direction = DIRECTIONS.index((step[0] // reach, step[1] // reach))
            # the first book (index 0) faces `direction`: rotation = direction (BOARD-FORMAT.md)
            self.pending = c.SetRotation(room=fix.name, rotation=direction)
        return self.pending

    def hero(self) -> str:
        """The hero whose commands the current mode offers ("" when none)."""
        commands = self.modes.get(self.mode, {}) if self.mode is not None else {}
        return next((getattr(command, "hero", "") for command in commands.values()), "")

    def cancel(self) -> None:
        self.pending = None


def focus_room(
    state: GameState,
    task: Task | None,
    cells: Iterable[Cell],
    room_near: Callable[[Cell], str | None],
) -> str | None:
    """The room the board shows for what the game waits for, from the state alone: the one
    room that holds every space to choose; else the room of the hero the game waits for (the
    mover, the fighter, the one drawing the Strigoi token) unless spaces to choose lie only in
    other rooms; else None, the whole fortress.
    `room_near` names the room of a cell (a ladder's cell: the ladder's room)."""
    rooms = {room_near(cell) for cell in cells}
    if len(rooms) == 1 and None not in rooms:
        return rooms.pop()
    hero = waiting_hero(task, state)
    if hero is None or hero not in {h.hero for h in state.heroes}:
        return None
    at = state.hero(hero).at
    room = None if at is None else room_near(at)
    if rooms and room not in rooms:
        # the spaces to choose lie elsewhere (a fight marker taken from another room, R-ENC-4):
        # the whole fortress, so every lit space shows
        return None
    return room
