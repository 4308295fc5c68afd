"""The rules of a whole game as a task interpreter.

`decide(rules, state, command)` checks the command against the task at the head of the state's
queue (or accepts a manual correction at any time), then runs the automatic tasks until the game
waits for a person again. It never mutates `state`: it works on a copy, emitting events that are
applied to that copy as they are produced, and returns both. Replaying the returned events on
`state` gives the same copy (tested).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from companion.engine.collapse import collapse
from companion.engine.components import AdvancedCard, RewardCard, RewardToken
from companion.engine.explain import N_, hero_name, strigoi_name
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import (
    ALTAR_MAX,
    ALTAR_NEEDED,
    FIGHT_MARKERS,
    INFERNO_LOSES,
    WOUNDS_TO_DEFEAT,
    GameRules,
    board_state,
    played_card,
    situation,
)
from companion.engine.game.state import Cell, GameState, HeroState, Task
from companion.engine.hexgrid import add, direction_between, rotate, sub
from companion.engine.movement import reachable_on
from companion.engine.sight import first_on_ray
from companion.engine.strigoi import StrigoiStep, curse, cursing_strigoi, strigoi_step
from companion.errors import IllegalCommand

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(GameState)
REFILLABLE = {"red", "grey", "strigoi", "wound", "reward_token"}  # never the reward cards (R-REW-1)
AUTOMATIC = {"strigoi_resolve", "wounds", "end_turn", "curse", "end_round", "start_turn"}


def clone(state: GameState) -> GameState:
    return _DECODER.decode(_ENCODER.encode(state))


def started_state(started: e.GameStarted) -> GameState:
    """The state right after a game's first event (which carries it)."""
    state = clone(started.state)
    state.event_count = 1
    return state


class Emitter:
    """Applies each event to the working state as it is emitted and records it."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[e.Event] = []
        self._record = self.events.append

    def __call__(self, event: e.Event, *more: e.Event) -> None:
        e.apply(self.state, event)
        self._record(event)
        for other in more:
            e.apply(self.state, other)
            self._record(other)

    def random(self) -> random.Random:
        generator = random.Random(f"{self.state.seed}:{self.state.draws}")
        self(e.Drew())
        return generator


def refuse(command: c.Command, why: str) -> IllegalCommand:
    text = msgspec.json.encode(command).decode()
    return IllegalCommand(f"{text} refused: {why}")


# ----- small rules helpers -----------------------------------------------------------------------
def _card_strength(rules: GameRules, hero: HeroState) -> int:
    card = played_card(rules, hero)
    return max(0, (card.strength if card else 0) - _penalty(rules, hero, "strength"))


def _penalty(rules: GameRules, hero: HeroState, effect: str) -> int:
    wounds = [rules.catalog.wound(w) for w in hero.wounds]
    return sum(w.penalty for w in wounds if w.effect == effect)


def _blocked(rules: GameRules, hero: HeroState, ability: str) -> bool:
    if not hero.wounds:
        return False
    wounds = [rules.catalog.wound(w) for w in hero.wounds]
    return any(w.effect == "ability" and w.ability == ability for w in wounds)


def card_icons_left(rules: GameRules, hero: HeroState, ability: str) -> int:
    """Unused `ability` icons on the hero's played card this round (R-ABL: once per round)."""
    card = played_card(rules, hero)
    if card is None or _blocked(rules, hero, ability):
        return 0
    return sum(1 for a in card.abilities if a == ability) - hero.used.count(ability)


def _wound_value(rules: GameRules, hero: HeroState) -> int:
    return sum(rules.catalog.wound(w).value for w in hero.wounds)


def _reward_card(rules: GameRules, item: str) -> RewardCard | None:
    return rules.catalog.reward_card(item)


def _reward_token(rules: GameRules, item: str) -> RewardToken | None:
    return rules.catalog.reward_token(item)


def _card_abilities(rules: GameRules, item: str) -> list[str]:
    reward = _reward_card(rules, item)
    if reward is not None:
        return [*(reward.normal.abilities if reward.normal else []), *reward.wild.abilities]
    return list(rules.card(item).abilities)


#: Abilities a hero may also get by discarding an action card showing them (R-MOV-4, R-ENC-6,
#: R-LOS-2); other icons on action cards work only on the played card ("each turn, they use only
#: the Abilities shown on the card they played"), except Leap to escape a collapse (R-COL-2).
DISCARDABLE = ("protection", "stealth")


def possible_abilities(rules: GameRules, hero: HeroState) -> set[str]:
    """Every ability `hero` could take from anything they hold now (a quick pre-filter)."""
    found: set[str] = set()
    card = played_card(rules, hero)
    if card is not None:
        found.update(card.abilities)
    for item in hero.hand:
        reward = _reward_card(rules, item)
        if reward is not None:
            found.update(reward.wild.abilities)
            if reward.normal is not None:
                found.update(reward.normal.abilities)
        else:
            found.update(a for a in rules.card(item).abilities if a in DISCARDABLE)
    for token in hero.reward_tokens:
        found.update(rules.catalog.reward_token(token).abilities)  # type: ignore[union-attr]
    return found


def ability_sources(
    rules: GameRules,
    hero: HeroState,
    ability: str,
    icons: int | None = None,
    discard: bool | None = None,
) -> list[str]:
    """Where `hero` can take `ability` from now (R-ABL): "card" once per unused icon of the
    played card, "<reward card>:normal" / ":wild" from the hand, reward tokens, and an action
    card discarded from the hand when `discard` (default: Protection and Stealth)."""
    if discard is None:
        discard = ability in DISCARDABLE
    if _blocked(rules, hero, ability):
        return []
    left = card_icons_left(rules, hero, ability)
    sources = ["card"] * (left if icons is None else min(icons, left))
    for item in hero.hand:
        reward = _reward_card(rules, item)
        if reward is not None:
            if reward.normal is not None and ability in reward.normal.abilities:
                sources.append(f"{item}:normal")
            if ability in reward.wild.abilities:
                sources.append(f"{item}:wild")
        elif discard and ability in rules.card(item).abilities:
            sources.append(item)
    sources += [
        t
        for t in hero.reward_tokens
        if (tok := _reward_token(rules, t)) is not None and ability in tok.abilities
    ]
    return sources


def source_item(source: str) -> str:
    """The component a source uses up ("card" for the played card's icon)."""
    return source.split(":")[0]


def protection_sources(rules: GameRules, hero: HeroState) -> list[str]:
    """Everything that can block one wound now (each blocks one: R-LOS-2, R-ENC-2)."""
    return ability_sources(rules, hero, "protection")


def spend_ability(
    rules: GameRules,
    em: Emitter,
    cmd: c.Command,
    hero: str,
    ability: str,
    source: str,
    discard: bool | None = None,
) -> None:
    """Use one `ability` from `source`, or refuse the command (`discard`: as `ability_sources`)."""
    if source not in ability_sources(rules, em.state.hero(hero), ability, discard=discard):
        raise refuse(cmd, f"{source!r} gives {hero} no {ability.replace('_', ' ')} now")
    if source == "card":
        em(e.AbilityUsed(hero=hero, ability=ability))
    elif ":" in source:
        item, mode = source.split(":")
        em(e.RewardSpent(hero=hero, item=item, kind="card", mode=mode))  # type: ignore[arg-type]
    elif source in em.state.hero(hero).reward_tokens:
        em(e.RewardSpent(hero=hero, item=source, kind="token"))
    else:
        em(e.CardPlayed(hero=hero, card=source, reason=ability))


def _lose_blood(em: Emitter, reason: str) -> None:
    """R-BLD-1: Altar -> Inferno, from the supply when the Altar is empty."""
    source: e.BloodPlace = "altar" if em.state.altar > 0 else "supply"
    if getattr(em.state, source) > 0:
        em(e.BloodMoved(source=source, target="inferno", reason=reason))


def _gain_blood(em: Emitter, reason: str) -> None:
    if em.state.altar < ALTAR_MAX and em.state.supply > 0:
        em(e.BloodMoved(source="supply", target="altar", reason=reason))


def _queue(em: Emitter, *tasks: Task, front: bool = True) -> None:
    em(e.TasksQueued(tasks=list(tasks), front=front))


def _done(em: Emitter) -> None:
    em(e.TaskDone(kind=em.state.tasks[0].kind))


def _taken(rules: GameRules, state: GameState) -> set[Cell | None]:
    strigoi = {rules.fortress.centre(room) for room in state.strigoi.values()}
    return {h.at for h in state.heroes} | strigoi


