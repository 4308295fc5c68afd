"""Questions the rules ask about a state, answered without changing it: what a hero's card and
wounds give, where abilities can come from, where a hero may go, whom a hero can attack.

The task modules in `rules/` use these both to apply a command and to list the legal ones, so
the two can never disagree (python-chess's habit). The app asks some of them too (fight odds,
the Strigoi step a token would start)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.components import EncounterToken, RewardCard, RewardToken
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import (
    ALTAR_NEEDED,
    GameRules,
    board_state,
    played_card,
    situation,
)
from companion.engine.game.emitter import refuse
from companion.engine.game.state import Cell, GameState, HeroState
from companion.engine.game.tasks import FightTask, MarkerTask, RelocateTask, StealthChoiceTask
from companion.engine.hexgrid import add, direction_between, rotate, sub
from companion.engine.movement import reachable_on
from companion.engine.sight import first_on_ray
from companion.engine.strigoi import StrigoiStep, strigoi_step

#: Abilities a hero may also get by discarding an action card showing them (R-MOV-4, R-ENC-6,
#: R-LOS-2); other icons on action cards work only on the played card ("each turn, they use only
#: the Abilities shown on the card they played"), except Leap to escape a collapse (R-COL-2).
DISCARDABLE = ("protection", "stealth")


# ----- the played card and the wounds ------------------------------------------------------------
def penalty(rules: GameRules, hero: HeroState, effect: str) -> int:
    """What the hero's wound tokens take off `effect` (movement, strength) (R-WND-1)."""
    wounds = [rules.catalog.wound(w) for w in hero.wounds]
    return sum(w.penalty for w in wounds if w.effect == effect)


def card_strength(rules: GameRules, hero: HeroState) -> int:
    card = played_card(rules, hero)
    return max(0, (card.strength if card else 0) - penalty(rules, hero, "strength"))


def movement_points(rules: GameRules, hero: HeroState) -> int:
    card = played_card(rules, hero)
    return max(0, (card.movement if card else 0) - penalty(rules, hero, "movement"))


def wound_value(rules: GameRules, hero: HeroState) -> int:
    """How many wounds the hero's tokens count (the Double Wound counts 2, R-WND-2)."""
    return sum(rules.catalog.wound(w).value for w in hero.wounds)


def blocked(rules: GameRules, hero: HeroState, ability: str) -> bool:
    """A wound token blocks `ability` (R-WND-1)."""
    if not hero.wounds:
        return False
    wounds = [rules.catalog.wound(w) for w in hero.wounds]
    return any(w.effect == "ability" and w.ability == ability for w in wounds)


def reward_card(rules: GameRules, item: str) -> RewardCard | None:
    return rules.catalog.reward_card(item)


def reward_token(rules: GameRules, item: str) -> RewardToken | None:
    return rules.catalog.reward_token(item)


def encounter_token(rules: GameRules, stack: str, token: str) -> EncounterToken:
    tokens = rules.catalog.encounter_tokens
    pool = tokens.red if stack == "red" else tokens.grey
    return next(t for t in pool if t.id == token)


# ----- abilities (R-ABL) -------------------------------------------------------------------------
def card_icons_left(rules: GameRules, hero: HeroState, ability: str) -> int:
    """Unused `ability` icons on the hero's played card this round (R-ABL: once per round)."""
    card = played_card(rules, hero)
    if card is None or blocked(rules, hero, ability):
        return 0
    return sum(1 for a in card.abilities if a == ability) - hero.used.count(ability)


def possible_abilities(rules: GameRules, hero: HeroState) -> set[str]:
    """Every ability `hero` could take from anything they hold now (a quick pre-filter)."""
    found: set[str] = set()
    card = played_card(rules, hero)
    if card is not None:
        found.update(card.abilities)
    for item in hero.hand:
        reward = reward_card(rules, item)
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
    if blocked(rules, hero, ability):
        return []
    left = card_icons_left(rules, hero, ability)
    sources = ["card"] * (left if icons is None else min(icons, left))
    for item in hero.hand:
        reward = reward_card(rules, item)
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
        if (tok := reward_token(rules, t)) is not None and ability in tok.abilities
    ]
    return sources


