"""A displaced hero chooses where to go (R-LOS-4: a landed-on hero, to a free ladder, else
stairs; R-TEL-4: a destroyed ladder's hero; R-COL-2: a fallen hero; R-COL-3, R-SET-3: a hero on
a centre a Strigoi takes). Nobody is ever left off the board."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.effects import settle_cell
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import cell_choices
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.state import GameState
from companion.engine.game.tasks import MarkerTask, RelocateTask


def choose_cell(rules: GameRules, em: Emitter, task: RelocateTask | MarkerTask, cmd: Any) -> None:
    """A relocation's place, or the fight marker to take (one of the task's cells)."""
    raw = cmd.take_from if isinstance(cmd, c.PlaceFightMarker) else cmd.to
    cell = (raw[0], raw[1])
    cells = cell_choices(rules, em.state, task)
    if cell not in cells:
        raise refuse(cmd, f"choose one of {[list(x) for x in cells]}")
    settle_cell(em, task, cell)


def one_place(rules: GameRules, em: Emitter, task: RelocateTask | MarkerTask) -> bool:
    """A single place (or none) needs nobody's choice."""
    cells = cell_choices(rules, em.state, task)
    if len(cells) > 1:
        return False
    if cells:
        settle_cell(em, task, cells[0])
    else:
        em.done()
    return True


def legal(rules: GameRules, state: GameState, task: RelocateTask) -> list[c.Command]:
    return [c.Relocate(hero=task.hero, to=cell) for cell in cell_choices(rules, state, task)]


RULE: TaskRule = TaskRule(
    kind=TaskKind.RELOCATE,
    task=RelocateTask,
    rules=("R-LOS-4", "R-TEL-4", "R-COL-2", "R-COL-3", "R-SET-3"),
    handlers={c.Relocate: choose_cell},
    legal=legal,
    moot=one_place,
)


__all__ = [
    "RULE",
    "choose_cell",
    "legal",
    "one_place",
]
