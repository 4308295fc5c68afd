"""The rules of a whole game as a task interpreter.

`decide(rules, state, command)` checks the command against the task at the head of the state's
queue (or accepts a manual correction at any time), then runs the automatic tasks until the game
waits for a person again. Each kind of task is one module of `rules/` (see `registry`); this
loop only dispatches. `decide` never mutates `state`: it works on a copy, emitting events that
are applied to that copy as they are produced, and returns both. Replaying the returned events
on `state` gives the same copy (tested).
"""

from __future__ import annotations

from companion.engine.explain import N_
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import INFERNO_LOSES, GameRules
from companion.engine.game.corrections import correct
from companion.engine.game.emitter import Emitter, backup, clone, refuse, restore_state
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.registry import BY_TYPE
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task

#: how many automatic steps one command may run before the game is declared stuck (a bug)
SETTLE_LIMIT = 10_000


def summary(task: Task) -> str:
    """The task in the engine's own terms, for refusals and logs ("move (roel)"); the app
    words it for players (companion/app/words/wording.py)."""
    who = task.hero or ("every player" if task.kind == TaskKind.CHOOSE else "")
    return f"{task.kind} ({who})" if who else str(task.kind)


def decide(
    rules: GameRules, state: GameState, command: c.Command
) -> tuple[list[e.Event], GameState]:
    """Validate `command`, return its events and the state after them (`state` is untouched)."""
    work = clone(state)
    em = Emitter(work)
    _handle(rules, em, command)
    return em.events, work


def decide_in_place(
    rules: GameRules, state: GameState, command: c.Command, *, restore: bool = True
) -> list[e.Event]:
    """`decide` that advances `state` itself (no copy): for callers that keep no old state.

    A refused command leaves `state` exactly as it was (restored from an encoded backup), unless
    `restore` is False: for callers that drop the state after a refusal anyway (the simulator,
    for which refusing a listed legal command is a bug to report).
    """
    saved = backup(state) if restore else None
    em = Emitter(state)
    try:
        _handle(rules, em, command)
    except BaseException:
        if saved is not None:
            restore_state(state, saved)
        raise
    return em.events


def _handle(rules: GameRules, em: Emitter, command: c.Command) -> None:
    work = em.state
    if work.phase == Phase.OVER:
        raise refuse(command, f"the game is over ({work.winner} won)")
    if isinstance(command, c.CORRECTIONS):
        correct(rules, em, command)
    else:
        if not work.tasks:
            raise refuse(command, "the game waits for nothing")
        task = work.tasks[0]
        handler = BY_TYPE[type(task)].handlers.get(type(command))
        if handler is None:
            raise refuse(command, f"the game waits for {summary(task)}")
        who = getattr(command, "hero", None)
        if task.hero is not None and who != task.hero:
            raise refuse(command, f"it is {task.hero}'s decision: {summary(task)}")
        handler(rules, em, task, command)
    advance(rules, em)


def advance(rules: GameRules, em: Emitter) -> None:
    """Run automatic tasks and settle decisions nobody can take, until a person must act."""
    for _ in range(SETTLE_LIMIT):
        _check_victory(rules, em)
        state = em.state
        if state.phase == Phase.OVER or not state.tasks:
            return
        task = state.tasks[0]
        rule = BY_TYPE[type(task)]
        if rule.auto is not None:
            rule.auto(rules, em, task)
        elif rule.moot is None or not rule.moot(rules, em, task):
            return
    raise AssertionError("the game does not settle")


def _check_victory(rules: GameRules, em: Emitter) -> None:
    state = em.state
    if state.phase == Phase.OVER:
        return
    if state.inferno >= INFERNO_LOSES[state.players]:  # R-BLD-3
        em(e.GameOver(winner="strigoi", reason=N_("the Inferno is full")))
    elif "supreme" in state.destroyed:  # R-BLD-4
        em(e.GameOver(winner="heroes", reason=N_("the Supreme Strigoi is destroyed")))


__all__ = ["SETTLE_LIMIT", "advance", "decide", "decide_in_place", "summary"]