def source_item(source: str) -> str:
    """The component a source uses up ("card" for the played card's icon)."""
    return source.split(":")[0]


def protection_sources(rules: GameRules, hero: HeroState) -> list[str]:
    """Everything that can block one wound now (each blocks one: R-LOS-2, R-ENC-2)."""
    return ability_sources(rules, hero, "protection")


def is_reward_source(rules: GameRules, hero: HeroState, source: str) -> bool:
    """A reward card in the hand ("<card>:normal|wild") or a reward token."""
    return ":" in source or source in hero.reward_tokens


def leap_sources(rules: GameRules, hero: HeroState) -> list[str]:
    """R-COL-2: the played card's Leap, or a card or token with Leap discarded to escape."""
    return list(dict.fromkeys(ability_sources(rules, hero, "leap", discard=True)))


# ----- places ------------------------------------------------------------------------------------
def taken_cells(rules: GameRules, state: GameState) -> set[Cell | None]:
    """Spaces with a figure on them (heroes, and the Strigoi on their centres)."""
    strigoi = {rules.fortress.centre(room) for room in state.strigoi.values()}
    return {h.at for h in state.heroes} | strigoi


def relocation_cells(rules: GameRules, state: GameState, ladders_first: bool) -> list[Cell]:
    """Where a displaced hero may go: with `ladders_first` a free ladder, or free stairs when no
    ladder is free (R-LOS-4, R-COL-3); otherwise any free ladder or stairs (R-TEL-4, R-COL-2).

    Occupied places are left out before choosing, and a hero is never left off the board: with
    no free ladder or stairs at all (every one taken), any free space that holds no encounter.
    """
    board = board_state(state)
    taken = taken_cells(rules, state)
    ladders = [rules.fortress.ladders[x].cell for x in sorted(state.ladders)]
    stairs = [s for s in rules.fortress.stairs(board) if s not in ladders]
    free_ladders = [x for x in ladders if x not in taken]
    free_stairs = [x for x in stairs if x not in taken]
    pool = (free_ladders or free_stairs) if ladders_first else free_ladders + free_stairs
    if pool:
        return pool
    encounters = rules.fortress.encounter_cells(board)
    return [x for x in rules.fortress.spaces(board) if x not in taken and x not in encounters]


def relocate_task(
    rules: GameRules, state: GameState, hero: str, ladders_first: bool
) -> RelocateTask:
    return RelocateTask(hero=hero, cells=relocation_cells(rules, state, ladders_first))


def cell_choices(rules: GameRules, state: GameState, task: RelocateTask | MarkerTask) -> list[Cell]:
    """The cells a relocate or marker task offers now. A relocation's places were listed when it
    was queued; one taken since (by another hero placed first) is no longer offered, and when
    none is left the choice is made again, so nobody is left off the board (R-LOS-4)."""
    if isinstance(task, MarkerTask):
        return list(task.cells)
    taken = taken_cells(rules, state)
    board = board_state(state)  # a ladder destroyed since is no place any more
    free = [x for x in task.cells if x not in taken and rules.fortress.is_space(x, board)]
    return free or relocation_cells(rules, state, ladders_first=False)


def move_options(rules: GameRules, state: GameState, hero: str, stealth: bool) -> list[Cell]:
    """Where the hero may end a move now (R-MOV). Memoised: listing the legal moves and then
    validating the chosen one ask the same question."""
    h = state.hero(hero)
    if h.at is None:
        return relocation_cells(rules, state, ladders_first=False)
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


