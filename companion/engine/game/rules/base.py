"""What a kind of task module provides (`TaskRule`) and the shapes of its functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task

#: applies a command to the task at the head of the queue (or refuses it): (rules, em, task, cmd)
Handler = Callable[[GameRules, Emitter, Any, Any], None]
#: every legal command for the task: (rules, state, task)
Generator = Callable[[GameRules, GameState, Any], list[c.Command]]
#: runs an automatic task: (rules, em, task)
Automatic = Callable[[GameRules, Emitter, Any], None]
#: settles a decision nobody needs to take (one possible answer, or none); True when it did
Moot = Callable[[GameRules, Emitter, Any], bool]


def no_commands(rules: GameRules, state: GameState, task: Task) -> list[c.Command]:
    """The generator of an automatic task: it never waits for anyone."""
    return []


@dataclass(frozen=True)
class TaskRule:
    """One kind of task: what applies a command to it, what lists the legal ones, the rules."""

    kind: TaskKind
    task: type[Task]
    #: the numbered rules (RULES.md) this kind applies; the first names its section
    rules: tuple[str, ...]
    #: the command types a person may give while this task waits, and what applies each
    handlers: Mapping[type[c.Command], Handler] = field(default_factory=dict)
    legal: Generator = no_commands
    #: automatic tasks run without a command
    auto: Automatic | None = None
    moot: Moot | None = None

    @property
    def section(self) -> str:
        """The RULES.md section of this kind ("R-MOV" for R-MOV-1...)."""
        return "-".join(self.rules[0].split(" ")[0].split("-")[:2])


__all__ = ["Automatic", "Generator", "Handler", "Moot", "TaskRule", "no_commands"]
