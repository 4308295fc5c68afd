"""Events: facts appended to the log. `apply` folds each into the state; nothing else mutates it.

Every event carries what it changed (drawn token ids, cells, rooms), so replaying the log needs
neither the random generator nor the rules.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from companion.engine.game.kinds import Phase, RewardStack, StackName, TaskKind, Winner
from companion.engine.game.state import Cell, GameState
from companion.engine.game.tasks import AnyTask

BloodPlace = Literal["supply", "altar", "inferno"]


class Event(msgspec.Struct, tag_field="event", kw_only=True):
    """Base of every event (the tag names its kind)."""


class GameStarted(Event, tag="game_started"):
    state: GameState  # the complete initial state: heroes, shuffled stacks, ladders, seed


class CardChosen(Event, tag="card_chosen"):
    hero: str
    card: str  # secret until CardsRevealed: `public()` hides it


class CardsRevealed(Event, tag="cards_revealed"):
    order: list[str]


class PhaseChanged(Event, tag="phase_changed"):
    phase: Phase
    round: int
    active: int = 0


class StrigoiPlaced(Event, tag="strigoi_placed"):
    strigoi: str
    room: str


class HeroMoved(Event, tag="hero_moved"):
    hero: str
    to: Cell | None
    manual: bool = False


class TokenDrawn(Event, tag="token_drawn"):
    stack: StackName
    token: str


class TokenDiscarded(Event, tag="token_discarded"):
    stack: StackName
    token: str


class TokenLeftFaceUp(Event, tag="token_left_face_up"):
    stack: StackName
    token: str


class StackReshuffled(Event, tag="stack_reshuffled"):
    stack: StackName
    order: list[str]


class RewardTaken(Event, tag="reward_taken"):
    hero: str
    stack: RewardStack
    item: str


class RewardSpent(Event, tag="reward_spent"):
    hero: str
    item: str
    kind: Literal["token", "card"]
    mode: Literal["normal", "wild"] = "normal"


class BloodMoved(Event, tag="blood_moved"):
    source: BloodPlace
    target: BloodPlace
    reason: str = ""


class BloodSet(Event, tag="blood_set"):
    altar: int
    inferno: int


class FightMarkerPlaced(Event, tag="fight_marker_placed"):
    cell: Cell
    taken_from: Cell | None = None


class CardPlayed(Event, tag="card_played"):
    """A card leaves the hand for this round's played cards (Protection, Shock, Stealth...)."""

    hero: str
    card: str
    reason: str


class AbilityUsed(Event, tag="ability_used"):
    hero: str
    ability: str


class WoundTaken(Event, tag="wound_taken"):
    hero: str
    token: str


class WoundRemoved(Event, tag="wound_removed"):
    hero: str
    token: str


class HeroDefeated(Event, tag="hero_defeated"):
    """R-WND-2: third wound: every wound token goes back, the hero is whole again."""

    hero: str
    tokens: list[str]


class HandRecovered(Event, tag="hand_recovered"):
    hero: str


class AdvancedEarned(Event, tag="advanced_earned"):
    hero: str
    card: str
    first: str  # the R-ADV milestone it marks ("red", "grey", "wounded", ...)


class CardRemoved(Event, tag="card_removed"):
    """A card leaves the game: Destruction after use, Nighttime Rebel's draw."""

    hero: str
    card: str


class FightMarkersCleared(Event, tag="fight_markers_cleared"):
    """Gates of Hell: every encounter space is active again."""


class CardRetrieved(Event, tag="card_retrieved"):
    hero: str
    card: str


class RewardCardsSwapped(Event, tag="reward_cards_swapped"):
    hero: str
    other: str
    give: list[str]
    take: list[str]


class AdvancedJoined(Event, tag="advanced_joined"):
    """End of the earning turn: the earned advanced cards join the hand (R-ADV)."""

    hero: str


class MilestoneReached(Event, tag="milestone_reached"):
    first: str


class StrigoiMoved(Event, tag="strigoi_moved"):
    strigoi: str
    room: str


class LadderDestroyed(Event, tag="ladder_destroyed"):
    ladder: str


class AttackMarker(Event, tag="attack_marker"):
    on: bool


class StrigoiAttacked(Event, tag="strigoi_attacked"):
    strigoi: str
    hero: str
    wounds: int
    protectable: bool
    distance: int


class CurseCast(Event, tag="curse_cast"):
    strigoi: str
    room: str
    heroes: list[str]


class StrigoiWounded(Event, tag="strigoi_wounded"):
    strigoi: str
    hero: str


class StrigoiDestroyed(Event, tag="strigoi_destroyed"):
    strigoi: str
    supreme: str | None  # the other card, flipped to the Supreme (R-HIT-3)


class PlatformCollapsed(Event, tag="platform_collapsed"):
    room: str


