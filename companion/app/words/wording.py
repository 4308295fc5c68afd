"""What the game waits for, in words: one template per kind of task. The engine's kinds are the
keys, so a test checks every kind of the registry has its text in every language.

Two sets: `TASK_TEXTS`, short English phrases for logs and transcripts ("Roel to move"), and
`WAITING_TEXTS`, the whole sentences the players see and hear ("Waiting for Roel to move."),
translated by the app's catalogs (Babel extracts the N_ marks) and written per language as one
sentence each, never a phrase glued into another message."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine.explain import N_, Np_, Plural, english_plural, hero_name, the_strigoi
from companion.engine.game.kinds import TaskKind
from companion.engine.game.tasks import Task

#: the kinds whose text counts wounds: their singular and plural (English; logs and transcripts)
COUNTED_TASK_TEXTS: Mapping[TaskKind, tuple[str, str]] = {
    TaskKind.PROTECT: (
        "{hero} to block up to {wounds} wound with Protection",
        "{hero} to block up to {wounds} wounds with Protection",
    ),
    TaskKind.WOUNDS: (
        "{hero} to draw {wounds} wound token",
        "{hero} to draw {wounds} wound tokens",
    ),
}

#: placeholders: the task's fields ({hero}, {stack}, {token}, {wounds}, {strigoi}); a counted
#: kind's entry is its singular. English only: what the engine waits for in logs and transcripts
TASK_TEXTS: Mapping[TaskKind, str] = {
    TaskKind.CHOOSE: "every player to choose a card",
    TaskKind.START_TURN: "the next turn to start",
    TaskKind.MOVE: "{hero} to move",
    TaskKind.ENCOUNTER: "{hero} to draw a {stack} encounter token",
    TaskKind.STEALTH_CHOICE: "{hero} to fight or leave {token}",
    TaskKind.MONK: "{hero} to free or attack the monk",
    TaskKind.FIGHT: "{hero} to fight {token}",
    TaskKind.FIGHT_CHOICE: "{hero} to attack a Strigoi or skip the fight",
    TaskKind.STRIGOI: "the Strigoi action token",
    TaskKind.ABILITIES: "{hero} to use an ability or go on",
    TaskKind.STRIGOI_RESOLVE: "{strigoi} to move and attack",
    TaskKind.PROTECT: COUNTED_TASK_TEXTS[TaskKind.PROTECT][0],
    TaskKind.WOUNDS: COUNTED_TASK_TEXTS[TaskKind.WOUNDS][0],
    TaskKind.WOUND_DRAW: "{hero} to enter the drawn wound token (physical, {wounds} left)",
    TaskKind.SHOCK: "{hero} to discard a card for Shock",
    TaskKind.COUNTERATTACK: "{hero} to counterattack {strigoi} or not",
    TaskKind.RELOCATE: "{hero} to move to a ladder or stairs",
    TaskKind.MARKER: "{hero} to take a fight marker from the board",
    TaskKind.ESCAPE: "{hero} to Leap or fall with the platform",
    TaskKind.REWARD_DRAW: "{hero} to enter the drawn {stack} (physical)",
    TaskKind.END_TURN: "the end of the turn",
    TaskKind.CURSE: "the curse",
    TaskKind.END_ROUND: "the end of the round",
}
#: the players' sentences: the kinds whose sentence counts wounds (real plurals, never "(s)")
COUNTED_WAITING_TEXTS: Mapping[TaskKind, tuple[str, str]] = {
    TaskKind.PROTECT: Np_(
        "Waiting for {hero} to block up to {wounds} wound with Protection.",
        "Waiting for {hero} to block up to {wounds} wounds with Protection.",
    ),
    TaskKind.WOUNDS: Np_(
        "Waiting for {hero} to draw {wounds} wound token.",
        "Waiting for {hero} to draw {wounds} wound tokens.",
    ),
}

#: the players' sentences, one whole sentence per kind (same placeholders as TASK_TEXTS)
WAITING_TEXTS: Mapping[TaskKind, str] = {
    TaskKind.CHOOSE: N_("Waiting for every player to choose a card."),
    TaskKind.START_TURN: N_("Waiting for the next turn to start."),
    TaskKind.MOVE: N_("Waiting for {hero} to move."),
    TaskKind.ENCOUNTER: N_("Waiting for {hero} to draw a {stack} encounter token."),
    TaskKind.STEALTH_CHOICE: N_("Waiting for {hero} to fight or leave {token}."),
    TaskKind.MONK: N_("Waiting for {hero} to free or attack the monk."),
    TaskKind.FIGHT: N_("Waiting for {hero} to fight {token}."),
    TaskKind.FIGHT_CHOICE: N_("Waiting for {hero} to attack a Strigoi or skip the fight."),
    TaskKind.STRIGOI: N_("Waiting for the Strigoi action token."),
    TaskKind.ABILITIES: N_("Waiting for {hero} to use an ability or go on."),
    TaskKind.STRIGOI_RESOLVE: N_("Waiting for {strigoi} to move and attack."),
    TaskKind.PROTECT: COUNTED_WAITING_TEXTS[TaskKind.PROTECT][0],
    TaskKind.WOUNDS: COUNTED_WAITING_TEXTS[TaskKind.WOUNDS][0],
    TaskKind.WOUND_DRAW: N_(
        "Waiting for {hero} to enter the drawn wound token (physical, {wounds} left)."
    ),
    TaskKind.SHOCK: N_("Waiting for {hero} to discard a card for Shock."),
    TaskKind.COUNTERATTACK: N_("Waiting for {hero} to counterattack {strigoi} or not."),
    TaskKind.RELOCATE: N_("Waiting for {hero} to move to a ladder or stairs."),
    TaskKind.MARKER: N_("Waiting for {hero} to take a fight marker from the board."),
    TaskKind.ESCAPE: N_("Waiting for {hero} to Leap or fall with the platform."),
    TaskKind.REWARD_DRAW: N_("Waiting for {hero} to enter the drawn {stack} (physical)."),
    TaskKind.END_TURN: N_("Waiting for the end of the turn."),
    TaskKind.CURSE: N_("Waiting for the curse."),
    TaskKind.END_ROUND: N_("Waiting for the end of the round."),
}
#: when nothing is waiting
GAME_OVER = "nothing (game over)"
WAITING_GAME_OVER = N_("The game is over: nothing is waiting.")


def _same(value: str) -> str:
    return value


def describe(
    task: Task | None,
    translate: Callable[[str], str] = N_,
    token: Callable[[str], str] = _same,
    stack: Callable[[str], str] = _same,
    templates: Mapping[TaskKind, str] = TASK_TEXTS,
    plural: Plural = english_plural,
    counted_templates: Mapping[TaskKind, tuple[str, str]] = COUNTED_TASK_TEXTS,
    game_over: str = GAME_OVER,
) -> str:
    """The task in words: heroes and Strigoi by name; `translate` gives another language's
    template and Strigoi names, `token` and `stack` name tokens and stacks as printed, `plural`
    the form of a counted text (ngettext in the players' language); `templates`,
    `counted_templates` and `game_over` choose the set (WAITING_TEXTS for the players)."""
    if task is None:
        return translate(game_over)
    hero = task.hero
    found_token = getattr(task, "token", None)
    found_stack = getattr(task, "stack", None)
    found_strigoi = getattr(task, "strigoi", None)
    wounds = getattr(task, "wounds", 0)
    counted = counted_templates.get(task.kind)
    if counted is not None:
        template = plural(counted[0], counted[1], wounds if isinstance(wounds, int) else 2)
    else:
        template = translate(templates[task.kind])
    return template.format(
        hero=hero_name(hero) if hero else hero,
        stack=stack(found_stack) if found_stack else found_stack,
        token=token(found_token) if found_token else found_token,
        wounds=wounds,
        strigoi=the_strigoi(found_strigoi, translate) if found_strigoi else found_strigoi,
    )


def waiting_sentence(
    task: Task | None,
    translate: Callable[[str], str] = N_,
    token: Callable[[str], str] = _same,
    stack: Callable[[str], str] = _same,
    templates: Mapping[TaskKind, str] = WAITING_TEXTS,
    plural: Plural = english_plural,
) -> str:
    """What the game waits for as the players' whole sentence ("Waiting for Roel to move.")."""
    text = describe(
        task, translate, token, stack, templates, plural, COUNTED_WAITING_TEXTS, WAITING_GAME_OVER
    )
    return text[:1].upper() + text[1:]  # "the Master" may open it: "The Master moves now."


__all__ = [
    "COUNTED_TASK_TEXTS",
    "COUNTED_WAITING_TEXTS",
    "GAME_OVER",
    "TASK_TEXTS",
    "WAITING_GAME_OVER",
    "WAITING_TEXTS",
    "describe",
    "waiting_sentence",
]
