"""Commands: requests from the table (touch, NFC, buttons). Validated against the state by
`decide`; refused with a reason that quotes them, accepted ones yield events."""

from __future__ import annotations

from typing import Literal

import msgspec

from companion.engine.game.state import Cell


class Command(msgspec.Struct, tag_field="do", kw_only=True):
    """Base of every command (the tag names its kind)."""


class RewardPlay(msgspec.Struct):
    item: str  # a reward card in hand or a reward token
    mode: Literal["normal", "wild"] = "normal"


class ChooseCard(Command, tag="choose_card"):
    hero: str
    card: str


class Move(Command, tag="move"):
    hero: str
    to: Cell
    stealth: bool = False  # use Stealth to pass a Strigoi (R-MOV-4)
    #: where the Stealth comes from: "card" (the played card's icon), an action card discarded
    #: from the hand, "<reward card>:normal|wild" or a reward token (R-MOV-4)
    source: str = "card"


class Stay(Command, tag="stay"):
    hero: str


class Draw(Command, tag="draw"):
    """Draw the top token of the stack the game waits on (digital draw)."""

    hero: str
    #: at an encounter: Stealth from a source other than the played card (an action card
    #: discarded from the hand, a reward card or token), used before the flip (R-ENC-6)
    stealth: str | None = None


class EnterDraw(Command, tag="enter_draw"):
    """Physical-first: the table drew `token`; the engine checks it can be in the stack."""

    hero: str
    token: str
    stealth: str | None = None  # as for `Draw`


class Fight(Command, tag="fight"):
    hero: str
    rewards: list[RewardPlay] = []


class Proceed(Command, tag="proceed"):
    """No more abilities this turn: the Supreme Strigoi moves, or (no Strigoi on the board) the
    turn ends. Asked only when the hero could still use one after the fight (R-ABL "When")."""

    hero: str


class LeaveMonster(Command, tag="leave_monster"):
    """R-ENC-6: after a Stealth peek, leave the monster face up on its stack."""

    hero: str


class FreeMonk(Command, tag="free_monk"):
    hero: str


class AttackMonk(Command, tag="attack_monk"):
    hero: str


class AttackStrigoi(Command, tag="attack_strigoi"):
    hero: str
    strigoi: str
    mode: Literal["melee", "ranged"]
    rewards: list[RewardPlay] = []


class SkipFight(Command, tag="skip_fight"):
    hero: str


class Protect(Command, tag="protect"):
    """Block wounds: "card" (the played card's Protection), hand cards or reward tokens."""

    hero: str
    sources: list[str] = []


class DiscardForShock(Command, tag="discard_for_shock"):
    hero: str
    card: str


class Relocate(Command, tag="relocate"):
    hero: str
    to: Cell


class PlaceFightMarker(Command, tag="place_fight_marker"):
    hero: str
    take_from: Cell


class Leap(Command, tag="leap"):
    hero: str
    to: Cell
    source: str = "card"


class Fall(Command, tag="fall"):
    hero: str


class UseMechanics(Command, tag="use_mechanics"):
    hero: str
    room: str
    rotation: int
    source: str = "card"  # "card", "<reward card>:normal|wild", a reward token


class UseHeal(Command, tag="use_heal"):
    hero: str
    source: str = "card"
    #: the wound token each healed hero discards, by hero (the players choose, R-ABL Heal);
    #: a healed hero not named discards their oldest
    tokens: dict[str, str] = {}


class UseRecovery(Command, tag="use_recovery"):
    hero: str
    source: str = "card"


class UseGatesOfHell(Command, tag="use_gates_of_hell"):
    hero: str
    source: str = "card"


class UseRetrieval(Command, tag="use_retrieval"):
    hero: str
    card: str  # the reward card taken back from the own discard pile
    source: str = "card"


class UsePack(Command, tag="use_pack"):
    hero: str
    to: Cell
    source: str = "card"


class UseLeap(Command, tag="use_leap"):
    hero: str
    to: Cell
    source: str = "card"


class SwapRewards(Command, tag="swap_rewards"):
    """R-REW-3: heroes on adjacent spaces exchange reward cards (never action cards or tokens)."""

    hero: str
    other: str
    give: list[str] = []
    take: list[str] = []


