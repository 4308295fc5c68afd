"""Every kind of task and its module: the one list the interpreter dispatches on, the legal
commands come from, and the app's rules reference and texts are checked against."""

from __future__ import annotations

from companion.engine.game.kinds import TaskKind
from companion.engine.game.rules import (
    abilities,
    choose,
    counterattack,
    curse,
    encounter,
    end_round,
    end_turn,
    escape,
    fight,
    fight_choice,
    marker,
    monk,
    move,
    protect,
    relocate,
    reward_draw,
    shock,
    start_turn,
    stealth_choice,
    strigoi,
    strigoi_resolve,
    wound_draw,
    wounds,
)
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import Task

REGISTRY: dict[TaskKind, TaskRule] = {
    rule.kind: rule
    for rule in (
        choose.RULE,
        start_turn.RULE,
        move.RULE,
        encounter.RULE,
        stealth_choice.RULE,
        monk.RULE,
        fight.RULE,
        fight_choice.RULE,
        strigoi.RULE,
        abilities.RULE,
        strigoi_resolve.RULE,
        protect.RULE,
        wounds.RULE,
        wound_draw.RULE,
        shock.RULE,
        counterattack.RULE,
        relocate.RULE,
        marker.RULE,
        escape.RULE,
        reward_draw.RULE,
        end_turn.RULE,
        curse.RULE,
        end_round.RULE,
    )
}
#: the same, by task variant (the interpreter's lookup)
BY_TYPE: dict[type[Task], TaskRule] = {rule.task: rule for rule in REGISTRY.values()}


def rule_of(task: Task) -> TaskRule:
    return BY_TYPE[type(task)]


__all__ = ["BY_TYPE", "REGISTRY", "rule_of"]
