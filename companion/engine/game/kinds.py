"""The closed vocabularies of a game: kinds of task, phases, stacks (python-chess's habit of a
typed name for every concept). `StrEnum` members are their strings, so the log's JSON and
comparisons with plain strings stay as they were."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class TaskKind(StrEnum):
    """One kind of thing the game waits for or does next; each has one module in `rules/`."""

    CHOOSE = "choose"
    START_TURN = "start_turn"
    MOVE = "move"
    ENCOUNTER = "encounter"
    STEALTH_CHOICE = "stealth_choice"
    MONK = "monk"
    FIGHT = "fight"
    FIGHT_CHOICE = "fight_choice"
    STRIGOI = "strigoi"
    ABILITIES = "abilities"
    STRIGOI_RESOLVE = "strigoi_resolve"
    PROTECT = "protect"
    WOUNDS = "wounds"
    WOUND_DRAW = "wound_draw"
    SHOCK = "shock"
    COUNTERATTACK = "counterattack"
    RELOCATE = "relocate"
    MARKER = "marker"
    ESCAPE = "escape"
    REWARD_DRAW = "reward_draw"
    END_TURN = "end_turn"
    CURSE = "curse"
    END_ROUND = "end_round"


class Phase(StrEnum):
    """R-RND: initiative, the heroes' turns, the curse (phase 3); `over` once someone won."""

    INITIATIVE = "initiative"
    TURNS = "turns"
    CURSE = "curse"
    OVER = "over"


#: The stacks of tokens and cards the game draws from (R-CMP).
StackName = Literal["red", "grey", "strigoi", "wound", "reward_token", "reward_card"]
STACKS: tuple[StackName, ...] = ("red", "grey", "strigoi", "wound", "reward_token", "reward_card")
#: The encounter stacks (R-ENC): red and grey monsters.
EncounterStack = Literal["red", "grey"]
#: The reward stacks (R-REW): bat tokens and axe cards.
RewardStack = Literal["reward_token", "reward_card"]
#: Stacks whose discards are shuffled into a new draw pile when empty (never the reward cards,
#: R-REW-1).
REFILLABLE: frozenset[str] = frozenset({"red", "grey", "strigoi", "wound", "reward_token"})
#: Who won (R-BLD-3, R-BLD-4).
Winner = Literal["heroes", "strigoi"]

__all__ = [
    "REFILLABLE",
    "STACKS",
    "EncounterStack",
    "Phase",
    "RewardStack",
    "StackName",
    "TaskKind",
    "Winner",
]
