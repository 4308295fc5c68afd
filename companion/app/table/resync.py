"""Answering a difference on the Resync screen. "The table is right" records the table's
reality with the existing correction commands (events like any other, undoable); "the app is
right" is the table tracker's business (an action that guides the table back).

Some differences have no correction: a platform cannot be swapped, brought back after its
collapse or removed by a correction, and the readers do not say where a missing figure went
(the player shows it with Fix position). Those offer only "the app is right".
"""

from __future__ import annotations

from companion.app.table.differences import Difference, Kind, strigoi_figure
from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState


def strigoi_of_figure(state: GameState, figure: str) -> str | None:
    """The Strigoi name in the state whose figure is `figure` (the Supreme's is the flipped
    card's), if it is on the board."""
    return next((name for name in state.strigoi if strigoi_figure(state, name) == figure), None)


def table_is_right(rules: GameRules, state: GameState, difference: Difference) -> list[c.Command]:
    """The corrections that make the game hold what the table shows; [] when none can."""
    room = difference.room
    if difference.kind == Kind.ROTATION and isinstance(difference.table, int):
        return [c.SetRotation(room=room, rotation=difference.table)]
    if difference.kind in (Kind.WRONG_FIGURE, Kind.EXTRA_FIGURE) and isinstance(
        difference.table, str
    ):
        figure = difference.table
        strigoi = strigoi_of_figure(state, figure)
        if strigoi is not None:
            return [c.SetStrigoiPosition(strigoi=strigoi, room=room)]
        if figure in {h.hero for h in state.heroes}:
            centre = rules.fortress.centre(room)
            return [c.SetHeroPosition(hero=figure, to=centre)]
    return []


def missing_hero(state: GameState, difference: Difference) -> str | None:
    """A hero the table does not show where the game has them: the player shows where they
    really stand (Fix position)."""
    if difference.kind == Kind.FIGURE_MISSING and difference.game in {h.hero for h in state.heroes}:
        return str(difference.game)
    return None
