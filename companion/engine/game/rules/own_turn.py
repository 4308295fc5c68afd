"""Abilities a hero uses in their own turn (R-ABL): Mechanics, Heal, Recovery, Gates of Hell,
Retrieval, Pack, Leap, the reward-card swap (R-REW-3) and the Nighttime Rebel's draw (R-ADV-2).

They are no task of their own: the task modules of the own turn (move, fight choice, Strigoi
token, abilities) accept `TURN_HANDLERS` and list `turn_abilities`; fights accept only what
reward cards and tokens give (`FIGHT_HANDLERS`, `fight_abilities`)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.effects import REBEL, reward, spend_ability
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.queries import (
    ability_sources,
    healed_heroes,
    is_reward_source,
    own_room_leap_cells,
    pack_cells,
    platform_turned,
    possible_abilities,
    reward_card,
    swap_partners,
)
from companion.engine.game.rules.base import Handler
from companion.engine.game.state import GameState, HeroState
from companion.engine.game.tasks import AnyTask, Task

#: The rules of the own-turn abilities (R-ABL "When": any time in the own turn except during a
#: fight; during a fight only reward cards and tokens act).
RULES = (
    "R-ABL Mechanics",
    "R-ABL Heal",
    "R-ABL Recovery",
    "R-ABL Gates of Hell",
    "R-ABL Retrieval",
    "R-ABL Pack",
    "R-ABL Leap",
    "R-REW-3",
    "R-ADV-2",
)


# ----- handlers ----------------------------------------------------------------------------------
def mechanics(rules: GameRules, em: Emitter, task: Task, cmd: c.UseMechanics) -> None:
    if cmd.room not in rules.fortress.platforms or cmd.room in em.state.collapsed:
        raise refuse(cmd, f"{cmd.room!r} has no platform to turn")
    if not 0 <= cmd.rotation <= 5:
        raise refuse(cmd, "rotation must be 0-5")
    spend_ability(rules, em, cmd, cmd.hero, "mechanics", cmd.source)
    em(platform_turned(rules, em.state, cmd.room, cmd.rotation))


def heal(rules: GameRules, em: Emitter, task: Task, cmd: c.UseHeal) -> None:
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


def recovery(rules: GameRules, em: Emitter, task: Task, cmd: c.UseRecovery) -> None:
    spend_ability(rules, em, cmd, cmd.hero, "recovery", cmd.source)
    if em.state.hero(cmd.hero).discard:
        em(e.HandRecovered(hero=cmd.hero))


def gates_of_hell(rules: GameRules, em: Emitter, task: Task, cmd: c.UseGatesOfHell) -> None:
    spend_ability(rules, em, cmd, cmd.hero, "gates_of_hell", cmd.source)
    em(e.FightMarkersCleared())


def retrieval(rules: GameRules, em: Emitter, task: Task, cmd: c.UseRetrieval) -> None:
    h = em.state.hero(cmd.hero)
    if cmd.card not in h.discard or reward_card(rules, cmd.card) is None:
        raise refuse(cmd, f"{cmd.card!r} is not a reward card in {cmd.hero}'s discard pile")
    spend_ability(rules, em, cmd, cmd.hero, "retrieval", cmd.source)
    em(e.CardRetrieved(hero=cmd.hero, card=cmd.card))


def jump(rules: GameRules, em: Emitter, task: Task, cmd: c.UsePack | c.UseLeap) -> None:
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


def swap(rules: GameRules, em: Emitter, task: Task, cmd: c.SwapRewards) -> None:
    if cmd.other not in swap_partners(rules, em.state, cmd.hero):
        raise refuse(cmd, f"{cmd.other} is not on a space next to {cmd.hero}")
    for owner, cards in ((cmd.hero, cmd.give), (cmd.other, cmd.take)):
        hand = em.state.hero(owner).hand
        if any(reward_card(rules, x) is None or x not in hand for x in cards):
            raise refuse(cmd, f"only reward cards in {owner}'s hand can be swapped")
    if not cmd.give and not cmd.take:
        raise refuse(cmd, "nothing to swap")
    em(e.RewardCardsSwapped(hero=cmd.hero, other=cmd.other, give=cmd.give, take=cmd.take))


def rebel(rules: GameRules, em: Emitter, task: Task, cmd: c.RebelDraw) -> None:
    if REBEL not in em.state.hero(cmd.hero).hand:
        raise refuse(cmd, f"{cmd.hero} holds no Nighttime Rebel")
    em(e.CardRemoved(hero=cmd.hero, card=REBEL))
    tasks: list[AnyTask] = []
    reward(rules, em, cmd.hero, "reward_card", tasks)
    if tasks:
        em.queue(*tasks)


def active_only(fn: Handler) -> Handler:
    """The Strigoi token task names no hero: only the active hero acts in it."""

    def checked(rules: GameRules, em: Emitter, task: Any, cmd: Any) -> None:
        if cmd.hero != em.state.active_hero:
            raise refuse(cmd, f"it is {em.state.active_hero}'s turn")
        fn(rules, em, task, cmd)

    return checked


def rewards_only(fn: Handler) -> Handler:
    """In a fight: an ability from a reward card or token, in the hero's own turn."""

    def checked(rules: GameRules, em: Emitter, task: Any, cmd: Any) -> None:
        source = getattr(cmd, "source", "card")
        if not is_reward_source(rules, em.state.hero(cmd.hero), source):
            raise refuse(cmd, "during a fight only reward cards and tokens act (R-ABL)")
        if cmd.hero != em.state.active_hero:
            raise refuse(cmd, "reward abilities act in the own turn (R-ABL)")
        fn(rules, em, task, cmd)

    return checked


