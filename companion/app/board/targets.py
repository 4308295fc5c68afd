"""The space a board command goes to: what the touchscreen rings and the headless table's
spoken menu group by (one place, so both agree on which commands are about a space)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.hexgrid import Cell


def target_cell(command: c.Command) -> Cell | None:
    """The space a command goes to (or takes a fight marker from), None for the others."""
    match command:
        case c.PlaceFightMarker(take_from=cell):
            return (cell[0], cell[1])
        case c.Move(to=cell) | c.Relocate(to=cell) | c.Leap(to=cell):
            return (cell[0], cell[1])
        case c.UseLeap(to=cell) | c.UsePack(to=cell):
            return (cell[0], cell[1])
    return None


__all__ = ["target_cell"]
