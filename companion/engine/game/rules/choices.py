"""Command lists several task modules share: reward combinations for a fight, draws from a
stack (digital, or every token the table could have drawn), Stealth sources.

Reward combinations are generated as: none, each single reward in each allowed mode, all in
normal mode, all in wild mode — the choices that matter at the table; the handlers accept any
other valid combination too."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import StackName
from companion.engine.game.queries import (
    ability_sources,
    possible_abilities,
    reward_card,
    source_item,
)
from companion.engine.game.state import GameState, HeroState


def reward_sets(rules: GameRules, h: HeroState, ranged: bool) -> list[list[c.RewardPlay]]:
    plays: list[c.RewardPlay] = []
    normal: list[c.RewardPlay] = []
    wild: list[c.RewardPlay] = []
    for item in h.hand:
        card = reward_card(rules, item)
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


def fights(rules: GameRules, h: HeroState) -> list[c.Command]:
    """Every monster fight worth listing: one per reward combination."""
    return [c.Fight(hero=h.hero, rewards=r) for r in reward_sets(rules, h, ranged=False)]


def draws(rules: GameRules, state: GameState, hero: str, stack: StackName) -> list[c.Command]:
    """A digital draw, or (physical stacks) each token the table could have drawn."""
    if stack not in rules.options.physical:
        return [c.Draw(hero=hero)]
    st = state.stacks[stack]
    if st.face_up is not None:  # R-ENC-6: the monster left face up comes next
        return [c.EnterDraw(hero=hero, token=st.face_up)]
    pool = sorted(set(st.draw or st.discard))
    return [c.EnterDraw(hero=hero, token=t) for t in pool]


def stealth_sources(rules: GameRules, h: HeroState) -> list[str]:
    if "stealth" not in possible_abilities(rules, h):
        return []
    return list(dict.fromkeys(ability_sources(rules, h, "stealth")))


def once_each(sources: tuple[str, ...]) -> bool:
    """No card or token is used twice among `sources` (the played card's icons may be)."""
    items = [source_item(x) for x in sources if x != "card"]
    return len(items) == len(set(items))


__all__ = ["draws", "fights", "once_each", "reward_sets", "stealth_sources"]