#: the own-turn abilities, by command
TURN_HANDLERS: Mapping[type[c.Command], Handler] = {
    c.UseMechanics: mechanics,
    c.UseHeal: heal,
    c.UseRecovery: recovery,
    c.UseGatesOfHell: gates_of_hell,
    c.UseRetrieval: retrieval,
    c.UsePack: jump,
    c.UseLeap: jump,
    c.SwapRewards: swap,
    c.RebelDraw: rebel,
}
#: the same while the Strigoi token waits (a task that names no hero)
ACTIVE_TURN_HANDLERS: Mapping[type[c.Command], Handler] = {
    kind: active_only(fn) for kind, fn in TURN_HANDLERS.items()
}
#: during a fight (R-ABL): what a reward card or token brings, in the own turn
FIGHT_HANDLERS: Mapping[type[c.Command], Handler] = {
    kind: rewards_only(TURN_HANDLERS[kind])
    for kind in (c.UseMechanics, c.UseHeal, c.UseRecovery, c.UseGatesOfHell)
}


# ----- legal commands ----------------------------------------------------------------------------
def turn_abilities(rules: GameRules, state: GameState, h: HeroState) -> list[c.Command]:
    """Abilities usable now in the own turn (R-ABL), one command per source and target."""
    hero = h.hero
    found: list[c.Command] = []
    possible = possible_abilities(rules, h)

    def sources(ability: str) -> list[str]:
        if ability not in possible:
            return []
        return list(dict.fromkeys(ability_sources(rules, h, ability)))

    for source in sources("mechanics"):
        for room in sorted(rules.fortress.platforms):
            if room not in state.collapsed:
                found += [
                    c.UseMechanics(hero=hero, room=room, rotation=r, source=source)
                    for r in range(6)
                    if r != state.rotations[room]
                ]
    if h.at is not None:
        heal_sources = sources("heal")
        if heal_sources:
            choices = heal_choices(rules, state, hero)
            found += [
                c.UseHeal(hero=hero, source=x, tokens=t) for x in heal_sources for t in choices
            ]
    if h.discard:
        found += [c.UseRecovery(hero=hero, source=x) for x in sources("recovery")]
    if state.fight_markers:
        found += [c.UseGatesOfHell(hero=hero, source=x) for x in sources("gates_of_hell")]
    found += retrievals(rules, h)
    pack = sources("pack")
    if pack:
        cells = pack_cells(rules, state, hero)
        found += [c.UsePack(hero=hero, to=x, source=source) for source in pack for x in cells]
    leap = sources("leap")
    if leap:
        cells = own_room_leap_cells(rules, state, hero)
        found += [c.UseLeap(hero=hero, to=x, source=source) for source in leap for x in cells]
    for other in swap_partners(rules, state, hero):
        mine = [x for x in h.hand if reward_card(rules, x)]
        theirs = [x for x in state.hero(other).hand if reward_card(rules, x)]
        found += [c.SwapRewards(hero=hero, other=other, give=[x]) for x in mine]
        found += [c.SwapRewards(hero=hero, other=other, take=[x]) for x in theirs]
    if REBEL in h.hand:
        found.append(c.RebelDraw(hero=hero))
    return found


#: Abilities a reward card or token may bring into a fight (R-ABL); Retrieval is listed apart.
_FIGHT_KINDS = (c.UseMechanics, c.UseHeal, c.UseRecovery, c.UseGatesOfHell)


def fight_abilities(rules: GameRules, state: GameState, h: HeroState) -> list[c.Command]:
    """During a fight, in the own turn: abilities from reward cards and tokens only (R-ABL)."""
    if h.hero != state.active_hero or not (h.reward_tokens or h.hand):
        return []
    return [
        x
        for x in turn_abilities(rules, state, h)
        if isinstance(x, _FIGHT_KINDS) and is_reward_source(rules, h, x.source)
    ]


def heal_choices(rules: GameRules, state: GameState, healer: str) -> list[dict[str, str]]:
    """Which wound token each healed hero discards (R-ABL Heal): one choice per kind of wound a
    hero holds (two plain wounds are the same choice), every combination across the heroes.
    Nobody injured in the room: no choice at all, so Heal is not offered: it would only spend
    the icon. (The rules do not forbid that, and logs hold such Heals: the handler accepts one.)"""
    healed = healed_heroes(rules, state, healer)
    if not healed:
        return []
    per_hero: list[list[tuple[str, str]]] = []
    for h in healed:
        kinds: dict[object, str] = {}
        for token in h.wounds:
            w = rules.catalog.wound(token)
            kinds.setdefault((w.effect, w.penalty, w.ability, w.value), token)
        per_hero.append([(h.hero, token) for token in kinds.values()])
    return [dict(combo) for combo in product(*per_hero)]


def retrievals(rules: GameRules, h: HeroState) -> list[c.Command]:
    cards = [x for x in h.discard if reward_card(rules, x)]
    if not cards:
        return []
    return [
        c.UseRetrieval(hero=h.hero, card=card, source=source)
        for source in dict.fromkeys(ability_sources(rules, h, "retrieval"))
        for card in cards
    ]


def abilities_left(rules: GameRules, state: GameState) -> bool:
    """Whether the active hero could still use an ability this turn (R-ABL "When")."""
    active = state.active_hero
    return active is not None and bool(turn_abilities(rules, state, state.hero(active)))


__all__ = [
    "ACTIVE_TURN_HANDLERS",
    "FIGHT_HANDLERS",
    "RULES",
    "TURN_HANDLERS",
    "abilities_left",
    "active_only",
    "fight_abilities",
    "gates_of_hell",
    "heal",
    "heal_choices",
    "jump",
    "mechanics",
    "rebel",
    "recovery",
    "retrieval",
    "retrievals",
    "rewards_only",
    "swap",
    "turn_abilities",
]
