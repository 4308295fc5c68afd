"""Every legal command for what the game waits on (python-chess style: generated, not guessed).

Reward combinations are generated as: none, each single reward in each allowed mode, all in
normal mode, all in wild mode — the choices that matter at the table; `decide` accepts any other
valid combination too. Manual corrections are always possible and not listed.
"""

from __future__ import annotations

from itertools import combinations, product

import msgspec

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.flow import (
    REBEL,
    _reward_card,
    ability_sources,
    card_icons_left,
    cell_choices,
    healed_heroes,
    is_reward_source,
    leap_cells,
    leap_sources,
    move_options,
    own_room_leap_cells,
    pack_cells,
    possible_abilities,
    protection_sources,
    source_item,
    strigoi_targets,
    swap_partners,
)
from companion.engine.game.state import GameState, HeroState


def _reward_sets(rules: GameRules, h: HeroState, ranged: bool) -> list[list[c.RewardPlay]]:
    plays: list[c.RewardPlay] = []
    normal: list[c.RewardPlay] = []
    wild: list[c.RewardPlay] = []
    for item in h.hand:
        card = _reward_card(rules, item)
        if card is None:
            continue
        wild.append(c.RewardPlay(item=item, mode="wild"))
        plays.append(c.RewardPlay(item=item, mode="wild"))
        if card.normal is not None and not ranged:
            normal.append(c.RewardPlay(item=item, mode="normal"))
            plays.append(c.RewardPlay(item=item, mode="normal"))
    if not ranged:
        for token in h.reward_tokens:
            play = c.RewardPlay(item=token)
            plays.append(play)
            normal.append(play)
            wild.append(play)
    sets = [[], *([p] for p in plays)]
    for combo in (normal, wild):
        if len(combo) > 1 and combo not in sets:
            sets.append(combo)
    return sets


def _fights(rules: GameRules, h: HeroState) -> list[c.Command]:
    return [c.Fight(hero=h.hero, rewards=r) for r in _reward_sets(rules, h, ranged=False)]


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
        heal = sources("heal")
        if heal:
            choices = _heal_choices(rules, state, hero)
            found += [c.UseHeal(hero=hero, source=x, tokens=t) for x in heal for t in choices]
    if h.discard:
        found += [c.UseRecovery(hero=hero, source=x) for x in sources("recovery")]
    if state.fight_markers:
        found += [c.UseGatesOfHell(hero=hero, source=x) for x in sources("gates_of_hell")]
    found += _retrievals(rules, h)
    pack = sources("pack")
    if pack:
        cells = pack_cells(rules, state, hero)
        found += [c.UsePack(hero=hero, to=x, source=source) for source in pack for x in cells]
    leap = sources("leap")
    if leap:
        cells = own_room_leap_cells(rules, state, hero)
        found += [c.UseLeap(hero=hero, to=x, source=source) for source in leap for x in cells]
    for other in swap_partners(rules, state, hero):
        mine = [x for x in h.hand if _reward_card(rules, x)]
        theirs = [x for x in state.hero(other).hand if _reward_card(rules, x)]
        found += [c.SwapRewards(hero=hero, other=other, give=[x]) for x in mine]
        found += [c.SwapRewards(hero=hero, other=other, take=[x]) for x in theirs]
    if REBEL in h.hand:
        found.append(c.RebelDraw(hero=hero))
    return found


#: Abilities a reward card or token may bring into a fight (R-ABL); Retrieval is listed apart.
_FIGHT_KINDS = (c.UseMechanics, c.UseHeal, c.UseRecovery, c.UseGatesOfHell)


def _fight_abilities(rules: GameRules, state: GameState, h: HeroState) -> list[c.Command]:
    """During a fight, in the own turn: abilities from reward cards and tokens only (R-ABL)."""
    if h.hero != state.active_hero or not (h.reward_tokens or h.hand):
        return []
    return [
        x
        for x in turn_abilities(rules, state, h)
        if isinstance(x, _FIGHT_KINDS) and is_reward_source(rules, h, x.source)
    ]


def _heal_choices(rules: GameRules, state: GameState, healer: str) -> list[dict[str, str]]:
    """Which wound token each healed hero discards (R-ABL Heal): one choice per kind of wound a
    hero holds (two plain wounds are the same choice), every combination across the heroes."""
    per_hero: list[list[tuple[str, str]]] = []
    for h in healed_heroes(rules, state, healer):
        kinds: dict[object, str] = {}
        for token in h.wounds:
            w = rules.catalog.wound(token)
            kinds.setdefault((w.effect, w.penalty, w.ability, w.value), token)
        per_hero.append([(h.hero, token) for token in kinds.values()])
    return [dict(combo) for combo in product(*per_hero)]


def _retrievals(rules: GameRules, h: HeroState) -> list[c.Command]:
    cards = [x for x in h.discard if _reward_card(rules, x)]
    if not cards:
        return []
    return [
        c.UseRetrieval(hero=h.hero, card=card, source=source)
        for source in dict.fromkeys(ability_sources(rules, h, "retrieval"))
        for card in cards
    ]


