"""Phase 2a, the move (R-MOV): stay, or end a move on a reachable space (Stealth passes a
Strigoi, R-MOV-4); an encounter space without a fight marker starts an encounter (R-MOV-2)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules, board_state
from companion.engine.game.effects import spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import ability_sources, move_options
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import stealth_sources
from companion.engine.game.rules.own_turn import TURN_HANDLERS, turn_abilities
from companion.engine.game.state import GameState
from companion.engine.game.tasks import EncounterTask, FightChoiceTask, MoveTask


def move(rules: GameRules, em: Emitter, task: MoveTask, cmd: c.Move | c.Stay) -> None:
    state = em.state
    h = state.hero(cmd.hero)
    em.done()
    if isinstance(cmd, c.Stay):
        em.queue(FightChoiceTask(hero=cmd.hero))
        return
    if cmd.stealth and cmd.source not in ability_sources(rules, h, "stealth"):
        raise refuse(cmd, f"{cmd.source!r} gives {cmd.hero} no stealth now")
    if tuple(cmd.to) not in move_options(rules, state, cmd.hero, cmd.stealth):
        raise refuse(cmd, f"{cmd.hero} cannot end a move on {list(cmd.to)}")
    if cmd.stealth:  # R-MOV-4: from the played card or anything else that shows it
        spend_ability(rules, em, cmd, cmd.hero, "stealth", cmd.source)
    to = (cmd.to[0], cmd.to[1])
    em(e.HeroMoved(hero=cmd.hero, to=to))
    feature = rules.fortress.feature(to, board_state(em.state))
    if feature in ("red", "grey") and to not in em.state.fight_markers:  # R-MOV-2
        em.queue(EncounterTask(hero=cmd.hero, stack=feature))
    else:
        em.queue(FightChoiceTask(hero=cmd.hero))


def legal(rules: GameRules, state: GameState, task: MoveTask) -> list[c.Command]:
    h = state.hero(task.hero)
    plain = move_options(rules, state, h.hero, False)
    found: list[c.Command] = [c.Stay(hero=h.hero)]
    found += [c.Move(hero=h.hero, to=cell) for cell in plain]
    stealth = stealth_sources(rules, h)
    if stealth:  # R-MOV-4: only the ends that need Stealth to pass a Strigoi
        sneaky = [x for x in move_options(rules, state, h.hero, True) if x not in plain]
        found += [
            c.Move(hero=h.hero, to=cell, stealth=True, source=source)
            for source in stealth
            for cell in sneaky
        ]
    return found + turn_abilities(rules, state, h)


RULE: TaskRule = TaskRule(
    kind=TaskKind.MOVE,
    task=MoveTask,
    rules=("R-MOV-1", "R-MOV-2", "R-MOV-3", "R-MOV-4", "R-MOV-5"),
    handlers={c.Move: move, c.Stay: move, **TURN_HANDLERS},
    legal=legal,
)


__all__ = [
    "RULE",
    "legal",
    "move",
]
