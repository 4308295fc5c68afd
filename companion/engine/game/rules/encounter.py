"""Phase 2b, an encounter (R-ENC): the token of the space's colour is drawn (or entered when the
table draws it); Stealth from another source is used before the flip (R-ENC-6). A monk, a
Stealth peek or the fight follows; one encounter a turn (R-ENC-5)."""

from __future__ import annotations

import msgspec

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import draw_token, spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import EncounterStack, TaskKind
from companion.engine.game.queries import card_icons_left, encounter_token
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import draws, stealth_sources
from companion.engine.game.state import GameState
from companion.engine.game.tasks import EncounterTask, FightTask, MonkTask, StealthChoiceTask


def encounter(
    rules: GameRules, em: Emitter, task: EncounterTask, cmd: c.Draw | c.EnterDraw
) -> None:
    stack = task.stack
    physical = stack in rules.options.physical
    if isinstance(cmd, c.EnterDraw) != physical:
        how = "enter the physical token" if physical else "draw digitally"
        raise refuse(cmd, f"the {stack} stack is set to {how}")
    if cmd.stealth is not None:  # R-ENC-6: Stealth from another source, before the flip
        if task.monk:
            raise refuse(cmd, "the attacked monk's grey monster is fought as drawn (R-ENC-3)")
        if card_icons_left(rules, em.state.hero(cmd.hero), "stealth") > 0:
            raise refuse(cmd, "the played card's Stealth is used first, after the flip")
        if cmd.stealth == "card":
            raise refuse(cmd, "'card' gives no stealth now")
        spend_ability(rules, em, cmd, cmd.hero, "stealth", cmd.stealth)
    token = draw_token(em, rules, stack, cmd.token if isinstance(cmd, c.EnterDraw) else None)
    em.done()
    em(e.FoughtThisTurn())
    if token is None:  # nothing left to fight: the encounter is void
        return
    if task.monk:  # the attacked monk's grey monster is fought as drawn
        em.queue(FightTask(hero=cmd.hero, stack=stack, token=token))
        return
    after_flip(rules, em, cmd.hero, stack, token, spent=cmd.stealth is not None)


def after_flip(
    rules: GameRules, em: Emitter, hero: str, stack: EncounterStack, token: str, spent: bool
) -> None:
    """After the flip: with Stealth (the played card's icon, or `spent` from another source
    before the flip) the hero decides (R-ENC-6); without it, the monk or the fight."""
    h = em.state.hero(hero)
    info = encounter_token(rules, stack, token)
    card = not spent and card_icons_left(rules, h, "stealth") > 0
    if info.kind == "monk":
        if card:  # R-ABL Stealth: the monk's gift comes automatically
            em(e.AbilityUsed(hero=hero, ability="stealth"))
        if card or spent:
            em(e.HandRecovered(hero=hero))
        em.queue(MonkTask(hero=hero, stack=stack, token=token))
    elif card or spent:
        em.queue(StealthChoiceTask(hero=hero, stack=stack, token=token, spent=spent))
    else:
        em.queue(FightTask(hero=hero, stack=stack, token=token))


def legal(rules: GameRules, state: GameState, task: EncounterTask) -> list[c.Command]:
    h = state.hero(task.hero)
    found = draws(rules, state, h.hero, task.stack)
    if task.monk or card_icons_left(rules, h, "stealth") > 0:
        return found
    # R-ENC-6: Stealth from a discarded card, a reward card or token, chosen before the flip
    others = [x for x in stealth_sources(rules, h) if x != "card"]
    return found + [
        msgspec.structs.replace(draw, stealth=source) for source in others for draw in found
    ]


RULE: TaskRule = TaskRule(
    kind=TaskKind.ENCOUNTER,
    task=EncounterTask,
    rules=("R-ENC-1", "R-ENC-5", "R-ENC-6", "R-MOV-2"),
    handlers={c.Draw: encounter, c.EnterDraw: encounter},
    legal=legal,
)


__all__ = [
    "RULE",
    "after_flip",
    "encounter",
    "legal",
]
