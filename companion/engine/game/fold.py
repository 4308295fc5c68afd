"""How each event changes a game state (`apply`): the fold that makes state = events folded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine.game import events as e
from companion.engine.game.kinds import Phase
from companion.engine.game.state import GameState
from companion.errors import UnknownEvent, UnknownName


def _blood(state: GameState, place: e.BloodPlace, delta: int) -> None:
    setattr(state, place, getattr(state, place) + delta)


Fold = Callable[[GameState, Any], None]
#: the fold of each event type
FOLDS: dict[type[e.Event], Fold] = {}


def _folds(*kinds: type[e.Event]) -> Callable[[Fold], Fold]:
    """Register the fold of these event types (a dict lookup beats a long `match`)."""

    def register(fold: Fold) -> Fold:
        for kind in kinds:
            FOLDS[kind] = fold
        return fold

    return register


def apply(state: GameState, event: e.Event) -> None:
    """Fold one event into the state (in place)."""
    fold = FOLDS.get(type(event))
    if fold is None:
        raise UnknownEvent(f"no fold for {event!r}")
    state.event_count += 1
    fold(state, event)


@_folds(e.GameStarted, e.StrigoiAttacked, e.CurseCast)
def _informational(state: GameState, event: e.Event) -> None:
    """The consequences are separate events."""


@_folds(e.CardChosen)
def _card_chosen(state: GameState, event: e.CardChosen) -> None:
    state.hero(event.hero).chosen = event.card


@_folds(e.CardsRevealed)
def _cards_revealed(state: GameState, event: e.CardsRevealed) -> None:
    state.turn_order = list(event.order)
    for h in state.heroes:
        if h.chosen is not None:
            h.hand.remove(h.chosen)
            h.played.append(h.chosen)


@_folds(e.PhaseChanged)
def _phase_changed(state: GameState, event: e.PhaseChanged) -> None:
    state.phase, state.round, state.active = event.phase, event.round, event.active
    state.fought = False


@_folds(e.StrigoiPlaced, e.StrigoiMoved)
def _strigoi_placed(state: GameState, event: e.StrigoiPlaced | e.StrigoiMoved) -> None:
    state.strigoi[event.strigoi] = event.room


@_folds(e.HeroMoved)
def _hero_moved(state: GameState, event: e.HeroMoved) -> None:
    state.hero(event.hero).at = event.to


@_folds(e.TokenDrawn)
def _token_drawn(state: GameState, event: e.TokenDrawn) -> None:
    stack = state.stacks[event.stack]
    if stack.face_up == event.token:
        stack.face_up = None
    else:
        stack.draw.remove(event.token)
    stack.in_play.append(event.token)


@_folds(e.TokenDiscarded)
def _token_discarded(state: GameState, event: e.TokenDiscarded) -> None:
    stack = state.stacks[event.stack]
    stack.in_play.remove(event.token)
    stack.discard.append(event.token)


@_folds(e.TokenLeftFaceUp)
def _token_left_face_up(state: GameState, event: e.TokenLeftFaceUp) -> None:
    stack = state.stacks[event.stack]
    stack.in_play.remove(event.token)
    stack.face_up = event.token


@_folds(e.StackReshuffled)
def _stack_reshuffled(state: GameState, event: e.StackReshuffled) -> None:
    stack = state.stacks[event.stack]
    stack.draw = list(event.order)
    shuffled = set(event.order)
    stack.discard = [t for t in stack.discard if t not in shuffled]


@_folds(e.RewardTaken)
def _reward_taken(state: GameState, event: e.RewardTaken) -> None:
    state.stacks[event.stack].in_play.remove(event.item)
    h = state.hero(event.hero)
    (h.reward_tokens if event.stack == "reward_token" else h.hand).append(event.item)


@_folds(e.RewardSpent)
def _reward_spent(state: GameState, event: e.RewardSpent) -> None:
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


@_folds(e.BloodMoved)
def _blood_moved(state: GameState, event: e.BloodMoved) -> None:
    _blood(state, event.source, -1)
    _blood(state, event.target, +1)


@_folds(e.BloodSet)
def _blood_set(state: GameState, event: e.BloodSet) -> None:
    state.supply = 14 - event.altar - event.inferno
    state.altar, state.inferno = event.altar, event.inferno


@_folds(e.FightMarkerPlaced)
def _fight_marker_placed(state: GameState, event: e.FightMarkerPlaced) -> None:
    if event.taken_from is not None:
        state.fight_markers.remove(event.taken_from)
    state.fight_markers.append(event.cell)


@_folds(e.CardPlayed)
def _card_played(state: GameState, event: e.CardPlayed) -> None:
    h = state.hero(event.hero)
    h.hand.remove(event.card)
    h.played.append(event.card)


@_folds(e.AbilityUsed)
def _ability_used(state: GameState, event: e.AbilityUsed) -> None:
    state.hero(event.hero).used.append(event.ability)


@_folds(e.WoundTaken)
def _wound_taken(state: GameState, event: e.WoundTaken) -> None:
    state.stacks["wound"].in_play.remove(event.token)
    state.hero(event.hero).wounds.append(event.token)


@_folds(e.WoundRemoved)
def _wound_removed(state: GameState, event: e.WoundRemoved) -> None:
    state.hero(event.hero).wounds.remove(event.token)
    state.stacks["wound"].discard.append(event.token)


@_folds(e.HeroDefeated)
def _hero_defeated(state: GameState, event: e.HeroDefeated) -> None:
    h = state.hero(event.hero)
    h.wounds = [t for t in h.wounds if t not in event.tokens]
    state.stacks["wound"].discard.extend(event.tokens)
    h.defeated += 1


@_folds(e.HandRecovered)
def _hand_recovered(state: GameState, event: e.HandRecovered) -> None:
    h = state.hero(event.hero)
    h.hand.extend(h.discard)
    h.discard = []


@_folds(e.AdvancedEarned)
def _advanced_earned(state: GameState, event: e.AdvancedEarned) -> None:
    h = state.hero(event.hero)
    state.advanced_left.remove(event.card)
    h.pending.append(event.card)
    h.advanced.append(event.card)
    if event.first not in state.firsts:
        state.firsts.append(event.first)


@_folds(e.CardRemoved)
def _card_removed(state: GameState, event: e.CardRemoved) -> None:
    h = state.hero(event.hero)
    (h.played if event.card in h.played else h.hand).remove(event.card)
    state.removed.append(event.card)


@_folds(e.FightMarkersCleared)
def _fight_markers_cleared(state: GameState, event: e.FightMarkersCleared) -> None:
    state.fight_markers = []


@_folds(e.CardRetrieved)
def _card_retrieved(state: GameState, event: e.CardRetrieved) -> None:
    h = state.hero(event.hero)
    h.discard.remove(event.card)
    h.hand.append(event.card)


@_folds(e.RewardCardsSwapped)
def _reward_cards_swapped(state: GameState, event: e.RewardCardsSwapped) -> None:
    a, b = state.hero(event.hero), state.hero(event.other)
    for card in event.give:
        a.hand.remove(card)
        b.hand.append(card)
    for card in event.take:
        b.hand.remove(card)
        a.hand.append(card)


@_folds(e.AdvancedJoined)
def _advanced_joined(state: GameState, event: e.AdvancedJoined) -> None:
    h = state.hero(event.hero)
    h.hand.extend(h.pending)
    h.pending = []


@_folds(e.MilestoneReached)
def _milestone_reached(state: GameState, event: e.MilestoneReached) -> None:
    state.firsts.append(event.first)


@_folds(e.LadderDestroyed)
def _ladder_destroyed(state: GameState, event: e.LadderDestroyed) -> None:
    state.ladders.remove(event.ladder)


@_folds(e.AttackMarker)
def _attack_marker(state: GameState, event: e.AttackMarker) -> None:
    state.attack_marker = event.on


@_folds(e.StrigoiWounded)
def _strigoi_wounded(state: GameState, event: e.StrigoiWounded) -> None:
    state.strigoi_wounds[event.strigoi] = state.strigoi_wounds.get(event.strigoi, 0) + 1


@_folds(e.StrigoiDestroyed)
def _strigoi_destroyed(state: GameState, event: e.StrigoiDestroyed) -> None:
    state.strigoi.pop(event.strigoi, None)
    state.destroyed.append(event.strigoi)
    supreme = event.supreme
    if supreme is not None:
        state.supreme = supreme
        state.strigoi["supreme"] = state.strigoi.pop(supreme)
        state.strigoi_wounds["supreme"] = state.strigoi_wounds.pop(supreme, 0)


@_folds(e.PlatformCollapsed)
def _platform_collapsed(state: GameState, event: e.PlatformCollapsed) -> None:
    state.collapsed.append(event.room)


@_folds(e.PlatformRotated)
def _platform_rotated(state: GameState, event: e.PlatformRotated) -> None:
    state.rotations[event.room] = event.rotation
    for hero, cell in event.carried:
        state.hero(hero).at = (cell[0], cell[1])
    if event.markers:
        moved = {(a[0], a[1]): (b[0], b[1]) for a, b in event.markers}
        state.fight_markers = [moved.get(m, m) for m in state.fight_markers]


HERO_PILES = ("hand", "discard", "played", "pending", "reward_tokens", "wounds", "rewards_used")
STACK_PILES = ("draw", "discard", "face_up")


def pile(state: GameState, name: str) -> list[str]:
    """The pile a `Moved` names (a stack's face-up token as a list of one or none)."""
    owner, _, kind = name.rpartition(".")
    if not owner:
        if kind not in ("advanced_left", "removed"):
            raise UnknownName(f"no pile {name!r}")
        found: list[str] = getattr(state, kind)
        return found
    if owner in state.stacks and kind in STACK_PILES:
        stack = state.stacks[owner]
        if kind == "face_up":
            return [] if stack.face_up is None else [stack.face_up]
        held: list[str] = getattr(stack, kind)
        return held
    if kind not in HERO_PILES:
        raise UnknownName(f"no pile {name!r}")
    pile_: list[str] = getattr(state.hero(owner), kind)
    return pile_


def _put_face_up(state: GameState, name: str, token: str | None) -> None:
    state.stacks[name.partition(".")[0]].face_up = token  # type: ignore[index]


@_folds(e.ComponentsMoved)
def _components_moved(state: GameState, event: e.ComponentsMoved) -> None:
    for move in event.moves:
        item, source, target = move.item, move.source, move.target
        if source.endswith(".face_up"):
            _put_face_up(state, source, None)
        else:
            pile(state, source).remove(item)
        if target.endswith(".face_up"):
            _put_face_up(state, target, item)
        else:
            pile(state, target).append(item)
        # the record of earned advanced cards follows them (R-ADV)
        owner = target.partition(".")[0]
        holder = next((h for h in state.heroes if h.hero == owner), None)
        if source == "advanced_left" or any(item in h.advanced for h in state.heroes):
            for h in state.heroes:
                if item in h.advanced and h is not holder:
                    h.advanced.remove(item)
            if holder is not None and item not in holder.advanced:
                holder.advanced.append(item)


@_folds(e.FightMarkersSet)
def _fight_markers_set(state: GameState, event: e.FightMarkersSet) -> None:
    state.fight_markers = [(x[0], x[1]) for x in event.cells]


@_folds(e.StrigoiWoundsSet)
def _strigoi_wounds_set(state: GameState, event: e.StrigoiWoundsSet) -> None:
    state.strigoi_wounds[event.strigoi] = event.wounds


@_folds(e.LaddersSet)
def _ladders_set(state: GameState, event: e.LaddersSet) -> None:
    state.ladders = list(event.ladders)


@_folds(e.RoundEnded)
def _round_ended(state: GameState, event: e.RoundEnded) -> None:
    for h in state.heroes:
        h.discard.extend(h.played + h.rewards_used)
        h.played, h.rewards_used, h.used, h.chosen = [], [], [], None
    state.attack_marker = False


@_folds(e.TasksQueued)
def _tasks_queued(state: GameState, event: e.TasksQueued) -> None:
    if event.front:
        state.tasks[:0] = event.tasks
    else:
        state.tasks.extend(event.tasks)


@_folds(e.TaskDone)
def _task_done(state: GameState, event: e.TaskDone) -> None:
    state.tasks[:1] = event.then


@_folds(e.Drew)
def _drew(state: GameState, event: e.Drew) -> None:
    state.draws += event.count


@_folds(e.FoughtThisTurn)
def _fought(state: GameState, event: e.FoughtThisTurn) -> None:
    state.fought = event.value


@_folds(e.GameOver)
def _game_over(state: GameState, event: e.GameOver) -> None:
    state.winner = event.winner
    state.phase = Phase.OVER
    state.tasks = []


__all__ = ["FOLDS", "HERO_PILES", "STACK_PILES", "apply", "pile"]
