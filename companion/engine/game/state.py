"""Game state: plain msgspec structs so a snapshot is one fast JSON encode. Only `apply` mutates."""

from __future__ import annotations

import msgspec

from companion.engine.game.kinds import STACKS, Phase, StackName, Winner
from companion.engine.game.tasks import AnyTask, Cell
from companion.errors import UnknownName


class Stack(msgspec.Struct):
    draw: list[str] = []  # top of the stack is the end of the list
    discard: list[str] = []
    face_up: str | None = None  # a monster left on top after a Stealth peek (R-ENC-6)
    in_play: list[str] = []  # drawn and not yet discarded or handed out
    physical: bool = False  # the table draws real tokens and enters what came up


class HeroState(msgspec.Struct):
    hero: str
    seat: int
    at: Cell | None
    hand: list[str]
    discard: list[str] = []
    played: list[str] = []  # cards played or discarded this round (R-RND-4)
    chosen: str | None = None  # the card chosen for this round; secret until all have chosen
    wounds: list[str] = []
    reward_cards: list[str] = []
    reward_tokens: list[str] = []
    rewards_used: list[str] = []  # reward cards used normally this round (discarded at round end)
    advanced: list[str] = []  # advanced card ids earned (R-ADV)
    pending: list[str] = []  # earned this turn: joins the hand at the end of the turn (R-ADV)
    used: list[str] = []  # ability icons of the played card already used this round
    defeated: int = 0


class GameState(msgspec.Struct):
    seed: int
    players: int
    heroes: list[HeroState]
    rotations: dict[str, int]
    collapsed: list[str] = []
    ladders: list[str] = []
    strigoi: dict[str, str] = {}  # on the board: name -> room
    strigoi_wounds: dict[str, int] = {}
    destroyed: list[str] = []
    supreme: str | None = None  # the card flipped to its Supreme side (R-HIT-3)
    attack_marker: bool = False
    stacks: dict[StackName, Stack] = {}
    fight_markers: list[Cell] = []
    supply: int = 14
    altar: int = 0
    inferno: int = 0
    advanced_left: list[str] = []
    removed: list[str] = []  # components out of the game (wild-used reward cards, R-REW-1)
    round: int = 1
    phase: Phase = Phase.INITIATIVE
    turn_order: list[str] = []
    active: int = 0
    fought: bool = False  # the active hero had their one fight this turn (R-ENC-5, R-HIT-4)
    tasks: list[AnyTask] = []
    draws: int = 0  # random draws made so far: the next comes from Random(f"{seed}:{draws}")
    winner: Winner | None = None
    firsts: list[str] = []  # R-ADV events already happened ("red", "grey", "wounded", ...)
    event_count: int = 0

    def hero(self, name: str) -> HeroState:
        for h in self.heroes:
            if h.hero == name:
                return h
        raise UnknownName(f"{name!r} is not playing")

    @property
    def active_hero(self) -> str | None:
        return self.turn_order[self.active] if self.phase == Phase.TURNS else None


__all__ = ["STACKS", "Cell", "GameState", "HeroState", "Stack"]