def _relocation_cells(rules: GameRules, state: GameState, ladders_first: bool) -> list[Cell]:
    """Where a displaced hero may go: with `ladders_first` a free ladder, or free stairs when no
    ladder is free (R-LOS-4, R-COL-3); otherwise any free ladder or stairs (R-TEL-4, R-COL-2).

    Occupied places are left out before choosing, and a hero is never left off the board: with
    no free ladder or stairs at all (every one taken), any free space that holds no encounter.
    """
    board = board_state(state)
    taken = _taken(rules, state)
    ladders = [rules.fortress.ladders[x].cell for x in sorted(state.ladders)]
    stairs = [s for s in rules.fortress.stairs(board) if s not in ladders]
    free_ladders = [x for x in ladders if x not in taken]
    free_stairs = [x for x in stairs if x not in taken]
    pool = (free_ladders or free_stairs) if ladders_first else free_ladders + free_stairs
    if pool:
        return pool
    encounters = rules.fortress.encounter_cells(board)
    return [x for x in rules.fortress.spaces(board) if x not in taken and x not in encounters]


def _relocate_task(rules: GameRules, state: GameState, hero: str, ladders_first: bool) -> Task:
    return Task(kind="relocate", hero=hero, cells=_relocation_cells(rules, state, ladders_first))


def _earn(em: Emitter, rules: GameRules, hero: str, milestone: str) -> None:
    """R-ADV: join an advanced card to the hand, never two identical ones."""
    state = em.state
    h = state.hero(hero)
    kinds = {"red": "fire_and_forgive", "grey": "fist_by_fist"}
    if milestone in kinds:
        kind = kinds[milestone]
        if any(_advanced(rules, x).kind == kind for x in h.advanced):
            return
        card = next((x for x in state.advanced_left if _advanced(rules, x).kind == kind), None)
    else:
        if milestone in state.firsts:
            return
        card = next(
            (x for x in state.advanced_left if _advanced(rules, x).earned_by == milestone), None
        )
    if card is not None:
        em(e.AdvancedEarned(hero=hero, card=card, first=milestone))
    elif milestone not in state.firsts and milestone not in kinds:
        em(e.MilestoneReached(first=milestone))


def _advanced(rules: GameRules, card_id: str) -> AdvancedCard:
    card = rules.card(card_id)
    assert isinstance(card, AdvancedCard)
    return card


# ----- stacks ------------------------------------------------------------------------------------
def draw_token(em: Emitter, rules: GameRules, stack: str, chosen: str | None) -> str | None:
    """Take the top token (digital) or the token the table drew (physical-first)."""
    st = em.state.stacks[stack]
    if chosen is not None:
        if st.face_up is not None and chosen != st.face_up:
            raise IllegalCommand(
                f"token {chosen!r} cannot be drawn: {st.face_up!r} lies face up on the {stack} "
                "stack and comes next (R-ENC-6)"
            )
        if chosen != st.face_up and chosen not in st.draw:
            if st.draw or chosen not in st.discard or stack not in REFILLABLE:
                raise IllegalCommand(
                    f"token {chosen!r} cannot come from the {stack} stack now: it is not in it"
                )
            em(e.StackReshuffled(stack=stack, order=sorted(st.discard)))
        em(e.TokenDrawn(stack=stack, token=chosen))
        return chosen
    if st.face_up is not None:
        token = st.face_up
    else:
        if not st.draw:
            if not st.discard or stack not in REFILLABLE:
                return None
            order = sorted(st.discard)
            em.random().shuffle(order)
            em(e.StackReshuffled(stack=stack, order=order))
        token = em.state.stacks[stack].draw[-1]
    em(e.TokenDrawn(stack=stack, token=token))
    return token


# ----- decide ------------------------------------------------------------------------------------
Handler = Callable[[GameRules, Emitter, Task, Any], None]
HANDLERS: dict[tuple[str, type], Handler] = {}


def handles(kind: str, *types: type) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for t in types:
            HANDLERS[(kind, t)] = fn
        return fn

    return register


def decide(
    rules: GameRules, state: GameState, command: c.Command
) -> tuple[list[e.Event], GameState]:
    """Validate `command`, return its events and the state after them (`state` is untouched)."""
    work = clone(state)
    em = Emitter(work)
    _handle(rules, em, command)
    return em.events, work


def _handle(rules: GameRules, em: Emitter, command: c.Command) -> None:
    work = em.state
    if work.phase == "over":
        raise refuse(command, f"the game is over ({work.winner} won)")
    if isinstance(command, c.CORRECTIONS):
        _correct(rules, em, command)
    else:
        if not work.tasks:
            raise refuse(command, "the game waits for nothing")
        task = work.tasks[0]
        handler = HANDLERS.get((task.kind, type(command)))
        if handler is None:
            raise refuse(command, f"the game waits for {describe(task)}")
        who = getattr(command, "hero", None)
        if task.hero is not None and who != task.hero:
            raise refuse(command, f"it is {task.hero}'s decision: {describe(task)}")
        handler(rules, em, task, command)
    advance(rules, em)


def decide_in_place(
    rules: GameRules, state: GameState, command: c.Command, *, restore: bool = True
) -> list[e.Event]:
    """`decide` that advances `state` itself (no copy): for callers that keep no old state.

    A refused command leaves `state` exactly as it was (restored from an encoded backup), unless
    `restore` is False: for callers that drop the state after a refusal anyway (the simulator,
    for which refusing a listed legal command is a bug to report).
    """
    backup = _ENCODER.encode(state) if restore else None
    em = Emitter(state)
    try:
        _handle(rules, em, command)
    except BaseException:
        if backup is not None:
            restored = _DECODER.decode(backup)
            for name in GameState.__struct_fields__:
                setattr(state, name, getattr(restored, name))
        raise
    return em.events


#: What the game waits for, per task kind (placeholders: the task's fields). English here; the
#: app renders the same templates from its catalogs.
TASK_TEXTS: dict[str, str] = {
    "choose": N_("every player to choose a card"),
    "move": N_("{hero} to move"),
    "encounter": N_("{hero} to draw a {stack} encounter token"),
    "stealth_choice": N_("{hero} to fight or leave {token}"),
    "monk": N_("{hero} to free or attack the monk"),
    "fight": N_("{hero} to fight {token}"),
    "fight_choice": N_("{hero} to attack a Strigoi or skip the fight"),
    "strigoi": N_("the Strigoi action token"),
    "abilities": N_("{hero} to use an ability or go on"),
    "protect": N_("{hero} to block up to {wounds} wound(s) with Protection"),
    "shock": N_("{hero} to discard a card for Shock"),
    "counterattack": N_("{hero} to counterattack {strigoi} or not"),
    "relocate": N_("{hero} to move to a ladder or stairs"),
    "marker": N_("{hero} to take a fight marker from the board"),
    "escape": N_("{hero} to Leap or fall with the platform"),
    "reward_draw": N_("{hero} to enter the drawn {stack} (physical)"),
    "wound_draw": N_("{hero} to enter the drawn wound token (physical, {wounds} left)"),
}


def describe(task: Task, translate: Callable[[str], str] = N_) -> str:
    """The task in words, heroes and Strigoi by name; `translate` gives another language's
    template and Strigoi names."""
    return translate(TASK_TEXTS.get(task.kind, task.kind)).format(
        hero=hero_name(task.hero) if task.hero else task.hero,
        stack=task.stack,
        token=task.token,
        wounds=task.wounds,
        strigoi=strigoi_name(task.strigoi, translate) if task.strigoi else task.strigoi,
    )


def advance(rules: GameRules, em: Emitter) -> None:
    """Run automatic tasks and skip decisions nobody can take, until a person must act."""
    for _ in range(10_000):
        _check_victory(rules, em)
        state = em.state
        if state.phase == "over" or not state.tasks:
            return
        task = state.tasks[0]
        if task.kind in AUTOMATIC:
            AUTO[task.kind](rules, em, task)
        elif not _skip_if_moot(rules, em, task):
            return
    raise AssertionError("the game does not settle")


def _check_victory(rules: GameRules, em: Emitter) -> None:
    state = em.state
    if state.phase == "over":
        return
    if state.inferno >= INFERNO_LOSES[state.players]:  # R-BLD-3
        em(e.GameOver(winner="strigoi", reason=N_("the Inferno is full")))
    elif "supreme" in state.destroyed:  # R-BLD-4
        em(e.GameOver(winner="heroes", reason=N_("the Supreme Strigoi is destroyed")))


