"""Phase 2b without a monster (R-HIT): attack a Strigoi in reach — melee next to it, ranged in
sight — with enough blood on the Altar (R-BLD-2), or skip. A wound on the Strigoi, its
destruction (R-HIT-3) or, on the Supreme, a collapse (R-COL-1)."""

from __future__ import annotations

from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import collapse_under, earn, spend_rewards, wound_icon
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import card_strength, strigoi_targets
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import reward_sets
from companion.engine.game.rules.own_turn import TURN_HANDLERS, turn_abilities
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AnyTask, CounterattackTask, FightChoiceTask


def attack_strigoi(
    rules: GameRules, em: Emitter, task: FightChoiceTask | CounterattackTask, cmd: Any
) -> None:
    """An attack on a Strigoi, or skipping it (a fight choice or a counterattack)."""
    if isinstance(cmd, c.SkipFight):
        em.done()
        return
    allowed = strigoi_targets(rules, em.state, cmd.hero)
    if (cmd.strigoi, cmd.mode) not in allowed:
        raise refuse(cmd, f"{cmd.hero} cannot attack {cmd.strigoi} in {cmd.mode} now")
    if isinstance(task, CounterattackTask) and cmd.strigoi != task.strigoi:
        raise refuse(cmd, f"a counterattack answers {task.strigoi}")
    em.done()
    em(e.FoughtThisTurn())
    hero = cmd.hero
    strength = card_strength(rules, em.state.hero(hero))
    strength += spend_rewards(rules, em, hero, cmd.rewards, cmd.mode == "ranged", cmd)
    tasks: list[AnyTask] = []
    values = rules.catalog.strigoi[cmd.strigoi]
    if strength >= values.strength:  # R-HIT-3
        em(e.StrigoiWounded(strigoi=cmd.strigoi, hero=hero))
        if em.state.strigoi_wounds[cmd.strigoi] >= values.existence:
            other = next((s for s in em.state.strigoi if s != cmd.strigoi), None)
            em(e.StrigoiDestroyed(strigoi=cmd.strigoi, supreme=other))
            earn(em, rules, hero, "destroyed_first_strigoi")
        elif cmd.strigoi == "supreme":
            collapse_under(rules, em, hero)
    wound_icon(rules, em, hero, tasks, cmd.rewards)
    if tasks:
        em.queue(*tasks)


def attacks(rules: GameRules, state: GameState, hero: str, only: str | None) -> list[c.Command]:
    """Skip, and every attack on a Strigoi in reach (`only`: that Strigoi)."""
    h = state.hero(hero)
    found: list[c.Command] = [c.SkipFight(hero=hero)]
    for name, mode in strigoi_targets(rules, state, hero):
        if only is not None and name != only:
            continue
        found += [
            c.AttackStrigoi(hero=hero, strigoi=name, mode=mode, rewards=r)  # type: ignore[arg-type]
            for r in reward_sets(rules, h, ranged=mode == "ranged")
        ]
    return found


def legal(rules: GameRules, state: GameState, task: FightChoiceTask) -> list[c.Command]:
    return attacks(rules, state, task.hero, None) + turn_abilities(
        rules, state, state.hero(task.hero)
    )


def nothing_to_attack(rules: GameRules, em: Emitter, task: FightChoiceTask) -> bool:
    if strigoi_targets(rules, em.state, task.hero):
        return False
    em.done()
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.FIGHT_CHOICE,
    task=FightChoiceTask,
    rules=("R-HIT-1", "R-HIT-2", "R-HIT-3", "R-HIT-4", "R-BLD-2", "R-COL-1"),
    handlers={c.AttackStrigoi: attack_strigoi, c.SkipFight: attack_strigoi, **TURN_HANDLERS},
    legal=legal,
    moot=nothing_to_attack,
)


__all__ = [
    "RULE",
    "attack_strigoi",
    "attacks",
    "legal",
    "nothing_to_attack",
]
