"""What the game waits for, in the players' words: one template per kind of task (translated
by the app's catalogs; Babel extracts the N_ marks). The engine's kinds are the keys, so a test
checks every kind of the registry has its text in every language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine.explain import N_, hero_name, strigoi_name
from companion.engine.game.kinds import TaskKind
from companion.engine.game.tasks import Task

#: placeholders: the task's fields ({hero}, {stack}, {token}, {wounds}, {strigoi})
TASK_TEXTS: Mapping[TaskKind, str] = {
    TaskKind.CHOOSE: N_("every player to choose a card"),
    TaskKind.START_TURN: N_("the next turn to start"),
    TaskKind.MOVE: N_("{hero} to move"),
    TaskKind.ENCOUNTER: N_("{hero} to draw a {stack} encounter token"),
    TaskKind.STEALTH_CHOICE: N_("{hero} to fight or leave {token}"),
    TaskKind.MONK: N_("{hero} to free or attack the monk"),
    TaskKind.FIGHT: N_("{hero} to fight {token}"),
    TaskKind.FIGHT_CHOICE: N_("{hero} to attack a Strigoi or skip the fight"),
    TaskKind.STRIGOI: N_("the Strigoi action token"),
    TaskKind.ABILITIES: N_("{hero} to use an ability or go on"),
    TaskKind.STRIGOI_RESOLVE: N_("{strigoi} to move and attack"),
    TaskKind.PROTECT: N_("{hero} to block up to {wounds} wound(s) with Protection"),
    TaskKind.WOUNDS: N_("{hero} to draw {wounds} wound token(s)"),
    TaskKind.WOUND_DRAW: N_("{hero} to enter the drawn wound token (physical, {wounds} left)"),
    TaskKind.SHOCK: N_("{hero} to discard a card for Shock"),
    TaskKind.COUNTERATTACK: N_("{hero} to counterattack {strigoi} or not"),
    TaskKind.RELOCATE: N_("{hero} to move to a ladder or stairs"),
    TaskKind.MARKER: N_("{hero} to take a fight marker from the board"),
    TaskKind.ESCAPE: N_("{hero} to Leap or fall with the platform"),
    TaskKind.REWARD_DRAW: N_("{hero} to enter the drawn {stack} (physical)"),
    TaskKind.END_TURN: N_("the end of the turn"),
    TaskKind.CURSE: N_("the curse"),
    TaskKind.END_ROUND: N_("the end of the round"),
}
#: when nothing is waiting
GAME_OVER = N_("nothing (game over)")


def _same(value: str) -> str:
    return value


def describe(
    task: Task | None,
    translate: Callable[[str], str] = N_,
    token: Callable[[str], str] = _same,
    stack: Callable[[str], str] = _same,
    templates: Mapping[TaskKind, str] = TASK_TEXTS,
) -> str:
    """The task in words: heroes and Strigoi by name; `translate` gives another language's
    template and Strigoi names, `token` and `stack` name tokens and stacks as printed."""
    if task is None:
        return translate(GAME_OVER)
    hero = task.hero
    found_token = getattr(task, "token", None)
    found_stack = getattr(task, "stack", None)
    found_strigoi = getattr(task, "strigoi", None)
    return translate(templates.get(task.kind, TASK_TEXTS[task.kind])).format(
        hero=hero_name(hero) if hero else hero,
        stack=stack(found_stack) if found_stack else found_stack,
        token=token(found_token) if found_token else found_token,
        wounds=getattr(task, "wounds", 0),
        strigoi=strigoi_name(found_strigoi, translate) if found_strigoi else found_strigoi,
    )


__all__ = ["GAME_OVER", "TASK_TEXTS", "describe"]
