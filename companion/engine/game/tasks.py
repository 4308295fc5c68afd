"""What the game waits for or must do next: one typed variant per kind of task.

A task is a msgspec struct tagged by its kind (`{"kind": "move", "hero": "roel"}` in the log);
each variant carries only what its kind needs, under names that say what it is. `hero` is on
every task: the hero who decides, or None when nobody (an automatic task) or everybody (the
initiative choice) does.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from companion.engine.game.kinds import EncounterStack, RewardStack, TaskKind

Cell = tuple[int, int]


class Task(msgspec.Struct, tag_field="kind", kw_only=True):
    """Base of every task variant; `kind` names the variant (and its module in `rules/`)."""

    kind: ClassVar[TaskKind]
    hero: str | None = None


class ChooseTask(Task, tag="choose"):
    """R-RND-1: every player chooses a card, secretly."""

    kind = TaskKind.CHOOSE


class StartTurnTask(Task, tag="start_turn"):
    """Automatic: the active hero's turn begins (move, Strigoi token, end of turn)."""

    kind = TaskKind.START_TURN


class MoveTask(Task, tag="move"):
    kind = TaskKind.MOVE
    hero: str


class EncounterTask(Task, tag="encounter"):
    """R-ENC: draw (or enter) a token of `stack`; `monk`: the grey monster an attacked monk
    turns into (R-ENC-3), fought as drawn."""

    kind = TaskKind.ENCOUNTER
    hero: str
    stack: EncounterStack
    monk: bool = False


class StealthChoiceTask(Task, tag="stealth_choice"):
    """R-ENC-6: after a Stealth peek, fight `token` or leave it face up; `spent`: the Stealth
    came from another source before the flip (the played card's icon is used on the choice)."""

    kind = TaskKind.STEALTH_CHOICE
    hero: str
    stack: EncounterStack
    token: str
    spent: bool = False


class MonkTask(Task, tag="monk"):
    """R-ENC-3: free the monk or attack him."""

    kind = TaskKind.MONK
    hero: str
    stack: EncounterStack
    token: str


class FightTask(Task, tag="fight"):
    """R-ENC-1: fight the monster `token` drawn from `stack`."""

    kind = TaskKind.FIGHT
    hero: str
    stack: EncounterStack
    token: str


class FightChoiceTask(Task, tag="fight_choice"):
    """R-HIT: attack a Strigoi in reach, or skip the fight."""

    kind = TaskKind.FIGHT_CHOICE
    hero: str


class StrigoiTask(Task, tag="strigoi"):
    """R-TEL-1: the active hero draws the Strigoi action token."""

    kind = TaskKind.STRIGOI


class AbilitiesTask(Task, tag="abilities"):
    """R-ABL "When": no token is drawn, but the hero may still use an ability (then Proceed)."""

    kind = TaskKind.ABILITIES
    hero: str


class StrigoiResolveTask(Task, tag="strigoi_resolve"):
    """Automatic: the step of `strigoi` with the token's `bonus` damage (R-TEL, R-LOS)."""

    kind = TaskKind.STRIGOI_RESOLVE
    strigoi: str
    bonus: int = 0


class ProtectTask(Task, tag="protect"):
    """R-ABL Protection: block up to `wounds` wounds (none when not `protectable`). `attacker`:
    the Strigoi behind them (R-ADV, counterattacks); `cause`: the monster token, or
    "wound_icon" for the hero's own weapon (R-WND-3)."""

    kind = TaskKind.PROTECT
    hero: str
    wounds: int
    protectable: bool = True
    attacker: str | None = None
    cause: str | None = None


class WoundsTask(Task, tag="wounds"):
    """Automatic: draw one wound token per unblocked wound (R-WND-1, R-WND-2)."""

    kind = TaskKind.WOUNDS
    hero: str
    wounds: int
    attacker: str | None = None


class WoundDrawTask(Task, tag="wound_draw"):
    """The table draws the wound tokens (physical): one entered at a time, `wounds` left."""

    kind = TaskKind.WOUND_DRAW
    hero: str
    wounds: int
    attacker: str | None = None


class ShockTask(Task, tag="shock"):
    """R-WND-1 Shock: discard a hand card, or block it with one Protection."""

    kind = TaskKind.SHOCK
    hero: str


class CounterattackTask(Task, tag="counterattack"):
    """R-LOS-4 Decision: the attacked hero may counterattack `strigoi`."""

    kind = TaskKind.COUNTERATTACK
    hero: str
    strigoi: str


class RelocateTask(Task, tag="relocate"):
    """A displaced hero chooses one of `cells` (R-LOS-4, R-TEL-4, R-COL-2, R-COL-3)."""

    kind = TaskKind.RELOCATE
    hero: str
    cells: list[Cell] = []


class MarkerTask(Task, tag="marker"):
    """R-ENC-4: all six fight markers are out: take one of `cells` to the hero's space."""

    kind = TaskKind.MARKER
    hero: str
    cells: list[Cell] = []


class EscapeTask(Task, tag="escape"):
    """R-COL-2: the platform of `room` collapses under the hero: Leap or fall."""

    kind = TaskKind.ESCAPE
    hero: str
    room: str


class RewardDrawTask(Task, tag="reward_draw"):
    """The table draws a reward from `stack` (physical) and enters it."""

    kind = TaskKind.REWARD_DRAW
    hero: str
    stack: RewardStack


class EndTurnTask(Task, tag="end_turn"):
    """Automatic: earned cards join the hand; the next turn, or phase 3 (R-RND-3)."""

    kind = TaskKind.END_TURN


class CurseTask(Task, tag="curse"):
    """Automatic: the curse of phase 3 (R-CUR)."""

    kind = TaskKind.CURSE


class EndRoundTask(Task, tag="end_round"):
    """Automatic: cards back, a new round, the Strigoi placed in round 2 (R-RND-4, R-SET-3)."""

    kind = TaskKind.END_ROUND


AnyTask = (
    ChooseTask
    | StartTurnTask
    | MoveTask
    | EncounterTask
    | StealthChoiceTask
    | MonkTask
    | FightTask
    | FightChoiceTask
    | StrigoiTask
    | AbilitiesTask
    | StrigoiResolveTask
    | ProtectTask
    | WoundsTask
    | WoundDrawTask
    | ShockTask
    | CounterattackTask
    | RelocateTask
    | MarkerTask
    | EscapeTask
    | RewardDrawTask
    | EndTurnTask
    | CurseTask
    | EndRoundTask
)
#: every variant by its kind
TASK_TYPES: dict[TaskKind, type[Task]] = {t.kind: t for t in AnyTask.__args__}

__all__ = [
    "TASK_TYPES",
    "AbilitiesTask",
    "AnyTask",
    "Cell",
    "ChooseTask",
    "CounterattackTask",
    "CurseTask",
    "EncounterTask",
    "EndRoundTask",
    "EndTurnTask",
    "EscapeTask",
    "FightChoiceTask",
    "FightTask",
    "MarkerTask",
    "MonkTask",
    "MoveTask",
    "ProtectTask",
    "RelocateTask",
    "RewardDrawTask",
    "ShockTask",
    "StartTurnTask",
    "StealthChoiceTask",
    "StrigoiResolveTask",
    "StrigoiTask",
    "Task",
    "WoundDrawTask",
    "WoundsTask",
]
