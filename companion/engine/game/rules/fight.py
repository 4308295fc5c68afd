"""Phase 2b, a monster fight (R-ENC-1, R-ENC-2): card strength plus the rewards played against
the monster's; a win brings its rewards and blood, a loss one wound. Then the wound icon
(R-WND-3) and the fight marker (R-ENC-4)."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import (
    earn,
    fight_marker,
    gain_blood,
    reward,
    spend_rewards,
    wound_icon,
)
from companion.engine.game.emitter import Emitter
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import card_strength, encounter_token
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import fights
from companion.engine.game.rules.own_turn import (
    FIGHT_HANDLERS,
    fight_abilities,
    retrieval,
    retrievals,
)
from companion.engine.game.state import GameState
from companion.engine.game.tasks import AnyTask, FightTask, ProtectTask, StealthChoiceTask


def resolve_monster_fight(
    rules: GameRules, em: Emitter, task: FightTask | StealthChoiceTask, cmd: c.Fight
) -> None:
    """The fight itself, for a drawn monster or one fought after a Stealth peek."""
    hero, stack, token = cmd.hero, task.stack, task.token
    info = encounter_token(rules, stack, token)
    strength = card_strength(rules, em.state.hero(hero))
    strength += spend_rewards(rules, em, hero, cmd.rewards, False, cmd)
    em(e.TokenDiscarded(stack=stack, token=token))
    tasks: list[AnyTask] = []
    if strength >= info.strength:  # R-ENC-1
        for prize in info.rewards:
            if prize == "bat":
                reward(rules, em, hero, "reward_token", tasks)
            elif prize == "axe":
                reward(rules, em, hero, "reward_card", tasks)
            else:
                gain_blood(em, f"{hero} defeated {token}")
        earn(em, rules, hero, stack)
    else:  # R-ENC-2: monsters always deal exactly one wound
        tasks.append(ProtectTask(hero=hero, wounds=1, cause=token))
    wound_icon(rules, em, hero, tasks, cmd.rewards)
    fight_marker(rules, em, hero, tasks)


def fight(rules: GameRules, em: Emitter, task: FightTask, cmd: c.Fight) -> None:
    em.done()
    resolve_monster_fight(rules, em, task, cmd)


def legal(rules: GameRules, state: GameState, task: FightTask) -> list[c.Command]:
    h = state.hero(task.hero)
    return fights(rules, h) + retrievals(rules, h) + fight_abilities(rules, state, h)


RULE: TaskRule = TaskRule(
    kind=TaskKind.FIGHT,
    task=FightTask,
    rules=("R-ENC-1", "R-ENC-2", "R-ENC-4", "R-WND-3"),
    handlers={c.Fight: fight, c.UseRetrieval: retrieval, **FIGHT_HANDLERS},
    legal=legal,
)


__all__ = [
    "RULE",
    "fight",
    "legal",
    "resolve_monster_fight",
]
