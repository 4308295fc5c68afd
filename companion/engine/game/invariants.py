"""Conservation laws a game state always obeys; the simulator checks them after every event."""

from __future__ import annotations

from collections import Counter

from companion.engine.game.context import ALTAR_MAX, GameRules
from companion.engine.game.state import GameState

BLOOD_POINTS = 14  # R-CMP-6


def violations(rules: GameRules, state: GameState) -> list[str]:
    """Everything wrong with `state`; an empty list when it is consistent."""
    found: list[str] = []
    if state.supply + state.altar + state.inferno != BLOOD_POINTS:
        found.append(
            f"blood: supply {state.supply} + altar {state.altar} + inferno {state.inferno} "
            f"!= {BLOOD_POINTS}"
        )
    if not 0 <= state.altar <= ALTAR_MAX or state.supply < 0 or state.inferno < 0:
        found.append(f"blood out of range: altar {state.altar}, supply {state.supply}")
    catalog = rules.catalog
    held: Counter[str] = Counter()
    for h in state.heroes:
        held.update(h.hand + h.discard + h.played + h.rewards_used + h.reward_tokens + h.wounds)
    held.update(state.removed)
    expected = {
        "red": [t.id for t in catalog.encounter_tokens.red],
        "grey": [t.id for t in catalog.encounter_tokens.grey],
        "strigoi": [t.id for t in catalog.strigoi_tokens],
        "wound": [t.id for t in catalog.wound_tokens],
        "reward_token": [t.id for t in catalog.reward_tokens],
        "reward_card": [t.id for t in catalog.reward_cards],
    }
    for name, ids in expected.items():
        stack = state.stacks[name]
        seen = Counter(stack.draw + stack.discard + stack.in_play)
        if stack.face_up is not None:
            seen[stack.face_up] += 1
        seen.update({i: held[i] for i in ids if held[i]})
        if seen != Counter(ids):
            missing = sorted((Counter(ids) - seen).elements())
            extra = sorted((seen - Counter(ids)).elements())
            found.append(f"{name} tokens not conserved: missing {missing}, extra {extra}")
    for h in state.heroes:
        own = [c for c in h.hand + h.discard + h.played if rules.is_action(c)]
        expected_cards = sorted(catalog.hero_cards(h.hero) + h.advanced)
        if sorted(own) != expected_cards:
            found.append(f"{h.hero}'s action cards not conserved: {sorted(own)}")
    cells = [h.at for h in state.heroes if h.at is not None]
    cells += [rules.fortress.centre(room) for room in state.strigoi.values()]
    doubled = [cell for cell, n in Counter(cells).items() if n > 1]
    if doubled:
        found.append(f"two figures on one space: {doubled}")
    if len(state.fight_markers) > 6 or len(set(state.fight_markers)) != len(state.fight_markers):
        found.append(f"fight markers: {state.fight_markers}")
    return found
