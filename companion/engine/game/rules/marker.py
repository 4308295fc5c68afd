"""All six fight markers are out (R-ENC-4): the hero takes one from elsewhere to their space."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import cell_choices
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.relocate import choose_cell, one_place
from companion.engine.game.state import GameState
from companion.engine.game.tasks import MarkerTask


def legal(rules: GameRules, state: GameState, task: MarkerTask) -> list[c.Command]:
    return [
        c.PlaceFightMarker(hero=task.hero, take_from=cell)
        for cell in cell_choices(rules, state, task)
    ]


RULE: TaskRule = TaskRule(
    kind=TaskKind.MARKER,
    task=MarkerTask,
    rules=("R-ENC-4",),
    handlers={c.PlaceFightMarker: choose_cell},
    legal=legal,
    moot=one_place,
)


__all__ = [
    "RULE",
    "legal",
]
