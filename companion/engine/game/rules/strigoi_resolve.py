"""A Strigoi's step (R-TEL, R-LOS), computed by the fortress engine from the active card's
letter and the token's bonus: teleport, a destroyed ladder, blood lost, the attack and its
marker; displaced heroes are asked where to go, the attacked one may counterattack."""

from __future__ import annotations

from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import lose_blood
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import relocate_task, strigoi_step_now
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.tasks import AnyTask, CounterattackTask, ProtectTask, StrigoiResolveTask


def strigoi_resolve(rules: GameRules, em: Emitter, task: StrigoiResolveTask) -> None:
    em.done()
    name = task.strigoi
    step = strigoi_step_now(rules, em.state, name, task.bonus)
    if step is None:
        return
    attack = step.attack
    tasks: list[AnyTask] = []
    if attack is not None:
        tasks.append(
            ProtectTask(
                hero=attack.hero,
                wounds=attack.wounds,
                protectable=attack.protectable,
                attacker=name,
            )
        )
    # R-LOS-4: a landed-on hero goes to a free ladder (else stairs); R-TEL-4: a destroyed ladder's
    # hero to any free ladder or stairs. Placed before the counterattack, which the R-LOS-4
    # Decision allows from the new space.
    ladders_first = step.ladder_destroyed is None
    tasks += [relocate_task(rules, em.state, x, ladders_first) for x in step.relocate]
    if attack is not None:
        tasks.append(CounterattackTask(hero=attack.hero, strigoi=name))
    if tasks:  # asked first: no state shows a hero off the board that nobody is asked to place
        em.queue(*tasks)
    for hero in step.relocate:  # off the board until placed: never two figures on a space
        em(e.HeroMoved(hero=hero, to=None))
    if step.teleport.moved:
        em(e.StrigoiMoved(strigoi=name, room=step.teleport.to))
    if step.ladder_destroyed is not None:
        em(e.LadderDestroyed(ladder=step.ladder_destroyed))
    for _ in range(step.blood_lost):
        lose_blood(em, f"{name}'s step")
    if attack is not None:
        em(
            e.StrigoiAttacked(
                strigoi=name,
                hero=attack.hero,
                wounds=attack.wounds,
                protectable=attack.protectable,
                distance=attack.distance,
            )
        )
        em(e.AttackMarker(on=True))  # R-LOS-3


RULE: TaskRule = TaskRule(
    kind=TaskKind.STRIGOI_RESOLVE,
    task=StrigoiResolveTask,
    rules=(
        "R-TEL-2",
        "R-TEL-3",
        "R-TEL-4",
        "R-TEL-5",
        "R-TEL-6",
        "R-TEL-7",
        "R-TEL-8",
        "R-LOS-1",
        "R-LOS-2",
        "R-LOS-3",
        "R-LOS-4",
    ),
    auto=strigoi_resolve,
)


__all__ = [
    "RULE",
    "strigoi_resolve",
]