class RebelDraw(Command, tag="rebel_draw"):
    """Nighttime Rebel leaves the game to draw a reward card (R-ADV-2)."""

    hero: str


# Manual corrections: the table's reality always wins (events like any other).
class SetHeroPosition(Command, tag="set_hero_position"):
    hero: str
    to: Cell | None


class SetStrigoiPosition(Command, tag="set_strigoi_position"):
    strigoi: str
    room: str


class SetBlood(Command, tag="set_blood"):
    altar: int
    inferno: int


class AddWound(Command, tag="add_wound"):
    hero: str
    token: str | None = None  # the token drawn at the table (required when wounds are physical)


class RemoveWound(Command, tag="remove_wound"):
    hero: str
    token: str


class SetRotation(Command, tag="set_rotation"):
    room: str
    rotation: int


# Set-up corrections: a part of the table as it is, each component taken from wherever it lies.
class SetCards(Command, tag="set_cards"):
    """A hero's hand (action, advanced and reward cards), discard pile, reward tokens and wound
    tokens as the table has them (None: unchanged)."""

    hero: str
    hand: list[str] | None = None
    discard: list[str] | None = None
    reward_tokens: list[str] | None = None
    wounds: list[str] | None = None


class SetFightMarkers(Command, tag="set_fight_markers"):
    cells: list[Cell]


class SetStrigoiWounds(Command, tag="set_strigoi_wounds"):
    strigoi: str
    wounds: int


class SetLadders(Command, tag="set_ladders"):
    """The ladders still standing."""

    ladders: list[str]


class SetFaceUp(Command, tag="set_face_up"):
    """The monster token left face up on an encounter stack (R-ENC-6), or none."""

    stack: Literal["red", "grey"]
    token: str | None


AnyCommand = (
    ChooseCard
    | Move
    | Stay
    | Draw
    | EnterDraw
    | Fight
    | Proceed
    | LeaveMonster
    | FreeMonk
    | AttackMonk
    | AttackStrigoi
    | SkipFight
    | Protect
    | DiscardForShock
    | Relocate
    | PlaceFightMarker
    | Leap
    | Fall
    | UseMechanics
    | UseHeal
    | UseRecovery
    | UseGatesOfHell
    | UseRetrieval
    | UsePack
    | UseLeap
    | SwapRewards
    | RebelDraw
    | SetHeroPosition
    | SetBlood
    | AddWound
    | RemoveWound
    | SetRotation
    | SetStrigoiPosition
    | SetCards
    | SetFightMarkers
    | SetStrigoiWounds
    | SetLadders
    | SetFaceUp
)
#: set-up corrections (transcripts' "set up" steps)
SET_UP = (SetCards, SetFightMarkers, SetStrigoiWounds, SetLadders, SetFaceUp)
CORRECTIONS = (
    SetHeroPosition,
    SetBlood,
    AddWound,
    RemoveWound,
    SetRotation,
    SetStrigoiPosition,
    *SET_UP,
)


def parse_command(data: object) -> AnyCommand:
    """A command from JSON-like data; raises msgspec.ValidationError naming the field."""
    command: AnyCommand = msgspec.convert(data, AnyCommand)
    return command


__all__ = [
    "CORRECTIONS",
    "SET_UP",
    "AddWound",
    "AnyCommand",
    "AttackMonk",
    "AttackStrigoi",
    "ChooseCard",
    "Command",
    "DiscardForShock",
    "Draw",
    "EnterDraw",
    "Fall",
    "Fight",
    "FreeMonk",
    "Leap",
    "LeaveMonster",
    "Move",
    "PlaceFightMarker",
    "Proceed",
    "Protect",
    "RebelDraw",
    "Relocate",
    "RemoveWound",
    "RewardPlay",
    "SetBlood",
    "SetCards",
    "SetFaceUp",
    "SetFightMarkers",
    "SetHeroPosition",
    "SetLadders",
    "SetRotation",
    "SetStrigoiPosition",
    "SetStrigoiWounds",
    "SkipFight",
    "Stay",
    "SwapRewards",
    "UseGatesOfHell",
    "UseHeal",
    "UseLeap",
    "UseMechanics",
    "UsePack",
    "UseRecovery",
    "UseRetrieval",
    "parse_command",
]
