"""Events: facts appended to the log. `apply` folds each into the state; nothing else mutates it.

Every event carries what it changed (drawn token ids, cells, rooms), so replaying the log needs
neither the random generator nor the rules.
"""

from __future__ import annotations

from typing import Literal

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


class RoundEnded(Event, tag="round_ended"):
    round: int


class TasksQueued(Event, tag="tasks_queued"):
    tasks: list[Task]
    front: bool = True


class TaskDone(Event, tag="task_done"):
    kind: str


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


def apply(state: GameState, event: Event) -> None:
    """Fold one event into the state (in place)."""
    state.event_count += 1
    match event:
        case CardChosen(hero=hero, card=card):
            state.hero(hero).chosen = card
        case CardsRevealed(order=order):
            state.turn_order = list(order)
            for h in state.heroes:
                if h.chosen is not None:
                    h.hand.remove(h.chosen)
                    h.played.append(h.chosen)
        case PhaseChanged(phase=phase, round=round_, active=active):
            state.phase, state.round, state.active = phase, round_, active
            state.fought = False
        case StrigoiPlaced(strigoi=name, room=room) | StrigoiMoved(strigoi=name, room=room):
            state.strigoi[name] = room
        case HeroMoved(hero=hero, to=to):
            state.hero(hero).at = to
        case TokenDrawn(stack=name, token=token):
            stack = state.stacks[name]
            if stack.face_up == token:
                stack.face_up = None
            else:
                stack.draw.remove(token)
            stack.in_play.append(token)
        case TokenDiscarded(stack=name, token=token):
            stack = state.stacks[name]
            stack.in_play.remove(token)
            stack.discard.append(token)
        case TokenLeftFaceUp(stack=name, token=token):
            stack = state.stacks[name]
            stack.in_play.remove(token)
            stack.face_up = token
        case StackReshuffled(stack=name, order=order):
            stack = state.stacks[name]
            stack.draw = list(order)
            stack.discard = [t for t in stack.discard if t not in set(order)]
        case RewardTaken(hero=hero, stack=name, item=item):
            state.stacks[name].in_play.remove(item)
            if name == "reward_token":
                state.hero(hero).reward_tokens.append(item)
            else:
                state.hero(hero).hand.append(item)
        case RewardSpent(hero=hero, item=item, kind=kind, mode=mode):
            h = state.hero(hero)
            if kind == "token":
                h.reward_tokens.remove(item)
                state.stacks["reward_token"].discard.append(item)
            else:
                h.hand.remove(item)
                if mode == "normal":
                    h.rewards_used.append(item)  # back to the own discard pile at round end
                else:
                    state.removed.append(item)  # wild strength destroys it (R-REW-1)
        case BloodMoved(source=source, target=target):
            _blood(state, source, -1)
            _blood(state, target, +1)
        case BloodSet(altar=altar, inferno=inferno):
            state.supply = 14 - altar - inferno
            state.altar, state.inferno = altar, inferno
        case FightMarkerPlaced(cell=cell, taken_from=taken):
            if taken is not None:
                state.fight_markers.remove(taken)
            state.fight_markers.append(cell)
        case CardPlayed(hero=hero, card=card):
            h = state.hero(hero)
            h.hand.remove(card)
            h.played.append(card)
        case AbilityUsed(hero=hero, ability=ability):
            state.hero(hero).used.append(ability)
        case WoundTaken(hero=hero, token=token):
            state.stacks["wound"].in_play.remove(token)
            state.hero(hero).wounds.append(token)
        case WoundRemoved(hero=hero, token=token):
            state.hero(hero).wounds.remove(token)
            state.stacks["wound"].discard.append(token)
        case HeroDefeated(hero=hero, tokens=tokens):
            h = state.hero(hero)
            h.wounds = [t for t in h.wounds if t not in tokens]
            state.stacks["wound"].discard.extend(tokens)
            h.defeated += 1
        case HandRecovered(hero=hero):
            h = state.hero(hero)
            h.hand.extend(h.discard)
            h.discard = []
        case AdvancedEarned(hero=hero, card=card, first=first):
            h = state.hero(hero)
            state.advanced_left.remove(card)
            h.pending.append(card)
            h.advanced.append(card)
            if first not in state.firsts:
                state.firsts.append(first)
        case CardRemoved(hero=hero, card=card):
            h = state.hero(hero)
            (h.played if card in h.played else h.hand).remove(card)
            state.removed.append(card)
        case FightMarkersCleared():
            state.fight_markers = []
        case CardRetrieved(hero=hero, card=card):
            h = state.hero(hero)
            h.discard.remove(card)
            h.hand.append(card)
        case RewardCardsSwapped(hero=hero, other=other, give=give, take=take):
            a, b = state.hero(hero), state.hero(other)
            for card in give:
                a.hand.remove(card)
                b.hand.append(card)
            for card in take:
                b.hand.remove(card)
                a.hand.append(card)
        case AdvancedJoined(hero=hero):
            h = state.hero(hero)
            h.hand.extend(h.pending)
            h.pending = []
        case MilestoneReached(first=first):
            state.firsts.append(first)
        case LadderDestroyed(ladder=ladder):
            state.ladders.remove(ladder)
        case AttackMarker(on=on):
            state.attack_marker = on
        case StrigoiWounded(strigoi=name):
            state.strigoi_wounds[name] = state.strigoi_wounds.get(name, 0) + 1
        case StrigoiDestroyed(strigoi=name, supreme=supreme):
            state.strigoi.pop(name, None)
            state.destroyed.append(name)
            if supreme is not None:
                state.supreme = supreme
                room = state.strigoi.pop(supreme)
                state.strigoi["supreme"] = room
                state.strigoi_wounds["supreme"] = state.strigoi_wounds.pop(supreme, 0)
        case PlatformCollapsed(room=room):
            state.collapsed.append(room)
        case PlatformRotated(room=room, rotation=rotation):
            state.rotations[room] = rotation
        case RoundEnded():
            for h in state.heroes:
                h.discard.extend(h.played + h.rewards_used)
                h.played, h.rewards_used, h.used, h.chosen = [], [], [], None
            state.attack_marker = False
        case TasksQueued(tasks=tasks, front=front):
            state.tasks = [*tasks, *state.tasks] if front else [*state.tasks, *tasks]
        case TaskDone():
            state.tasks.pop(0)
        case Drew(count=count):
            state.draws += count
        case FoughtThisTurn(value=value):
            state.fought = value
        case GameOver(winner=winner):
            state.winner = winner
            state.phase = "over"
            state.tasks = []
        case GameStarted() | StrigoiAttacked() | CurseCast():
            pass  # informational: the consequences are separate events
        case _:
            raise TypeError(f"unknown event {event!r}")