def _skip_if_moot(rules: GameRules, em: Emitter, task: Task) -> bool:
    """Resolve a decision with a single possible answer; True when it was handled."""
    state = em.state
    if task.kind == "fight_choice":
        if not strigoi_targets(rules, state, task.hero or ""):
            _done(em)
            return True
    elif task.kind == "counterattack":
        if not [t for t in strigoi_targets(rules, state, task.hero or "") if t[0] == task.strigoi]:
            _done(em)
            return True
    elif task.kind == "protect":
        h = state.hero(task.hero or "")
        if not task.protectable or not protection_sources(rules, h):
            _protect(rules, em, task, c.Protect(hero=h.hero, sources=[]))
            return True
    elif task.kind == "strigoi":
        if state.strigoi and "supreme" not in state.strigoi:
            return False  # the token is drawn by a person
        _done(em)  # no token to draw (R-TEL-1): the Supreme moves, or no Strigoi is on the board
        if _abilities_left(rules, state):  # R-ABL "When": first the abilities the hero may use
            _queue(em, Task(kind="abilities", hero=state.active_hero))
        else:
            _supreme_steps(em)
        return True
    elif task.kind == "abilities":
        if _abilities_left(rules, state):
            return False
        _done(em)
        _supreme_steps(em)
        return True
    elif task.kind == "shock":
        if not em.state.hero(task.hero or "").hand:
            _done(em)
            return True
    elif task.kind in ("relocate", "marker"):
        cells = cell_choices(rules, state, task)
        if len(cells) > 1:
            return False
        if cells:
            _settle_cell(em, task, cells[0])
        else:
            _done(em)
        return True
    return False


# ----- phase 1: initiative (R-RND-1, R-RND-2) ----------------------------------------------------
@handles("choose", c.ChooseCard)
def _choose(rules: GameRules, em: Emitter, task: Task, cmd: c.ChooseCard) -> None:
    state = em.state
    try:
        h = state.hero(cmd.hero)
    except KeyError:
        raise refuse(cmd, f"{cmd.hero!r} is not playing") from None
    if h.chosen is not None:
        raise refuse(cmd, f"{cmd.hero} has already chosen")
    if cmd.card not in h.hand or not rules.is_action(cmd.card):
        raise refuse(cmd, f"{cmd.card!r} is not an action card in {cmd.hero}'s hand")
    em(e.CardChosen(hero=cmd.hero, card=cmd.card))
    if all(x.chosen is not None for x in state.heroes):
        order = sorted(
            state.heroes,
            key=lambda x: (
                rules.card(x.chosen or "").initiative,
                x.seat if rules.options.rules.seat_order_breaks_ties else 0,
            ),
        )
        _done(em)
        em(e.CardsRevealed(order=[x.hero for x in order]))
        em(e.PhaseChanged(phase="turns", round=state.round, active=0))
        _queue(em, Task(kind="start_turn"))


def _start_turn(rules: GameRules, em: Emitter, task: Task) -> None:
    hero = em.state.active_hero
    _done(em)
    _queue(em, Task(kind="move", hero=hero), Task(kind="strigoi"), Task(kind="end_turn"))


# ----- phase 2a: move (R-MOV) --------------------------------------------------------------------
def movement_points(rules: GameRules, hero: HeroState) -> int:
    card = played_card(rules, hero)
    return max(0, (card.movement if card else 0) - _penalty(rules, hero, "movement"))


def move_options(rules: GameRules, state: GameState, hero: str, stealth: bool) -> list[Cell]:
    """Where the hero may end a move now (R-MOV). Memoised: listing the legal moves and then
    validating the chosen one ask the same question."""
    h = state.hero(hero)
    if h.at is None:
        return _relocation_cells(rules, state, ladders_first=False)
    points = movement_points(rules, h)
    key = (
        "move",
        h.at,
        points,
        stealth,
        tuple(state.rotations.values()),  # keys never change order within a game
        tuple(state.rotations),
        tuple(state.collapsed),
        tuple(state.ladders),
        tuple(state.fight_markers),
        tuple(x.at for x in state.heroes),
        tuple(state.strigoi.values()),
    )
    memo = rules.memo
    found = memo.get(key)
    if found is None:
        if len(memo) > 256:
            memo.clear()
        found = reachable_on(
            rules.fortress,
            board_state(state),
            h.at,
            points,
            stealth,
            [x.at for x in state.heroes if x.at is not None],
            state.strigoi.values(),
            state.fight_markers,
            through_encounters=False,  # R-MOV-2 Decision: Stealth passes a Strigoi only
        )
        memo[key] = found
    return found  # type: ignore[return-value]


@handles("move", c.Move, c.Stay)
def _move(rules: GameRules, em: Emitter, task: Task, cmd: c.Move | c.Stay) -> None:
    state = em.state
    h = state.hero(cmd.hero)
    _done(em)
    if isinstance(cmd, c.Stay):
        _queue(em, Task(kind="fight_choice", hero=cmd.hero))
        return
    if cmd.stealth and cmd.source not in ability_sources(rules, h, "stealth"):
        raise refuse(cmd, f"{cmd.source!r} gives {cmd.hero} no stealth now")
    if tuple(cmd.to) not in move_options(rules, state, cmd.hero, cmd.stealth):
        raise refuse(cmd, f"{cmd.hero} cannot end a move on {list(cmd.to)}")
    if cmd.stealth:  # R-MOV-4: from the played card or anything else that shows it
        spend_ability(rules, em, cmd, cmd.hero, "stealth", cmd.source)
    to = (cmd.to[0], cmd.to[1])
    em(e.HeroMoved(hero=cmd.hero, to=to))
    feature = rules.fortress.feature(to, board_state(em.state))
    if feature in ("red", "grey") and to not in em.state.fight_markers:  # R-MOV-2
        _queue(em, Task(kind="encounter", hero=cmd.hero, stack=feature))
    else:
        _queue(em, Task(kind="fight_choice", hero=cmd.hero))


# ----- phase 2b: encounters (R-ENC) --------------------------------------------------------------
@handles("encounter", c.Draw, c.EnterDraw)
def _encounter(rules: GameRules, em: Emitter, task: Task, cmd: c.Draw | c.EnterDraw) -> None:
    stack = task.stack or "red"
    physical = stack in rules.options.physical
    if isinstance(cmd, c.EnterDraw) != physical:
        how = "enter the physical token" if physical else "draw digitally"
        raise refuse(cmd, f"the {stack} stack is set to {how}")
    if cmd.stealth is not None:  # R-ENC-6: Stealth from another source, before the flip
        if task.reason == "monk":
            raise refuse(cmd, "the attacked monk's grey monster is fought as drawn (R-ENC-3)")
        if card_icons_left(rules, em.state.hero(cmd.hero), "stealth") > 0:
            raise refuse(cmd, "the played card's Stealth is used first, after the flip")
        if cmd.stealth == "card":
            raise refuse(cmd, "'card' gives no stealth now")
        spend_ability(rules, em, cmd, cmd.hero, "stealth", cmd.stealth)
    token = draw_token(em, rules, stack, cmd.token if isinstance(cmd, c.EnterDraw) else None)
    _done(em)
    em(e.FoughtThisTurn())
    if token is None:  # nothing left to fight: the encounter is void
        return
    if task.reason == "monk":  # the attacked monk's grey monster is fought as drawn
        _queue(em, Task(kind="fight", hero=cmd.hero, stack=stack, token=token))
        return
    _after_flip(rules, em, cmd.hero, stack, token, spent=cmd.stealth is not None)


def _encounter_token(rules: GameRules, stack: str, token: str) -> Any:
    pool = (
        rules.catalog.encounter_tokens.red
        if stack == "red"
        else rules.catalog.encounter_tokens.grey
    )
    return next(t for t in pool if t.id == token)


def _after_flip(
    rules: GameRules, em: Emitter, hero: str, stack: str, token: str, spent: bool
) -> None:
    """After the flip: with Stealth (the played card's icon, or `spent` from another source
    before the flip) the hero decides (R-ENC-6); without it, the monk or the fight."""
    h = em.state.hero(hero)
    info = _encounter_token(rules, stack, token)
    card = not spent and card_icons_left(rules, h, "stealth") > 0
    if info.kind == "monk":
        if card:  # R-ABL Stealth: the monk's gift comes automatically
            em(e.AbilityUsed(hero=hero, ability="stealth"))
        if card or spent:
            em(e.HandRecovered(hero=hero))
        _queue(em, Task(kind="monk", hero=hero, stack=stack, token=token))
    elif card or spent:
        reason = "spent" if spent else None
        _queue(em, Task(kind="stealth_choice", hero=hero, stack=stack, token=token, reason=reason))
    else:
        _queue(em, Task(kind="fight", hero=hero, stack=stack, token=token))


