"""Protection against wounds (R-ABL Protection, R-LOS-2, R-ENC-2): each source blocks one wound;
what is not blocked is drawn as wound tokens (automatically, or entered when the table draws
them). Unprotectable wounds (a landing, a wound icon) are only taken."""

from __future__ import annotations

from itertools import combinations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.effects import spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.kinds import TaskKind
from companion.engine.game.queries import protection_sources, source_item
from companion.engine.game.rules.base import TaskRule
from companion.engine.game.rules.choices import once_each
from companion.engine.game.state import GameState
from companion.engine.game.tasks import ProtectTask, WoundDrawTask, WoundsTask


def protect(rules: GameRules, em: Emitter, task: ProtectTask, cmd: c.Protect) -> None:
    h = em.state.hero(cmd.hero)
    if cmd.sources and not task.protectable:
        raise refuse(cmd, "these wounds cannot be blocked")
    if len(cmd.sources) > task.wounds:
        raise refuse(
            cmd, f"only {task.wounds} {'wound' if task.wounds == 1 else 'wounds'} to block"
        )
    available = protection_sources(rules, h)
    items = [source_item(x) for x in cmd.sources if x != "card"]
    if len(items) != len(set(items)):
        raise refuse(cmd, "each card or token blocks one wound once")
    for source in cmd.sources:
        if source not in available:
            raise refuse(cmd, f"{source!r} offers no Protection to {cmd.hero}")
        available.remove(source)
    em.done()
    for source in cmd.sources:
        spend_ability(rules, em, cmd, cmd.hero, "protection", source)
    left = task.wounds - len(cmd.sources)
    if left:
        if "wound" in rules.options.physical:
            em.queue(WoundDrawTask(hero=cmd.hero, wounds=left, attacker=task.attacker))
        else:
            em.queue(WoundsTask(hero=cmd.hero, wounds=left, attacker=task.attacker))


def legal(rules: GameRules, state: GameState, task: ProtectTask) -> list[c.Command]:
    h = state.hero(task.hero)
    sources = protection_sources(rules, h) if task.protectable else []
    options = {()} | {
        tuple(sorted(combo))
        for k in range(1, min(task.wounds, len(sources)) + 1)
        for combo in combinations(sources, k)
        if once_each(combo)
    }
    return [c.Protect(hero=h.hero, sources=list(o)) for o in sorted(options)]


def nothing_to_block_with(rules: GameRules, em: Emitter, task: ProtectTask) -> bool:
    h = em.state.hero(task.hero)
    if task.protectable and protection_sources(rules, h):
        return False
    protect(rules, em, task, c.Protect(hero=h.hero, sources=[]))
    return True


RULE: TaskRule = TaskRule(
    kind=TaskKind.PROTECT,
    task=ProtectTask,
    rules=("R-WND-1", "R-ABL Protection", "R-LOS-2", "R-ENC-2"),
    handlers={c.Protect: protect},
    legal=legal,
    moot=nothing_to_block_with,
)


__all__ = [
    "RULE",
    "legal",
    "nothing_to_block_with",
    "protect",
]