def free_room_spaces(rules: GameRules, state: GameState, rooms: set[str | None]) -> list[Cell]:
    """Free spaces without an encounter in `rooms` (ladders are in no room)."""
    tables = rules.fortress.tables(board_state(state))
    taken = taken_cells(rules, state)
    return sorted(
        cell
        for room in rooms
        if room is not None
        for cell in tables.room_spaces.get(room, ())
        if cell not in taken and cell not in tables.encounters
    )


def leap_cells(rules: GameRules, state: GameState, room: str) -> list[Cell]:
    """R-COL-2: free non-encounter spaces of the room whose platform just collapsed."""
    return free_room_spaces(rules, state, {room})


def pack_cells(rules: GameRules, state: GameState, hero: str) -> list[Cell]:
    """R-ABL Pack: empty spaces, not encounter spaces, in a room where another hero stands."""
    rooms = {
        rules.fortress.room_at(h.at) for h in state.heroes if h.hero != hero and h.at is not None
    }
    return free_room_spaces(rules, state, rooms - {None})


def own_room_leap_cells(rules: GameRules, state: GameState, hero: str) -> list[Cell]:
    """R-ABL Leap: any free space of the own room (platform included), no encounter, no ladder."""
    at = state.hero(hero).at
    room = rules.fortress.room_at(at) if at is not None else None
    return [] if room is None else free_room_spaces(rules, state, {room})


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


def swap_partners(rules: GameRules, state: GameState, hero: str) -> list[str]:
    """R-REW-3: heroes on spaces adjacent to `hero`'s (an open edge between them)."""
    at = state.hero(hero).at
    if at is None:
        return []
    around = rules.fortress.adjacency(board_state(state)).get(at, ())
    return [h.hero for h in state.heroes if h.hero != hero and h.at in around]


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


# ----- fights ------------------------------------------------------------------------------------
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


def reward_bonus(
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
        card = reward_card(rules, play.item)
        if card is not None and play.item in h.hand:
            use = card.wild if play.mode == "wild" else card.normal
            if use is None:
                raise refuse(cmd, f"{play.item!r} can only be used in wild mode")
            if ranged and play.mode != "wild":
                raise refuse(cmd, "a ranged attack uses reward cards in wild mode only")
            bonus += use.strength
            spent.append(e.RewardSpent(hero=h.hero, item=play.item, kind="card", mode=play.mode))
            continue
        token = reward_token(rules, play.item)
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
    if not isinstance(task, (FightTask, StealthChoiceTask)):
        raise refuse(cmd, "no monster fight is waiting")
    h = state.hero(cmd.hero)
    bonus, _ = reward_bonus(rules, h, cmd.rewards, False, cmd)
    monster = encounter_token(rules, task.stack, task.token)
    return card_strength(rules, h) + bonus, monster.strength


def attack_odds(rules: GameRules, state: GameState, cmd: c.AttackStrigoi) -> tuple[int, int]:
    """(the hero's strength with the rewards `cmd` plays, the Strigoi's strength): the hero
    wounds it when the first is at least the second (R-HIT-2, R-HIT-3)."""
    h = state.hero(cmd.hero)
    bonus, _ = reward_bonus(rules, h, cmd.rewards, cmd.mode == "ranged", cmd)
    return card_strength(rules, h) + bonus, rules.catalog.strigoi[cmd.strigoi].strength


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


__all__ = [
    "DISCARDABLE",
    "ability_sources",
    "attack_odds",
    "blocked",
    "card_icons_left",
    "card_strength",
    "cell_choices",
    "encounter_token",
    "fight_odds",
    "free_room_spaces",
    "healed_heroes",
    "is_reward_source",
    "leap_cells",
    "leap_sources",
    "move_options",
    "movement_points",
    "own_room_leap_cells",
    "pack_cells",
    "penalty",
    "platform_turned",
    "possible_abilities",
    "protection_sources",
    "relocate_task",
    "relocation_cells",
    "reward_bonus",
    "reward_card",
    "reward_token",
    "source_item",
    "strigoi_step_now",
    "strigoi_targets",
    "swap_partners",
    "taken_cells",
    "wound_value",
]