@handles("stealth_choice", c.Fight, c.LeaveMonster)
def _stealth_choice(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    _done(em)
    if task.reason != "spent":  # the played card's icon, used now
        em(e.AbilityUsed(hero=cmd.hero, ability="stealth"))
    if isinstance(cmd, c.LeaveMonster):  # R-ENC-6
        em(e.TokenLeftFaceUp(stack=task.stack or "red", token=task.token or ""))
        em(e.FoughtThisTurn(value=False))
        return
    _resolve_monster_fight(rules, em, task, cmd)


@handles("monk", c.FreeMonk, c.AttackMonk)
def _monk(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    _done(em)
    em(e.TokenDiscarded(stack=task.stack or "red", token=task.token or ""))
    if isinstance(cmd, c.FreeMonk):  # R-ENC-3
        em(e.HandRecovered(hero=cmd.hero))
        _fight_marker(rules, em, cmd.hero)
        return
    # The monk turns into the top grey monster: drawn like any encounter (or entered, physical).
    _queue(em, Task(kind="encounter", hero=cmd.hero, stack="grey", reason="monk"))


@handles("fight", c.Fight)
def _fight(rules: GameRules, em: Emitter, task: Task, cmd: c.Fight) -> None:
    _done(em)
    _resolve_monster_fight(rules, em, task, cmd)


def _spend_rewards(
    rules: GameRules,
    em: Emitter,
    hero: str,
    plays: Iterable[c.RewardPlay],
    ranged: bool,
    cmd: c.Command,
) -> int:
    """Play reward cards and tokens into a fight; their total bonus (R-REW, R-HIT-2)."""
    bonus, spent = _reward_bonus(rules, em.state.hero(hero), plays, ranged, cmd)
    for event in spent:
        em(event)
    return bonus


def _reward_bonus(
    rules: GameRules,
    h: HeroState,
    plays: Iterable[c.RewardPlay],
    ranged: bool,
    cmd: c.Command,
) -> tuple[int, list[e.RewardSpent]]:
    """The bonus of the rewards played and the events spending them; refuses what R-REW forbids."""
    bonus, seen, spent = 0, set(), []
    for play in plays:
        if play.item in seen:
            raise refuse(cmd, f"{play.item!r} is played twice")
        seen.add(play.item)
        card = _reward_card(rules, play.item)
        if card is not None and play.item in h.hand:
            use = card.wild if play.mode == "wild" else card.normal
            if use is None:
                raise refuse(cmd, f"{play.item!r} can only be used in wild mode")
            if ranged and play.mode != "wild":
                raise refuse(cmd, "a ranged attack uses reward cards in wild mode only")
            bonus += use.strength
            spent.append(e.RewardSpent(hero=h.hero, item=play.item, kind="card", mode=play.mode))
            continue
        token = _reward_token(rules, play.item)
        if token is not None and play.item in h.reward_tokens:
            if ranged:
                raise refuse(cmd, "a ranged attack cannot use reward tokens")
            bonus += token.strength
            spent.append(e.RewardSpent(hero=h.hero, item=play.item, kind="token"))
            continue
        raise refuse(cmd, f"{h.hero} has no reward {play.item!r}")
    return bonus, spent


def fight_odds(rules: GameRules, state: GameState, cmd: c.Fight) -> tuple[int, int]:
    """(the hero's strength with the rewards `cmd` plays, the monster's strength) for the
    monster fight the game waits for: the fight helper shows this before the table commits
    (R-ENC-1: the hero wins when the first is at least the second)."""
    task = state.tasks[0] if state.tasks else None
    if task is None or task.kind not in ("fight", "stealth_choice"):
        raise refuse(cmd, "no monster fight is waiting")
    h = state.hero(cmd.hero)
    bonus, _ = _reward_bonus(rules, h, cmd.rewards, False, cmd)
    monster = _encounter_token(rules, task.stack or "red", task.token or "")
    return _card_strength(rules, h) + bonus, monster.strength


def attack_odds(rules: GameRules, state: GameState, cmd: c.AttackStrigoi) -> tuple[int, int]:
    """(the hero's strength with the rewards `cmd` plays, the Strigoi's strength): the hero
    wounds it when the first is at least the second (R-HIT-2, R-HIT-3)."""
    h = state.hero(cmd.hero)
    bonus, _ = _reward_bonus(rules, h, cmd.rewards, cmd.mode == "ranged", cmd)
    return _card_strength(rules, h) + bonus, rules.catalog.strigoi[cmd.strigoi].strength


def _resolve_monster_fight(rules: GameRules, em: Emitter, task: Task, cmd: c.Fight) -> None:
    hero, stack, token = cmd.hero, task.stack or "red", task.token or ""
    info = _encounter_token(rules, stack, token)
    strength = _card_strength(rules, em.state.hero(hero))
    strength += _spend_rewards(rules, em, hero, cmd.rewards, False, cmd)
    em(e.TokenDiscarded(stack=stack, token=token))
    tasks: list[Task] = []
    if strength >= info.strength:  # R-ENC-1
        for reward in info.rewards:
            if reward == "bat":
                _reward(rules, em, hero, "reward_token", tasks)
            elif reward == "axe":
                _reward(rules, em, hero, "reward_card", tasks)
            else:
                _gain_blood(em, f"{hero} defeated {token}")
        _earn(em, rules, hero, stack)
    else:  # R-ENC-2: monsters always deal exactly one wound
        tasks.append(Task(kind="protect", hero=hero, wounds=1, reason=token))
    _wound_icon(rules, em, hero, tasks, cmd.rewards)
    _fight_marker(rules, em, hero, tasks)


#: Recorded in `HeroState.used` once the played card's wound icon has wounded its hero.
WOUND_ICON = "wound_icon"


def _wound_icon(
    rules: GameRules,
    em: Emitter,
    hero: str,
    tasks: list[Task],
    rewards: Iterable[c.RewardPlay] = (),
) -> None:
    """R-WND-3: a wound icon wounds the fighting hero, unblockable. The played card's icon once
    per round (a counterattack is a fight too: Decision); a reward card's whenever it is used
    in a fight."""
    h = em.state.hero(hero)
    wounds = 0
    card = played_card(rules, h)
    if card is not None and card.wound_icon and WOUND_ICON not in h.used:
        em(e.AbilityUsed(hero=hero, ability=WOUND_ICON))
        wounds += 1
    for play in rewards:
        reward = _reward_card(rules, play.item)
        wounds += reward is not None and reward.wound_icon
    if wounds:
        tasks.append(
            Task(kind="protect", hero=hero, wounds=wounds, protectable=False, reason="own")
        )


def _fight_marker(
    rules: GameRules, em: Emitter, hero: str, tasks: list[Task] | None = None
) -> None:
    """R-ENC-4: a fight marker on the hero's space; all six out: take one elsewhere."""
    state = em.state
    tasks = tasks if tasks is not None else []
    at = state.hero(hero).at
    if at is not None and at not in state.fight_markers:
        if len(state.fight_markers) < FIGHT_MARKERS:
            em(e.FightMarkerPlaced(cell=at))
        else:
            room = rules.fortress.room_at(at)
            others = {h.at for h in state.heroes if h.hero != hero}
            allowed = [
                m
                for m in state.fight_markers
                if rules.fortress.room_at(m) != room and m not in others
            ] or list(state.fight_markers)
            tasks.append(Task(kind="marker", hero=hero, cells=allowed))
    if tasks:
        _queue(em, *tasks)


def _settle_cell(em: Emitter, task: Task, cell: Cell) -> None:
    """Finish a "choose one of these cells" task: relocate the hero or move a fight marker."""
    hero = task.hero or ""
    if task.kind == "relocate":
        em(e.HeroMoved(hero=hero, to=cell))  # placed, then the task is done
        _done(em)
        return
    _done(em)
    at = em.state.hero(hero).at
    if at is not None:
        em(e.FightMarkerPlaced(cell=at, taken_from=cell))


def cell_choices(rules: GameRules, state: GameState, task: Task) -> list[Cell]:
    """The cells a relocate or marker task offers now. A relocation's places were listed when it
    was queued; one taken since (by another hero placed first) is no longer offered, and when
    none is left the choice is made again, so nobody is left off the board (R-LOS-4)."""
    if task.kind != "relocate":
        return list(task.cells)
    taken = _taken(rules, state)
    board = board_state(state)  # a ladder destroyed since is no place any more
    free = [x for x in task.cells if x not in taken and rules.fortress.is_space(x, board)]
    return free or _relocation_cells(rules, state, ladders_first=False)


@handles("marker", c.PlaceFightMarker)
@handles("relocate", c.Relocate)
def _choose_cell(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    raw = cmd.take_from if isinstance(cmd, c.PlaceFightMarker) else cmd.to
    cell = (raw[0], raw[1])
    cells = cell_choices(rules, em.state, task)
    if cell not in cells:
        raise refuse(cmd, f"choose one of {[list(x) for x in cells]}")
    _settle_cell(em, task, cell)


def _nighttime_rebel(rules: GameRules, em: Emitter, hero: str) -> None:
    """R-ADV-2: when a player gets a third reward card, the one with fewest gets the Rebel."""
    state = em.state
    count = {h.hero: sum(1 for x in h.hand if _reward_card(rules, x)) for h in state.heroes}
    if count[hero] != 3 or len(state.heroes) < 2:
        return
    others = [h for h in state.heroes if h.hero != hero]
    fewest = min(
        others,
        key=lambda h: (count[h.hero], ((card := played_card(rules, h)) and card.initiative) or 0),
    )
    _earn(em, rules, fewest.hero, "fewest_reward_cards_when_another_gets_third")


# ----- phase 2b: fighting a Strigoi (R-HIT) ------------------------------------------------------
def strigoi_targets(rules: GameRules, state: GameState, hero: str) -> list[tuple[str, str]]:
    """(strigoi, melee|ranged) the hero may attack now: enough blood, adjacent or in sight."""
    if state.altar < ALTAR_NEEDED[state.players] or not state.strigoi:
        return []
    h = state.hero(hero)
    if h.at is None:
        return []
    view = situation(rules, state)
    board = view.board
    occupants = view.occupants(rules.fortress)
    occupants.pop(h.at, None)
    found: list[tuple[str, str]] = []
    for name, room in state.strigoi.items():
        centre = rules.fortress.centre(room)
        d = direction_between(h.at, centre)
        if d is not None and rules.fortress.is_open(h.at, d, board):
            found.append((name, "melee"))
        for d in range(6):
            seen = first_on_ray(rules.fortress, board, occupants, h.at, d)
            if seen is not None and seen.figure == f"strigoi:{name}":
                found.append((name, "ranged"))
                break
    return found


@handles("fight_choice", c.AttackStrigoi, c.SkipFight)
@handles("counterattack", c.AttackStrigoi, c.SkipFight)
def _attack_strigoi(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    if isinstance(cmd, c.SkipFight):
        _done(em)
        return
    allowed = strigoi_targets(rules, em.state, cmd.hero)
    if (cmd.strigoi, cmd.mode) not in allowed:
        raise refuse(cmd, f"{cmd.hero} cannot attack {cmd.strigoi} in {cmd.mode} now")
    if task.kind == "counterattack" and cmd.strigoi != task.strigoi:
        raise refuse(cmd, f"a counterattack answers {task.strigoi}")
    _done(em)
    em(e.FoughtThisTurn())
    hero = cmd.hero
    strength = _card_strength(rules, em.state.hero(hero))
    strength += _spend_rewards(rules, em, hero, cmd.rewards, cmd.mode == "ranged", cmd)
    tasks: list[Task] = []
    values = rules.catalog.strigoi[cmd.strigoi]
    if strength >= values.strength:  # R-HIT-3
        em(e.StrigoiWounded(strigoi=cmd.strigoi, hero=hero))
        if em.state.strigoi_wounds[cmd.strigoi] >= values.existence:
            other = next((s for s in em.state.strigoi if s != cmd.strigoi), None)
            em(e.StrigoiDestroyed(strigoi=cmd.strigoi, supreme=other))
            _earn(em, rules, hero, "destroyed_first_strigoi")
        elif cmd.strigoi == "supreme":
            _collapse(rules, em, hero)
    _wound_icon(rules, em, hero, tasks, cmd.rewards)
    if tasks:
        _queue(em, *tasks)


def _collapse(rules: GameRules, em: Emitter, hero: str) -> None:
    """R-COL: the letter of the wounding hero's card, read on the centre room's books."""
    card = played_card(rules, em.state.hero(hero))
    if card is None:
        return
    fall = collapse(rules.fortress, situation(rules, em.state), card.letter)
    if fall.room is None:
        return
    room = fall.room
    platform = rules.fortress.platforms[room].cells
    victims = [h for h in sorted(em.state.heroes, key=lambda h: h.seat) if h.at in platform]
    # the heroes on the falling platform escape or fall (R-COL-2), asked with the collapse itself
    # so no state shows them on a fallen platform unasked
    escapes = [Task(kind="escape", hero=h.hero, room=room) for h in victims]
    if escapes:
        _queue(em, *escapes)
    em(e.PlatformCollapsed(room=room))
    if fall.strigoi_moved_to is not None:
        # R-COL-3 Decision: a hero on the centre the Supreme moves to steps off to a free ladder
        # (else stairs) of the player's choice, without wound or blood loss.
        centre = rules.fortress.centre(fall.strigoi_moved_to)
        for h in [h for h in em.state.heroes if h.at == centre]:
            _queue(em, _relocate_task(rules, em.state, h.hero, ladders_first=True))
            em(e.HeroMoved(hero=h.hero, to=None))
        for name, where in list(em.state.strigoi.items()):
            if where == room:
                em(e.StrigoiMoved(strigoi=name, room=fall.strigoi_moved_to))


def leap_cells(rules: GameRules, state: GameState, room: str) -> list[Cell]:
    """R-COL-2: free non-encounter spaces of the room whose platform just collapsed."""
    return _free_room_spaces(rules, state, {room})


def leap_sources(rules: GameRules, hero: HeroState) -> list[str]:
    """R-COL-2: the played card's Leap, or a card or token with Leap discarded to escape."""
    return list(dict.fromkeys(ability_sources(rules, hero, "leap", discard=True)))


@handles("escape", c.Leap, c.Fall)
def _escape(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    room = task.room or ""
    if isinstance(cmd, c.Leap):  # R-COL-2
        to = (cmd.to[0], cmd.to[1])
        if to not in leap_cells(rules, em.state, room):
            raise refuse(cmd, f"{list(to)} is not a free space of {room}")
        spend_ability(rules, em, cmd, cmd.hero, "leap", cmd.source, discard=True)
        em(e.HeroMoved(hero=cmd.hero, to=to))
        _done(em)
        return
    _lose_blood(em, f"{cmd.hero} fell with the platform of {room}")
    relocate = _relocate_task(rules, em.state, cmd.hero, ladders_first=False)
    em(e.TaskDone(kind="escape", then=[relocate]))
    em(e.HeroMoved(hero=cmd.hero, to=None))


# ----- phase 2c: the Strigoi step (R-TEL, R-LOS) -------------------------------------------------
def _abilities_left(rules: GameRules, state: GameState) -> bool:
    """Whether the active hero could still use an ability this turn (R-ABL "When")."""
    from companion.engine.game.legal import turn_abilities  # legal is built on this module

    active = state.active_hero
    return active is not None and bool(turn_abilities(rules, state, state.hero(active)))


def _supreme_steps(em: Emitter) -> None:
    """The Supreme moves without a token (R-TEL-1); with no Strigoi on the board, nothing does."""
    if "supreme" in em.state.strigoi:
        _queue(em, Task(kind="strigoi_resolve", strigoi="supreme"))


@handles("abilities", c.Proceed)
def _proceed(rules: GameRules, em: Emitter, task: Task, cmd: c.Proceed) -> None:
    """No more abilities: on to the Supreme's step or the end of the turn."""
    _done(em)
    _supreme_steps(em)


@handles("strigoi", c.Draw, c.EnterDraw)
def _strigoi_token(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
    if cmd.hero != em.state.active_hero:
        raise refuse(cmd, f"{em.state.active_hero} draws the Strigoi token")
    if cmd.stealth is not None:
        raise refuse(cmd, "Stealth is for encounters (R-ENC-6)")
    if "supreme" in em.state.strigoi or not em.state.strigoi:
        raise refuse(cmd, "no Strigoi action token is drawn now (R-TEL-1)")
    physical = "strigoi" in rules.options.physical
    if isinstance(cmd, c.EnterDraw) != physical:
        raise refuse(cmd, "the strigoi stack is set to " + ("physical" if physical else "digital"))
    token = draw_token(em, rules, "strigoi", cmd.token if isinstance(cmd, c.EnterDraw) else None)
    _done(em)
    if token is None:
        return
    em(e.TokenDiscarded(stack="strigoi", token=token))
    info = rules.catalog.strigoi_token(token)
    if info.strigoi in em.state.strigoi:
        _queue(em, Task(kind="strigoi_resolve", strigoi=info.strigoi, wounds=info.bonus))


def strigoi_step_now(
    rules: GameRules, state: GameState, strigoi: str, bonus: int
) -> StrigoiStep | None:
    """The Strigoi step a drawn token starts in `state` (R-TEL, R-LOS): the active hero's card
    letter, the token's bonus. None when no card is played or that Strigoi is not on the board.
    The app calls it too, to announce the step in the engine's own words."""
    active = state.active_hero
    card = played_card(rules, state.hero(active)) if active is not None else None
    if card is None or strigoi not in state.strigoi:
        return None
    return strigoi_step(
        rules.fortress,
        situation(rules, state),
        strigoi,
        card.letter,
        bonus,
        rules.catalog.damage(),
        rules.options.rules,
    )


def _strigoi_resolve(rules: GameRules, em: Emitter, task: Task) -> None:
    _done(em)
    name = task.strigoi or ""
    step = strigoi_step_now(rules, em.state, name, task.wounds)
    if step is None:
        return
    attack = step.attack
    tasks: list[Task] = []
    if attack is not None:
        tasks.append(
            Task(
                kind="protect",
                hero=attack.hero,
                wounds=attack.wounds,
                protectable=attack.protectable,
                attacker=name,
            )
        )
    # R-LOS-4: a landed-on hero goes to a free ladder (else stairs); R-TEL-4: a destroyed ladder's
    # hero to any free ladder or stairs. Placed before the counterattack, which the R-LOS-4
    # Decision allows from the new space.
    ladders_first = step.ladder_destroyed is None
    tasks += [_relocate_task(rules, em.state, x, ladders_first) for x in step.relocate]
    if attack is not None:
        tasks.append(Task(kind="counterattack", hero=attack.hero, strigoi=name))
    if tasks:  # asked first: no state shows a hero off the board that nobody is asked to place
        _queue(em, *tasks)
    for hero in step.relocate:  # off the board until placed: never two figures on a space
        em(e.HeroMoved(hero=hero, to=None))
    if step.teleport.moved:
        em(e.StrigoiMoved(strigoi=name, room=step.teleport.to))
    if step.ladder_destroyed is not None:
        em(e.LadderDestroyed(ladder=step.ladder_destroyed))
    for _ in range(step.blood_lost):
        _lose_blood(em, f"{name}'s step")
    if attack is not None:
        em(
            e.StrigoiAttacked(
                strigoi=name,
                hero=attack.hero,
                wounds=attack.wounds,
                protectable=attack.protectable,
                distance=attack.distance,
            )
        )
        em(e.AttackMarker(on=True))  # R-LOS-3


@handles("strigoi_resolve")
def _unused(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:  # pragma: no cover
    raise refuse(cmd, "automatic")


# ----- wounds (R-WND) and protection (R-ABL) -----------------------------------------------------
@handles("protect", c.Protect)
def _protect(rules: GameRules, em: Emitter, task: Task, cmd: c.Protect) -> None:
    h = em.state.hero(cmd.hero)
    if cmd.sources and not task.protectable:
        raise refuse(cmd, "these wounds cannot be blocked")
    if len(cmd.sources) > task.wounds:
        raise refuse(cmd, f"only {task.wounds} wound(s) to block")
    available = protection_sources(rules, h)
    items = [source_item(x) for x in cmd.sources if x != "card"]
    if len(items) != len(set(items)):
        raise refuse(cmd, "each card or token blocks one wound once")
    for source in cmd.sources:
        if source not in available:
            raise refuse(cmd, f"{source!r} offers no Protection to {cmd.hero}")
        available.remove(source)
    _done(em)
    for source in cmd.sources:
        spend_ability(rules, em, cmd, cmd.hero, "protection", source)
    left = task.wounds - len(cmd.sources)
    if left:
        kind = "wound_draw" if "wound" in rules.options.physical else "wounds"
        _queue(em, Task(kind=kind, hero=cmd.hero, wounds=left, attacker=task.attacker))


def _take_wound(
    rules: GameRules, em: Emitter, hero: str, token: str, attacker: str | None
) -> tuple[bool, bool]:
    """One drawn wound token (R-WND-1, R-WND-2): (the hero is defeated, it was a Shock)."""
    em(e.WoundTaken(hero=hero, token=token))
    if attacker is not None:
        _earn(em, rules, hero, "first_wounded_by_strigoi")
    if _wound_value(rules, em.state.hero(hero)) >= WOUNDS_TO_DEFEAT:
        em(e.HeroDefeated(hero=hero, tokens=list(em.state.hero(hero).wounds)))
        _lose_blood(em, f"{hero} took a third wound")
        _earn(em, rules, hero, "first_hero_defeated")
        # R-ADV-2: the player whose card moved the Strigoi; in a curse, the player who went
        # first, whose card the curse used (Decision)
        state = em.state
        active = state.turn_order[0] if state.phase == "curse" else state.active_hero
        if attacker is not None and active is not None and active != hero:
            _earn(em, rules, active, "card_let_strigoi_deal_comrades_third_wound")
        return True, False
    return False, rules.catalog.wound(token).effect == "shock"


def _wounds(rules: GameRules, em: Emitter, task: Task) -> None:
    """Draw one wound token per unblocked wound; the third wound ends the drawing (R-WND-2)."""
    hero = task.hero or ""
    _done(em)
    shocks: list[Task] = []
    for _ in range(task.wounds):
        token = draw_token(em, rules, "wound", None)
        if token is None:
            break
        defeated, shock = _take_wound(rules, em, hero, token, task.attacker)
        if defeated:
            shocks = []
            break
        if shock:
            shocks.append(Task(kind="shock", hero=hero))
    if shocks:
        _queue(em, *shocks)


@handles("wound_draw", c.EnterDraw)
def _wound_draw(rules: GameRules, em: Emitter, task: Task, cmd: c.EnterDraw) -> None:
    """Physical wound tokens: the table draws one per unblocked wound and enters it."""
    hero = task.hero or ""
    token = draw_token(em, rules, "wound", cmd.token)
    _done(em)
    assert token is not None
    defeated, shock = _take_wound(rules, em, hero, token, task.attacker)
    if defeated:
        return
    tasks = []
    if task.wounds > 1:
        tasks.append(
            Task(kind="wound_draw", hero=hero, wounds=task.wounds - 1, attacker=task.attacker)
        )
    if shock:
        tasks.append(Task(kind="shock", hero=hero))
    if tasks:
        _queue(em, *tasks)


def _reward(rules: GameRules, em: Emitter, hero: str, stack: str, tasks: list[Task]) -> None:
    """Draw a reward token or card for `hero` now (digital) or ask the table (physical)."""
    if stack in rules.options.physical:
        if em.state.stacks[stack].draw or (
            stack == "reward_token" and em.state.stacks[stack].discard
        ):
            tasks.append(Task(kind="reward_draw", hero=hero, stack=stack))
        return
    item = draw_token(em, rules, stack, None)
    if item:
        em(e.RewardTaken(hero=hero, stack=stack, item=item))  # type: ignore[arg-type]
        if stack == "reward_card":
            _nighttime_rebel(rules, em, hero)


@handles("reward_draw", c.EnterDraw)
def _reward_draw(rules: GameRules, em: Emitter, task: Task, cmd: c.EnterDraw) -> None:
    stack = task.stack or "reward_token"
    item = draw_token(em, rules, stack, cmd.token)
    _done(em)
    assert item is not None
    em(e.RewardTaken(hero=cmd.hero, stack=stack, item=item))  # type: ignore[arg-type]
    if stack == "reward_card":
        _nighttime_rebel(rules, em, cmd.hero)


@handles("shock", c.DiscardForShock, c.Protect)
def _shock(rules: GameRules, em: Emitter, task: Task, cmd: c.DiscardForShock | c.Protect) -> None:
    """R-WND-1 Shock: discard a hand card to the played pile, or block the Shock with one
    Protection (R-ABL: Protection blocks one wound or one Shock)."""
    if isinstance(cmd, c.Protect):
        if len(cmd.sources) != 1:
            raise refuse(cmd, "one Protection blocks the Shock")
        _done(em)
        spend_ability(rules, em, cmd, cmd.hero, "protection", cmd.sources[0])
        return
    if cmd.card not in em.state.hero(cmd.hero).hand:
        raise refuse(cmd, f"{cmd.card!r} is not in {cmd.hero}'s hand")
    _done(em)
    em(e.CardPlayed(hero=cmd.hero, card=cmd.card, reason="shock"))


# ----- end of turn, phase 3, end of round (R-RND-3, R-RND-4, R-CUR) ------------------------------
def _end_turn(rules: GameRules, em: Emitter, task: Task) -> None:
    state = em.state
    _done(em)
    for h in state.heroes:  # R-ADV: earned cards join the hand at the end of the turn
        if h.pending:
            em(e.AdvancedJoined(hero=h.hero))
    if state.active + 1 < len(state.turn_order):
        em(e.PhaseChanged(phase="turns", round=state.round, active=state.active + 1))
        _queue(em, Task(kind="start_turn"))
        return
    if state.attack_marker or not state.strigoi:
        _queue(em, Task(kind="end_round"))
    else:
        em(e.PhaseChanged(phase="curse", round=state.round, active=0))
        _queue(em, Task(kind="curse"), Task(kind="end_round"), front=False)


def _curse(rules: GameRules, em: Emitter, task: Task) -> None:
    state = em.state
    _done(em)
    first = state.hero(state.turn_order[0])
    card = played_card(rules, first)
    if card is None:
        return
    try:
        name = cursing_strigoi(situation(rules, state))
    except IllegalCommand:
        return
    result = curse(rules.fortress, situation(rules, state), card.letter, rules.options.rules)
    landed = set(result.relocate) if result.teleport.moved else set()
    by_seat = sorted(result.cursed, key=lambda x: state.hero(x).seat)
    tasks = [
        # R-CUR Decision: the hero on the landing centre is cursed without protection
        Task(kind="protect", hero=x, wounds=1, attacker=name, protectable=x not in landed)
        for x in by_seat
    ]
    ladders_first = result.ladder_destroyed is None  # as in R-LOS-4 / R-TEL-4
    tasks += [_relocate_task(rules, em.state, x, ladders_first) for x in result.relocate]
    if tasks:  # asked before the heroes are taken off the board
        _queue(em, *tasks)
    for hero in result.relocate:  # off the board until placed
        em(e.HeroMoved(hero=hero, to=None))
    if result.teleport.moved:
        em(e.StrigoiMoved(strigoi=name, room=result.teleport.to))
        em(e.CurseCast(strigoi=name, room=result.teleport.to, heroes=list(result.cursed)))
    if result.ladder_destroyed is not None:
        em(e.LadderDestroyed(ladder=result.ladder_destroyed))
    for _ in range(result.blood_lost):
        _lose_blood(em, f"{name}'s curse")


def _end_round(rules: GameRules, em: Emitter, task: Task) -> None:
    state = em.state
    _done(em)
    for h in state.heroes:  # R-ABL Destruction: the card leaves the game after use
        for card in list(h.played):
            if rules.is_action(card) and "destruction" in rules.card(card).abilities:
                em(e.CardRemoved(hero=h.hero, card=card))
    em(e.RoundEnded(round=state.round))
    for h in state.heroes:  # R-RND-4: an empty hand takes the discard pile back
        if not any(rules.is_action(x) for x in h.hand) and h.discard:
            em(e.HandRecovered(hero=h.hero))
    new_round = state.round + 1
    em(e.PhaseChanged(phase="initiative", round=new_round, active=0))
    if new_round == 2 and not state.strigoi and not state.destroyed:  # R-SET-3
        marked = sorted(r.id for r in rules.fortress.rooms.values() if r.strigoi_start)
        if len(marked) >= 2:
            rooms = marked[:2]
            em.random().shuffle(rooms)
            # Decision (R-SET-3): a hero standing on a starting centre steps off to a ladder or
            # stairs of their choice (as in R-LOS-4, but no attack and no blood point is lost).
            centres = {rules.fortress.centre(room) for room in rooms}
            displaced = [h.hero for h in state.heroes if h.at in centres]
            for hero in displaced:
                _queue(em, _relocate_task(rules, em.state, hero, ladders_first=True), front=False)
                em(e.HeroMoved(hero=hero, to=None))
            em(
                e.StrigoiPlaced(strigoi="master", room=rooms[0]),
                e.StrigoiPlaced(strigoi="apprentice", room=rooms[1]),
            )
    _queue(em, Task(kind="choose"), front=False)


AUTO: dict[str, Callable[[GameRules, Emitter, Task], None]] = {
    "start_turn": _start_turn,
    "strigoi_resolve": _strigoi_resolve,
    "wounds": _wounds,
    "end_turn": _end_turn,
    "curse": _curse,
    "end_round": _end_round,
}


# ----- abilities used during the own turn (R-ABL) ------------------------------------------------
#: R-ABL "When": any time in the own turn except during a fight: before the move, after it, and
#: after the fight until the Strigoi token is flipped (the "strigoi" task), or until the hero
#: says Proceed when no token is drawn (the "abilities" task: the Supreme, or round 1).
OWN_TURN = ("move", "fight_choice", "strigoi", "abilities")
#: During a fight only reward cards and tokens act (R-ABL); Pack and Leap never avoid a fight,
#: so they are not offered there (Decision: they would move the hero out of it).
IN_FIGHT = ("fight", "stealth_choice", "counterattack")


def _active_only(fn: Handler) -> Handler:
    """The "strigoi" task names no hero: only the active hero acts in it."""

    def checked(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
        if cmd.hero != em.state.active_hero:
            raise refuse(cmd, f"it is {em.state.active_hero}'s turn")
        fn(rules, em, task, cmd)

    return checked


def _rewards_only(fn: Handler) -> Handler:
    """In a fight: an ability from a reward card or token, in the hero's own turn."""

    def checked(rules: GameRules, em: Emitter, task: Task, cmd: Any) -> None:
        source = getattr(cmd, "source", "card")
        if not is_reward_source(rules, em.state.hero(cmd.hero), source):
            raise refuse(cmd, "during a fight only reward cards and tokens act (R-ABL)")
        if cmd.hero != em.state.active_hero:
            raise refuse(cmd, "reward abilities act in the own turn (R-ABL)")
        fn(rules, em, task, cmd)

    return checked


def is_reward_source(rules: GameRules, hero: HeroState, source: str) -> bool:
    """A reward card in the hand ("<card>:normal|wild") or a reward token."""
    return ":" in source or source in hero.reward_tokens


def _own_turn(*types: type, in_fight: bool = False) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for kind in OWN_TURN:
            handles(kind, *types)(_active_only(fn) if kind == "strigoi" else fn)
        if in_fight:
            for kind in IN_FIGHT:
                handles(kind, *types)(_rewards_only(fn))
        return fn

    return register


def platform_turned(
    rules: GameRules, state: GameState, room: str, rotation: int
) -> e.PlatformRotated:
    """The platform of `room` turned to `rotation`, the figures and fight markers on it turning
    with it and keeping their place on it (R-ABL Mechanics): each moves about the centre by
    the same sixth-turns as the platform. The Strigoi on the centre stays where it is."""
    fortress = rules.fortress
    turn = (rotation - state.rotations[room]) % 6
    cells = fortress.platforms[room].cells
    centre = fortress.centre(room)

    def turned(cell: Cell) -> Cell:
        return add(rotate(sub(cell, centre), turn), centre)

    return e.PlatformRotated(
        room=room,
        rotation=rotation,
        carried=[(h.hero, turned(h.at)) for h in state.heroes if h.at in cells and turn],
        markers=[(m, turned(m)) for m in state.fight_markers if m in cells and turn],
    )


@_own_turn(c.UseMechanics, in_fight=True)
def _mechanics(rules: GameRules, em: Emitter, task: Task, cmd: c.UseMechanics) -> None:
    if cmd.room not in rules.fortress.platforms or cmd.room in em.state.collapsed:
        raise refuse(cmd, f"{cmd.room!r} has no platform to turn")
    if not 0 <= cmd.rotation <= 5:
        raise refuse(cmd, "rotation must be 0-5")
    spend_ability(rules, em, cmd, cmd.hero, "mechanics", cmd.source)
    em(platform_turned(rules, em.state, cmd.room, cmd.rotation))


def healed_heroes(rules: GameRules, state: GameState, healer: str) -> list[HeroState]:
    """R-ABL Heal: every injured hero in the healer's room, in seat order. Ladders are in no
    room: a healer on a ladder heals only himself."""
    at = state.hero(healer).at
    if at is None:
        return []
    room = rules.fortress.room_at(at)
    return [
        h
        for h in sorted(state.heroes, key=lambda x: x.seat)
        if h.wounds
        and h.at is not None
        and (h.hero == healer if room is None else rules.fortress.room_at(h.at) == room)
    ]


@_own_turn(c.UseHeal, in_fight=True)
def _heal(rules: GameRules, em: Emitter, task: Task, cmd: c.UseHeal) -> None:
    h = em.state.hero(cmd.hero)
    if h.at is None:
        raise refuse(cmd, f"{cmd.hero} is not on the board")
    healed = healed_heroes(rules, em.state, cmd.hero)
    names = {x.hero for x in healed}
    for hero, token in cmd.tokens.items():
        if hero not in names:
            raise refuse(cmd, f"{hero} is not an injured hero in {cmd.hero}'s room")
        if token not in em.state.hero(hero).wounds:
            raise refuse(cmd, f"{hero} has no wound {token!r}")
    spend_ability(rules, em, cmd, cmd.hero, "heal", cmd.source)
    for other in healed:  # one wound token each, the one the player chose
        em(e.WoundRemoved(hero=other.hero, token=cmd.tokens.get(other.hero, other.wounds[0])))


@_own_turn(c.UseRecovery, in_fight=True)
def _recovery(rules: GameRules, em: Emitter, task: Task, cmd: c.UseRecovery) -> None:
    spend_ability(rules, em, cmd, cmd.hero, "recovery", cmd.source)
    if em.state.hero(cmd.hero).discard:
        em(e.HandRecovered(hero=cmd.hero))


@_own_turn(c.UseGatesOfHell, in_fight=True)
def _gates(rules: GameRules, em: Emitter, task: Task, cmd: c.UseGatesOfHell) -> None:
    spend_ability(rules, em, cmd, cmd.hero, "gates_of_hell", cmd.source)
    em(e.FightMarkersCleared())


@_own_turn(c.UseRetrieval)
@handles("fight", c.UseRetrieval)
@handles("counterattack", c.UseRetrieval)
def _retrieval(rules: GameRules, em: Emitter, task: Task, cmd: c.UseRetrieval) -> None:
    h = em.state.hero(cmd.hero)
    if cmd.card not in h.discard or _reward_card(rules, cmd.card) is None:
        raise refuse(cmd, f"{cmd.card!r} is not a reward card in {cmd.hero}'s discard pile")
    spend_ability(rules, em, cmd, cmd.hero, "retrieval", cmd.source)
    em(e.CardRetrieved(hero=cmd.hero, card=cmd.card))


def pack_cells(rules: GameRules, state: GameState, hero: str) -> list[Cell]:
    """R-ABL Pack: empty spaces, not encounter spaces, in a room where another hero stands."""
    rooms = {
        rules.fortress.room_at(h.at) for h in state.heroes if h.hero != hero and h.at is not None
    }
    return _free_room_spaces(rules, state, rooms - {None})


def own_room_leap_cells(rules: GameRules, state: GameState, hero: str) -> list[Cell]:
    """R-ABL Leap: any free space of the own room (platform included), no encounter, no ladder."""
    at = state.hero(hero).at
    room = rules.fortress.room_at(at) if at is not None else None
    return [] if room is None else _free_room_spaces(rules, state, {room})


def _free_room_spaces(rules: GameRules, state: GameState, rooms: set[str | None]) -> list[Cell]:
    tables = rules.fortress.tables(board_state(state))
    taken = _taken(rules, state)
    return sorted(
        cell
        for room in rooms
        if room is not None
        for cell in tables.room_spaces.get(room, ())
        if cell not in taken and cell not in tables.encounters
    )


@_own_turn(c.UsePack, c.UseLeap)
def _jump(rules: GameRules, em: Emitter, task: Task, cmd: c.UsePack | c.UseLeap) -> None:
    """Pack: next to a comrade; Leap: within the own room (R-ABL). Neither ends the move."""
    to = (cmd.to[0], cmd.to[1])
    if isinstance(cmd, c.UsePack):
        ability, cells, where = "pack", pack_cells, "free space in a room with another hero"
    else:
        ability, cells, where = "leap", own_room_leap_cells, "free, non-encounter space of the room"
    if to not in cells(rules, em.state, cmd.hero):
        raise refuse(cmd, f"{list(to)} is no {where}")
    spend_ability(rules, em, cmd, cmd.hero, ability, cmd.source)
    em(e.HeroMoved(hero=cmd.hero, to=to))


def swap_partners(rules: GameRules, state: GameState, hero: str) -> list[str]:
    """R-REW-3: heroes on spaces adjacent to `hero`'s (an open edge between them)."""
    at = state.hero(hero).at
    if at is None:
        return []
    around = rules.fortress.adjacency(board_state(state)).get(at, ())
    return [h.hero for h in state.heroes if h.hero != hero and h.at in around]


@_own_turn(c.SwapRewards)
def _swap(rules: GameRules, em: Emitter, task: Task, cmd: c.SwapRewards) -> None:
    if cmd.other not in swap_partners(rules, em.state, cmd.hero):
        raise refuse(cmd, f"{cmd.other} is not on a space next to {cmd.hero}")
    for owner, cards in ((cmd.hero, cmd.give), (cmd.other, cmd.take)):
        hand = em.state.hero(owner).hand
        if any(_reward_card(rules, x) is None or x not in hand for x in cards):
            raise refuse(cmd, f"only reward cards in {owner}'s hand can be swapped")
    if not cmd.give and not cmd.take:
        raise refuse(cmd, "nothing to swap")
    em(e.RewardCardsSwapped(hero=cmd.hero, other=cmd.other, give=cmd.give, take=cmd.take))


REBEL = "nighttime-rebel"


@_own_turn(c.RebelDraw)
def _rebel(rules: GameRules, em: Emitter, task: Task, cmd: c.RebelDraw) -> None:
    if REBEL not in em.state.hero(cmd.hero).hand:
        raise refuse(cmd, f"{cmd.hero} holds no Nighttime Rebel")
    em(e.CardRemoved(hero=cmd.hero, card=REBEL))
    tasks: list[Task] = []
    _reward(rules, em, cmd.hero, "reward_card", tasks)
    if tasks:
        _queue(em, *tasks)


# ----- manual corrections ------------------------------------------------------------------------
def _correct(rules: GameRules, em: Emitter, cmd: c.Command) -> None:
    state = em.state
    if isinstance(cmd, c.SetHeroPosition):
        if cmd.hero not in {h.hero for h in state.heroes}:
            raise refuse(cmd, f"{cmd.hero!r} is not playing")
        to = None if cmd.to is None else (cmd.to[0], cmd.to[1])
        if to is not None and not rules.fortress.is_space(to, board_state(state)):
            raise refuse(cmd, f"{list(to)} is not a space")
        em(e.HeroMoved(hero=cmd.hero, to=to, manual=True))
    elif isinstance(cmd, c.SetBlood):
        if not (0 <= cmd.altar <= ALTAR_MAX and cmd.inferno >= 0 and cmd.altar + cmd.inferno <= 14):
            raise refuse(cmd, "the Altar holds 0-5 and the 14 blood points are not exceeded")
        em(e.BloodSet(altar=cmd.altar, inferno=cmd.inferno))
    elif isinstance(cmd, c.AddWound):
        if "wound" in rules.options.physical and cmd.token is None:
            raise refuse(cmd, "the wound tokens are physical: say which token")
        token = draw_token(em, rules, "wound", cmd.token)
        if token is None:
            raise refuse(cmd, "no wound token left")
        em(e.WoundTaken(hero=cmd.hero, token=token))
    elif isinstance(cmd, c.RemoveWound):
        if cmd.token not in state.hero(cmd.hero).wounds:
            raise refuse(cmd, f"{cmd.hero} has no wound {cmd.token!r}")
        em(e.WoundRemoved(hero=cmd.hero, token=cmd.token))
    elif isinstance(cmd, c.SetStrigoiPosition):
        if cmd.strigoi not in state.strigoi:
            raise refuse(cmd, f"{cmd.strigoi!r} is not on the board")
        if cmd.room not in rules.fortress.rooms:
            raise refuse(cmd, f"unknown room {cmd.room!r}")
        centre = rules.fortress.centre(cmd.room)
        if any(h.at == centre for h in state.heroes) or cmd.room in state.strigoi.values():
            raise refuse(cmd, f"the centre of {cmd.room} is taken")
        em(e.StrigoiMoved(strigoi=cmd.strigoi, room=cmd.room))
    elif isinstance(cmd, c.SetRotation):
        if cmd.room not in rules.fortress.platforms or not 0 <= cmd.rotation <= 5:
            raise refuse(cmd, "a platform room and a rotation 0-5")
        # the figures on the table rode the platform when it turned (bumped or turned by hand)
        em(platform_turned(rules, state, cmd.room, cmd.rotation))
