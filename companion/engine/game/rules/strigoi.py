"""Phase 2c (R-TEL-1): the active hero flips the Strigoi action token (or enters the one the
table flipped); the Strigoi it names steps. No token while the Supreme is in play, or while no
Strigoi is on the board: then the hero may still use abilities before going on."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import draw_token, supreme_steps
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import draws
from companion.engine.game.rules.own_turn import (
    ACTIVE_TURN_HANDLERS,
    abilities_left,
    turn_abilities,
)
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AbilitiesTask, StrigoiResolveTask, StrigoiTask


def strigoi_token(rules: GameRules, em: Emitter, task: StrigoiTask, cmd: Any) -> None:
    if cmd.hero != em.state.active_hero:
        raise refuse(cmd, f"{em.state.active_hero} draws the Strigoi token")
    if cmd.stealth is not None:
        raise refuse(cmd, "Stealth is for encounters (R-ENC-6)")
    if "supreme" in em.state.strigoi or not em.state.strigoi:
        raise refuse(cmd, "no Strigoi action token is drawn now (R-TEL-1)")
    physical = "strigoi" in rules.options.physical
    if isinstance(cmd, c.EnterDraw) != physical:
        raise refuse(cmd, "the strigoi stack is set to " + ("physical" if physical else "digital"))
    token = draw_token(em, rules, "strigoi", cmd.token if isinstance(cmd, c.EnterDraw) else None)
    em.done()
    if token is None:
        return
    em(e.TokenDiscarded(stack="strigoi", token=token))
    info = rules.catalog.strigoi_token(token)
    if info.strigoi in em.state.strigoi:
        em.queue(StrigoiResolveTask(strigoi=info.strigoi, bonus=info.bonus))


def legal(rules: GameRules, state: GameState, task: StrigoiTask) -> list[c.Command]:
    active = state.hero(state.active_hero or "")
    abilities = turn_abilities(rules, state, active)  # R-ABL "When": until the flip
    return draws(rules, state, active.hero, "strigoi") + abilities


def no_token(rules: GameRules, em: Emitter, task: StrigoiTask) -> bool:
    """No token to draw (R-TEL-1): the Supreme moves, or no Strigoi is on the board."""
    state = em.state
    if state.strigoi and "supreme" not in state.strigoi:
        return False  # the token is drawn by a person
    em.done()
    active = state.active_hero
    if active is not None and abilities_left(rules, state):  # R-ABL "When": abilities first
        em.queue(AbilitiesTask(hero=active))
    else:
        supreme_steps(em)
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.STRIGOI,
    task=StrigoiTask,
    rules=("R-TEL-1",),
    handlers={c.Draw: strigoi_token, c.EnterDraw: strigoi_token, **ACTIVE_TURN_HANDLERS},
    legal=legal,
    moot=no_token,
)


__all__ = [
    "RULE",
    "legal",
    "no_token",
    "strigoi_token",
]
