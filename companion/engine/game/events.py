"""Events: facts appended to the log. `apply` folds each into the state; nothing else mutates it.

Every event carries what it changed (drawn token ids, cells, rooms), so replaying the log needs
neither the random generator nor the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from companion.engine.game.state import Cell, GameState, Task

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
    phase: str
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
    stack: str
    token: str


class TokenDiscarded(Event, tag="token_discarded"):
    stack: str
    token: str


class TokenLeftFaceUp(Event, tag="token_left_face_up"):
    stack: str
    token: str


class StackReshuffled(Event, tag="stack_reshuffled"):
    stack: str
    order: list[str]


class RewardTaken(Event, tag="reward_taken"):
    hero: str
    stack: Literal["reward_token", "reward_card"]
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


class RoundEnded(Event, tag="round_ended"):
    round: int


class TasksQueued(Event, tag="tasks_queued"):
    tasks: list[Task]
    front: bool = True


class TaskDone(Event, tag="task_done"):
    kind: str
    #: tasks that take its place at the head of the queue, in the same step (a hero who falls
    #: is asked where to go in the event that ends the escape: no state between them)
    then: list[Task] = []


class Drew(Event, tag="drew"):
    """The random generator advanced (its counter is part of the state)."""

    count: int = 1


class FoughtThisTurn(Event, tag="fought"):
    value: bool = True


class GameOver(Event, tag="game_over"):
    winner: Literal["heroes", "strigoi"]
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
)


def public(event: Event) -> Event:
    """What observers (screen, MQTT, voice) may see: a chosen card stays secret (R-RND-1)."""
    if isinstance(event, CardChosen):
        return CardChosen(hero=event.hero, card="")
    return event


def _blood(state: GameState, place: BloodPlace, delta: int) -> None:
    setattr(state, place, getattr(state, place) + delta)


Fold = Callable[[GameState, Any], None]
_APPLY: dict[type[Event], Fold] = {}


def _folds(*kinds: type[Event]) -> Callable[[Fold], Fold]:
    """Register the fold of these event types (a dict lookup beats a long `match`)."""

    def register(fold: Fold) -> Fold:
        for kind in kinds:
            _APPLY[kind] = fold
        return fold

    return register


def apply(state: GameState, event: Event) -> None:
    """Fold one event into the state (in place)."""
    fold = _APPLY.get(type(event))
    if fold is None:
        raise TypeError(f"unknown event {event!r}")
    state.event_count += 1
    fold(state, event)


@_folds(GameStarted, StrigoiAttacked, CurseCast)
def _informational(state: GameState, event: Event) -> None:
    """The consequences are separate events."""


@_folds(CardChosen)
def _card_chosen(state: GameState, event: CardChosen) -> None:
    state.hero(event.hero).chosen = event.card


@_folds(CardsRevealed)
def _cards_revealed(state: GameState, event: CardsRevealed) -> None:
    state.turn_order = list(event.order)
    for h in state.heroes:
        if h.chosen is not None:
            h.hand.remove(h.chosen)
            h.played.append(h.chosen)


@_folds(PhaseChanged)
def _phase_changed(state: GameState, event: PhaseChanged) -> None:
    state.phase, state.round, state.active = event.phase, event.round, event.active
    state.fought = False


@_folds(StrigoiPlaced, StrigoiMoved)
def _strigoi_placed(state: GameState, event: StrigoiPlaced | StrigoiMoved) -> None:
    state.strigoi[event.strigoi] = event.room


@_folds(HeroMoved)
def _hero_moved(state: GameState, event: HeroMoved) -> None:
    state.hero(event.hero).at = event.to


@_folds(TokenDrawn)
def _token_drawn(state: GameState, event: TokenDrawn) -> None:
    stack = state.stacks[event.stack]
    if stack.face_up == event.token:
        stack.face_up = None
    else:
        stack.draw.remove(event.token)
    stack.in_play.append(event.token)


@_folds(TokenDiscarded)
def _token_discarded(state: GameState, event: TokenDiscarded) -> None:
    stack = state.stacks[event.stack]
    stack.in_play.remove(event.token)
    stack.discard.append(event.token)


@_folds(TokenLeftFaceUp)
def _token_left_face_up(state: GameState, event: TokenLeftFaceUp) -> None:
    stack = state.stacks[event.stack]
    stack.in_play.remove(event.token)
    stack.face_up = event.token


@_folds(StackReshuffled)
def _stack_reshuffled(state: GameState, event: StackReshuffled) -> None:
    stack = state.stacks[event.stack]
    stack.draw = list(event.order)
    shuffled = set(event.order)
    stack.discard = [t for t in stack.discard if t not in shuffled]


@_folds(RewardTaken)
def _reward_taken(state: GameState, event: RewardTaken) -> None:
    state.stacks[event.stack].in_play.remove(event.item)
    h = state.hero(event.hero)
    (h.reward_tokens if event.stack == "reward_token" else h.hand).append(event.item)


@_folds(RewardSpent)
def _reward_spent(state: GameState, event: RewardSpent) -> None:
    h = state.hero(event.hero)
    if event.kind == "token":
        h.reward_tokens.remove(event.item)
        state.stacks["reward_token"].discard.append(event.item)
        return
    h.hand.remove(event.item)
    if event.mode == "normal":
        h.rewards_used.append(event.item)  # back to the own discard pile at round end
    else:
        state.removed.append(event.item)  # wild strength destroys it (R-REW-1)


@_folds(BloodMoved)
def _blood_moved(state: GameState, event: BloodMoved) -> None:
    _blood(state, event.source, -1)
    _blood(state, event.target, +1)


@_folds(BloodSet)
def _blood_set(state: GameState, event: BloodSet) -> None:
    state.supply = 14 - event.altar - event.inferno
    state.altar, state.inferno = event.altar, event.inferno


@_folds(FightMarkerPlaced)
def _fight_marker_placed(state: GameState, event: FightMarkerPlaced) -> None:
    if event.taken_from is not None:
        state.fight_markers.remove(event.taken_from)
    state.fight_markers.append(event.cell)


@_folds(CardPlayed)
def _card_played(state: GameState, event: CardPlayed) -> None:
    h = state.hero(event.hero)
    h.hand.remove(event.card)
    h.played.append(event.card)


@_folds(AbilityUsed)
def _ability_used(state: GameState, event: AbilityUsed) -> None:
    state.hero(event.hero).used.append(event.ability)


@_folds(WoundTaken)
def _wound_taken(state: GameState, event: WoundTaken) -> None:
    state.stacks["wound"].in_play.remove(event.token)
    state.hero(event.hero).wounds.append(event.token)


@_folds(WoundRemoved)
def _wound_removed(state: GameState, event: WoundRemoved) -> None:
    state.hero(event.hero).wounds.remove(event.token)
    state.stacks["wound"].discard.append(event.token)


@_folds(HeroDefeated)
def _hero_defeated(state: GameState, event: HeroDefeated) -> None:
    h = state.hero(event.hero)
    h.wounds = [t for t in h.wounds if t not in event.tokens]
    state.stacks["wound"].discard.extend(event.tokens)
    h.defeated += 1


@_folds(HandRecovered)
def _hand_recovered(state: GameState, event: HandRecovered) -> None:
    h = state.hero(event.hero)
    h.hand.extend(h.discard)
    h.discard = []


@_folds(AdvancedEarned)
def _advanced_earned(state: GameState, event: AdvancedEarned) -> None:
    h = state.hero(event.hero)
    state.advanced_left.remove(event.card)
    h.pending.append(event.card)
    h.advanced.append(event.card)
    if event.first not in state.firsts:
        state.firsts.append(event.first)


@_folds(CardRemoved)
def _card_removed(state: GameState, event: CardRemoved) -> None:
    h = state.hero(event.hero)
    (h.played if event.card in h.played else h.hand).remove(event.card)
    state.removed.append(event.card)


@_folds(FightMarkersCleared)
def _fight_markers_cleared(state: GameState, event: FightMarkersCleared) -> None:
    state.fight_markers = []


@_folds(CardRetrieved)
def _card_retrieved(state: GameState, event: CardRetrieved) -> None:
    h = state.hero(event.hero)
    h.discard.remove(event.card)
    h.hand.append(event.card)


@_folds(RewardCardsSwapped)
def _reward_cards_swapped(state: GameState, event: RewardCardsSwapped) -> None:
    a, b = state.hero(event.hero), state.hero(event.other)
    for card in event.give:
        a.hand.remove(card)
        b.hand.append(card)
    for card in event.take:
        b.hand.remove(card)
        a.hand.append(card)


@_folds(AdvancedJoined)
def _advanced_joined(state: GameState, event: AdvancedJoined) -> None:
    h = state.hero(event.hero)
    h.hand.extend(h.pending)
    h.pending = []


@_folds(MilestoneReached)
def _milestone_reached(state: GameState, event: MilestoneReached) -> None:
    state.firsts.append(event.first)


@_folds(LadderDestroyed)
def _ladder_destroyed(state: GameState, event: LadderDestroyed) -> None:
    state.ladders.remove(event.ladder)


@_folds(AttackMarker)
def _attack_marker(state: GameState, event: AttackMarker) -> None:
    state.attack_marker = event.on


@_folds(StrigoiWounded)
def _strigoi_wounded(state: GameState, event: StrigoiWounded) -> None:
    state.strigoi_wounds[event.strigoi] = state.strigoi_wounds.get(event.strigoi, 0) + 1


@_folds(StrigoiDestroyed)
def _strigoi_destroyed(state: GameState, event: StrigoiDestroyed) -> None:
    state.strigoi.pop(event.strigoi, None)
    state.destroyed.append(event.strigoi)
    supreme = event.supreme
    if supreme is not None:
        state.supreme = supreme
        state.strigoi["supreme"] = state.strigoi.pop(supreme)
        state.strigoi_wounds["supreme"] = state.strigoi_wounds.pop(supreme, 0)


@_folds(PlatformCollapsed)
def _platform_collapsed(state: GameState, event: PlatformCollapsed) -> None:
    state.collapsed.append(event.room)


@_folds(PlatformRotated)
def _platform_rotated(state: GameState, event: PlatformRotated) -> None:
    state.rotations[event.room] = event.rotation
    for hero, cell in event.carried:
        state.hero(hero).at = (cell[0], cell[1])
    if event.markers:
        moved = {(a[0], a[1]): (b[0], b[1]) for a, b in event.markers}
        state.fight_markers = [moved.get(m, m) for m in state.fight_markers]


@_folds(RoundEnded)
def _round_ended(state: GameState, event: RoundEnded) -> None:
    for h in state.heroes:
        h.discard.extend(h.played + h.rewards_used)
        h.played, h.rewards_used, h.used, h.chosen = [], [], [], None
    state.attack_marker = False


@_folds(TasksQueued)
def _tasks_queued(state: GameState, event: TasksQueued) -> None:
    if event.front:
        state.tasks[:0] = event.tasks
    else:
        state.tasks.extend(event.tasks)


@_folds(TaskDone)
def _task_done(state: GameState, event: TaskDone) -> None:
    state.tasks[:1] = event.then


@_folds(Drew)
def _drew(state: GameState, event: Drew) -> None:
    state.draws += event.count


@_folds(FoughtThisTurn)
def _fought(state: GameState, event: FoughtThisTurn) -> None:
    state.fought = event.value


@_folds(GameOver)
def _game_over(state: GameState, event: GameOver) -> None:
    state.winner = event.winner
    state.phase = "over"
    state.tasks = []