def _draws(rules: GameRules, state: GameState, hero: str, stack: str) -> list[c.Command]:
    if stack not in rules.options.physical:
        return [c.Draw(hero=hero)]
    st = state.stacks[stack]
    if st.face_up is not None:  # R-ENC-6: the monster left face up comes next
        return [c.EnterDraw(hero=hero, token=st.face_up)]
    pool = sorted(set(st.draw or st.discard))
    return [c.EnterDraw(hero=hero, token=t) for t in pool]


def _stealth_sources(rules: GameRules, h: HeroState) -> list[str]:
    if "stealth" not in possible_abilities(rules, h):
        return []
    return list(dict.fromkeys(ability_sources(rules, h, "stealth")))


def _once_each(sources: tuple[str, ...]) -> bool:
    items = [source_item(x) for x in sources if x != "card"]
    return len(items) == len(set(items))


def legal_commands(rules: GameRules, state: GameState) -> list[c.Command]:
    if state.phase == "over" or not state.tasks:
        return []
    task = state.tasks[0]
    hero = task.hero
    h = state.hero(hero) if hero is not None else None
    kind = task.kind
    if kind == "choose":
        return [
            c.ChooseCard(hero=x.hero, card=card)
            for x in state.heroes
            if x.chosen is None
            for card in x.hand
            if rules.is_action(card)
        ]
    assert h is not None or kind == "strigoi"
    if kind == "move" and h is not None:
        plain = move_options(rules, state, h.hero, False)
        found: list[c.Command] = [c.Stay(hero=h.hero)]
        found += [c.Move(hero=h.hero, to=cell) for cell in plain]
        stealth = _stealth_sources(rules, h)
        if stealth:  # R-MOV-4: only the ends that need Stealth to pass a Strigoi
            sneaky = [x for x in move_options(rules, state, h.hero, True) if x not in plain]
            found += [
                c.Move(hero=h.hero, to=cell, stealth=True, source=source)
                for source in stealth
                for cell in sneaky
            ]
        return found + turn_abilities(rules, state, h)
    if kind == "encounter" and h is not None:
        draws = _draws(rules, state, h.hero, task.stack or "red")
        if task.reason == "monk" or card_icons_left(rules, h, "stealth") > 0:
            return draws
        # R-ENC-6: Stealth from a discarded card, a reward card or token, chosen before the flip
        others = [x for x in _stealth_sources(rules, h) if x != "card"]
        return draws + [
            msgspec.structs.replace(draw, stealth=source) for source in others for draw in draws
        ]
    if kind in ("reward_draw", "wound_draw") and h is not None:
        stack = "wound" if kind == "wound_draw" else (task.stack or "reward_token")
        return _draws(rules, state, h.hero, stack)
    if kind == "strigoi":
        active = state.hero(state.active_hero or "")
        abilities = turn_abilities(rules, state, active)  # R-ABL "When": until the flip
        return _draws(rules, state, active.hero, "strigoi") + abilities
    if kind == "abilities" and h is not None:
        return [c.Proceed(hero=h.hero), *turn_abilities(rules, state, h)]
    if kind == "stealth_choice" and h is not None:
        return [c.LeaveMonster(hero=h.hero), *_fights(rules, h), *_fight_abilities(rules, state, h)]
    if kind == "monk" and h is not None:
        return [c.FreeMonk(hero=h.hero), c.AttackMonk(hero=h.hero)]
    if kind == "fight" and h is not None:
        return _fights(rules, h) + _retrievals(rules, h) + _fight_abilities(rules, state, h)
    if kind in ("fight_choice", "counterattack") and h is not None:
        found = [c.SkipFight(hero=h.hero)]
        for name, mode in strigoi_targets(rules, state, h.hero):
            if kind == "counterattack" and name != task.strigoi:
                continue
            found += [
                c.AttackStrigoi(hero=h.hero, strigoi=name, mode=mode, rewards=r)  # type: ignore[arg-type]
                for r in _reward_sets(rules, h, ranged=mode == "ranged")
            ]
        if kind == "fight_choice":
            return found + turn_abilities(rules, state, h)
        return found + _fight_abilities(rules, state, h)
    if kind == "protect" and h is not None:
        sources = protection_sources(rules, h) if task.protectable else []
        options = {()} | {
            tuple(sorted(combo))
            for k in range(1, min(task.wounds, len(sources)) + 1)
            for combo in combinations(sources, k)
            if _once_each(combo)
        }
        return [c.Protect(hero=h.hero, sources=list(o)) for o in sorted(options)]
    if kind == "shock" and h is not None:
        shock: list[c.Command] = [c.DiscardForShock(hero=h.hero, card=x) for x in h.hand]
        return shock + [  # R-ABL: one Protection blocks a Shock
            c.Protect(hero=h.hero, sources=[x]) for x in dict.fromkeys(protection_sources(rules, h))
        ]
    if kind == "relocate" and h is not None:
        return [c.Relocate(hero=h.hero, to=cell) for cell in cell_choices(rules, state, task)]
    if kind == "marker" and h is not None:
        return [
            c.PlaceFightMarker(hero=h.hero, take_from=cell)
            for cell in cell_choices(rules, state, task)
        ]
    if kind == "escape" and h is not None:
        cells = leap_cells(rules, state, task.room or "")
        found = [c.Fall(hero=h.hero)]
        for source in dict.fromkeys(leap_sources(rules, h)):
            found += [c.Leap(hero=h.hero, to=cell, source=source) for cell in cells]
        return found
    return []
