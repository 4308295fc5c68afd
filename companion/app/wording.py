"""What the game waits for, in the players' words: one template per kind of task (translated
by the app's catalogs; Babel extracts the N_ marks). The engine's kinds are the keys, so a test
checks every kind of the registry has its text in every language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine.explain import N_, Np_, Plural, english_plural, hero_name, strigoi_name
from companion.engine.game.kinds import TaskKind
from companion.engine.game.tasks import Task

#: the kinds whose text counts wounds: their singular and plural (real plurals, never "(s)")
COUNTED_TASK_TEXTS: Mapping[TaskKind, tuple[str, str]] = {
    TaskKind.PROTECT: Np_(
        "{hero} to block up to {wounds} wound with Protection",
        "{hero} to block up to {wounds} wounds with Protection",
    ),
    TaskKind.WOUNDS: Np_(
        "{hero} to draw {wounds} wound token", "{hero} to draw {wounds} wound tokens"
    ),
}

#: placeholders: the task's fields ({hero}, {stack}, {token}, {wounds}, {strigoi}); a counted
#: kind's entry is its singular (the catalogs hold both forms under it)
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
    TaskKind.PROTECT: COUNTED_TASK_TEXTS[TaskKind.PROTECT][0],
    TaskKind.WOUNDS: COUNTED_TASK_TEXTS[TaskKind.WOUNDS][0],
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
    plural: Plural = english_plural,
) -> str:
    """The task in words: heroes and Strigoi by name; `translate` gives another language's
    template and Strigoi names, `token` and `stack` name tokens and stacks as printed, `plural`
    the form of a counted text (ngettext in the players' language)."""
    if task is None:
        return translate(GAME_OVER)
    hero = task.hero
    found_token = getattr(task, "token", None)
    found_stack = getattr(task, "stack", None)
    found_strigoi = getattr(task, "strigoi", None)
    wounds = getattr(task, "wounds", 0)
    counted = COUNTED_TASK_TEXTS.get(task.kind)
    if counted is not None:
        template = plural(counted[0], counted[1], wounds if isinstance(wounds, int) else 2)
    else:
        template = translate(templates.get(task.kind, TASK_TEXTS[task.kind]))
    return template.format(
        hero=hero_name(hero) if hero else hero,
        stack=stack(found_stack) if found_stack else found_stack,
        token=token(found_token) if found_token else found_token,
        wounds=wounds,
        strigoi=strigoi_name(found_strigoi, translate) if found_strigoi else found_strigoi,
    )


__all__ = ["COUNTED_TASK_TEXTS", "GAME_OVER", "TASK_TEXTS", "describe"]