class PlatformRotated(Event, tag="platform_rotated"):
    room: str
    rotation: int
    #: heroes on the platform, turned with it: (hero, new space) (R-ABL Mechanics)
    carried: list[tuple[str, Cell]] = []
    #: fight markers on the platform, turned with it: (old space, new space)
    markers: list[tuple[Cell, Cell]] = []


class Moved(msgspec.Struct, array_like=True):
    """One component from one pile to another: `<hero>.<pile>` (hand, discard, played, pending,
    reward_tokens, wounds, rewards_used), `<stack>.<pile>` (draw, discard, face_up; a token
    put back on a draw pile goes on top), `advanced_left` or `removed`."""

    item: str
    source: str
    target: str


class ComponentsMoved(Event, tag="components_moved"):
    """A set-up correction: components moved between piles (the table is right)."""

    moves: list[Moved]


class FightMarkersSet(Event, tag="fight_markers_set"):
    cells: list[Cell]


class StrigoiWoundsSet(Event, tag="strigoi_wounds_set"):
    strigoi: str
    wounds: int


class LaddersSet(Event, tag="ladders_set"):
    ladders: list[str]


class RoundEnded(Event, tag="round_ended"):
    round: int


class TasksQueued(Event, tag="tasks_queued"):
    tasks: list[AnyTask]
    front: bool = True


class TaskDone(Event, tag="task_done"):
    kind: TaskKind
    #: tasks that take its place at the head of the queue, in the same step (a hero who falls
    #: is asked where to go in the event that ends the escape: no state between them)
    then: list[AnyTask] = []


class Drew(Event, tag="drew"):
    """The random generator advanced (its counter is part of the state)."""

    count: int = 1


class FoughtThisTurn(Event, tag="fought"):
    value: bool = True


class GameOver(Event, tag="game_over"):
    winner: Winner
    reason: str


AnyEvent = (
    GameStarted
    | CardChosen
    | CardsRevealed
    | PhaseChanged
    | StrigoiPlaced
    | HeroMoved
    | TokenDrawn
    | TokenDiscarded
    | TokenLeftFaceUp
    | StackReshuffled
    | RewardTaken
    | RewardSpent
    | BloodMoved
    | BloodSet
    | FightMarkerPlaced
    | CardPlayed
    | AbilityUsed
    | WoundTaken
    | WoundRemoved
    | HeroDefeated
    | HandRecovered
    | AdvancedEarned
    | AdvancedJoined
    | CardRemoved
    | FightMarkersCleared
    | CardRetrieved
    | RewardCardsSwapped
    | MilestoneReached
    | StrigoiMoved
    | LadderDestroyed
    | AttackMarker
    | StrigoiAttacked
    | CurseCast
    | StrigoiWounded
    | StrigoiDestroyed
    | PlatformCollapsed
    | PlatformRotated
    | RoundEnded
    | TasksQueued
    | TaskDone
    | Drew
    | FoughtThisTurn
    | GameOver
    | ComponentsMoved
    | FightMarkersSet
    | StrigoiWoundsSet
    | LaddersSet
)


def public(event: Event) -> Event:
    """What observers (screen, MQTT, voice) may see: a chosen card stays secret (R-RND-1)."""
    if isinstance(event, CardChosen):
        return CardChosen(hero=event.hero, card="")
    return event


__all__ = [
    "AbilityUsed",
    "AdvancedEarned",
    "AdvancedJoined",
    "AnyEvent",
    "AttackMarker",
    "BloodMoved",
    "BloodPlace",
    "BloodSet",
    "CardChosen",
    "CardPlayed",
    "CardRemoved",
    "CardRetrieved",
    "CardsRevealed",
    "ComponentsMoved",
    "CurseCast",
    "Drew",
    "Event",
    "FightMarkerPlaced",
    "FightMarkersCleared",
    "FightMarkersSet",
    "FoughtThisTurn",
    "GameOver",
    "GameStarted",
    "HandRecovered",
    "HeroDefeated",
    "HeroMoved",
    "LadderDestroyed",
    "LaddersSet",
    "MilestoneReached",
    "Moved",
    "PhaseChanged",
    "PlatformCollapsed",
    "PlatformRotated",
    "RewardCardsSwapped",
    "RewardSpent",
    "RewardTaken",
    "RoundEnded",
    "StackReshuffled",
    "StrigoiAttacked",
    "StrigoiDestroyed",
    "StrigoiMoved",
    "StrigoiPlaced",
    "StrigoiWounded",
    "StrigoiWoundsSet",
    "TaskDone",
    "TasksQueued",
    "TokenDiscarded",
    "TokenDrawn",
    "TokenLeftFaceUp",
    "WoundRemoved",
    "WoundTaken",
    "public",
]
