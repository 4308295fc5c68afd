"""Conservation laws a game state always obeys; the simulator checks them after every event."""

from __future__ import annotations

from collections import Counter
from itertools import chain

from companion.engine.game.context import ALTAR_MAX, GameRules, board_state
from companion.engine.game.state import GameState

BLOOD_POINTS = 14  # R-CMP-6
_INVENTORY: dict[tuple[int, tuple[str, ...]], Counter[str]] = {}


def _expected(rules: GameRules, heroes: tuple[str, ...]) -> Counter[str]:
    """Every component id that must be somewhere in a game with these heroes."""
    key = (id(rules.catalog), heroes)
    inventory = _INVENTORY.get(key)
    if inventory is None:
        catalog = rules.catalog
        inventory = Counter(
            [x for ids in catalog.stack_ids().values() for x in ids]
            + [c.id for c in catalog.advanced_cards]
            + [card for hero in heroes for card in catalog.hero_cards(hero)]
        )
        _INVENTORY[key] = inventory
    return inventory


def _inventory(state: GameState) -> Counter[str]:
    piles: list[list[str]] = [state.removed, state.advanced_left]
    for stack in state.stacks.values():
        piles += [stack.draw, stack.discard, stack.in_play]
        if stack.face_up is not None:
            piles.append([stack.face_up])
    for h in state.heroes:
        piles += [h.hand, h.discard, h.played, h.rewards_used, h.reward_tokens, h.wounds, h.pending]
    return Counter(chain.from_iterable(piles))


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
    expected = _expected(rules, tuple(h.hero for h in state.heroes))
    seen = _inventory(state)
    if dict(seen) != dict(expected):  # plain dict equality: Counter's is a Python loop
        missing = sorted((expected - seen).elements())
        extra = sorted((seen - expected).elements())
        found.append(f"components not conserved: missing {missing}, extra {extra}")
    for h in state.heroes:
        foreign = [
            x
            for x in h.hand + h.discard + h.played
            if rules.is_action(x) and "/" in x and not x.startswith(f"{h.hero}/")
        ]
        if foreign:
            found.append(f"{h.hero} holds another hero's cards: {foreign}")
    board = board_state(state)
    # asked to go elsewhere: off the board, or on a fallen platform, until they choose
    moving = {t.hero for t in state.tasks if t.kind in ("relocate", "escape")}
    for h in state.heroes if state.phase != "over" else ():  # R-MOV-1, R-LOS-4: on spaces
        if h.at is None:
            if h.hero not in moving:
                found.append(f"{h.hero} is off the board and nobody is asked to place them")
        elif not rules.fortress.is_space(h.at, board) and h.hero not in moving:
            found.append(f"{h.hero} is not on a space: {list(h.at)}")
    cells = [h.at for h in state.heroes if h.at is not None]
    cells += [rules.fortress.centre(room) for room in state.strigoi.values()]
    if len(set(cells)) != len(cells):
        doubled = sorted({x for x in cells if cells.count(x) > 1})
        found.append(f"two figures on one space: {doubled}")
    if len(state.fight_markers) > 6 or len(set(state.fight_markers)) != len(state.fight_markers):
        found.append(f"fight markers: {state.fight_markers}")
    return found


__all__ = [
    "BLOOD_POINTS",
    "violations",
]
