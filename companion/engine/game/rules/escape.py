"""A platform collapses under a hero (R-COL-2): Leap to a free space of the room (the played
card's Leap, or a card or token with Leap discarded), or fall: a blood point, then a ladder or
stairs of the player's choice."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import lose_blood, spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import leap_cells, leap_sources, relocate_task
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.state import GameState
from companion.engine.game.tasks import EscapeTask


def escape(rules: GameRules, em: Emitter, task: EscapeTask, cmd: Any) -> None:
    room = task.room
    if isinstance(cmd, c.Leap):  # R-COL-2
        to = (cmd.to[0], cmd.to[1])
        if to not in leap_cells(rules, em.state, room):
            raise refuse(cmd, f"{list(to)} is not a free space of {room}")
        spend_ability(rules, em, cmd, cmd.hero, "leap", cmd.source, discard=True)
        em(e.HeroMoved(hero=cmd.hero, to=to))
        em.done()
        return
    lose_blood(em, f"{cmd.hero} fell with the platform of {room}")
    relocate = relocate_task(rules, em.state, cmd.hero, ladders_first=False)
    em(e.TaskDone(kind=TaskKind.ESCAPE, then=[relocate]))
    em(e.HeroMoved(hero=cmd.hero, to=None))


def legal(rules: GameRules, state: GameState, task: EscapeTask) -> list[c.Command]:
    h = state.hero(task.hero)
    cells = leap_cells(rules, state, task.room)
    found: list[c.Command] = [c.Fall(hero=h.hero)]
    for source in dict.fromkeys(leap_sources(rules, h)):
        found += [c.Leap(hero=h.hero, to=cell, source=source) for cell in cells]
    return found


RULE: TaskRule = TaskRule(
    kind=TaskKind.ESCAPE,
    task=EscapeTask,
    rules=("R-COL-2", "R-ABL Leap", "R-BLD-1"),
    handlers={c.Leap: escape, c.Fall: escape},
    legal=legal,
)


__all__ = [
    "RULE",
    "escape",
    "legal",
]
