"""Hero policies for the simulator: how a player picks among the legal commands.

`random`: uniform (coverage, not strategy). `greedy`: what a careful table does without looking
ahead — fight what it can beat (only as many rewards as that takes), fight a Strigoi whenever
the blood and its strength allow, keep out of the Strigoi's reach (the threat map of the card
it plays), block every wound it can, free a monk when it has cards to take back, heal the
wounded, and otherwise keep its abilities for later.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.engine.game import commands as c
from companion.engine.game.context import (
    ALTAR_NEEDED,
    GameRules,
    board_state,
    played_card,
    situation,
)
from companion.engine.game.queries import attack_odds, fight_odds
from companion.engine.game.state import GameState
from companion.engine.threat import threat_map

Policy = Callable[[GameRules, GameState, Sequence[c.Command], random.Random], c.Command]
#: what a monster of each colour may show, on average (the catalog's red and grey tokens)
EXPECTED_STRENGTH = {"red": 3, "grey": 5}


def random_policy(
    rules: GameRules, state: GameState, legal: Sequence[c.Command], rng: random.Random
) -> c.Command:
    return rng.choice(legal)


def greedy_policy(
    rules: GameRules, state: GameState, legal: Sequence[c.Command], rng: random.Random
) -> c.Command:
    task = state.tasks[0] if state.tasks else None
    kind = task.kind if task else ""
    first = legal[0]
    if kind == "choose":  # a card for each player who has none yet: no second thoughts
        first_choices = [
            x for x in legal if isinstance(x, c.ChooseCard) and state.hero(x.hero).chosen is None
        ]
        return max(first_choices or legal, key=lambda x: _card_value(rules, x, rng))
    if kind == "move":
        return _move(rules, state, legal, rng)
    if kind in ("fight", "stealth_choice"):
        return _monster_fight(rules, state, legal)
    if kind in ("fight_choice", "counterattack"):
        return _strigoi_fight(rules, state, legal)
    if kind == "protect":  # block as many wounds as possible
        protects = [x for x in legal if isinstance(x, c.Protect)]
        return max(protects, key=lambda x: len(x.sources)) if protects else first
    if kind == "monk":
        h = state.hero(getattr(first, "hero", ""))
        return next(
            (x for x in legal if isinstance(x, c.FreeMonk if h.discard else c.AttackMonk)), first
        )
    if kind == "abilities":
        heal = _heal(state, legal)
        return heal or next(x for x in legal if isinstance(x, c.Proceed))
    if kind == "strigoi":
        return _heal(state, legal) or next(x for x in legal if isinstance(x, c.Draw | c.EnterDraw))
    if kind == "escape":  # leap when it can
        return next((x for x in legal if isinstance(x, c.Leap)), first)
    return rng.choice(legal)


def _card_value(rules: GameRules, command: c.Command, rng: random.Random) -> float:
    if not isinstance(command, c.ChooseCard):
        return -1.0
    card = rules.card(command.card)
    return card.strength + card.movement / 2 + rng.random()


def _heal(state: GameState, legal: Sequence[c.Command]) -> c.Command | None:
    heals = [x for x in legal if isinstance(x, c.UseHeal)]
    hurt = any(h.wounds for h in state.heroes)
    return heals[0] if heals and hurt else None


def _move(
    rules: GameRules, state: GameState, legal: Sequence[c.Command], rng: random.Random
) -> c.Command:
    moves = [x for x in legal if isinstance(x, c.Move | c.Stay) and not getattr(x, "stealth", 0)]
    h = state.hero(getattr(legal[0], "hero", ""))
    card = played_card(rules, h)
    strength = card.strength if card else 0
    rewards = sum(
        (r.wild.strength for x in h.hand if (r := rules.catalog.reward_card(x)) is not None), 0
    )
    threats = None
    if state.strigoi and h.at is not None and card is not None:
        view = situation(rules, state)
        threats = threat_map(
            rules.fortress, view, h.hero, card.letter, rules.catalog.damage(), rules.options.rules
        )
    board = board_state(state)
    hunt = _hunting_spaces(rules, state, strength + rewards)

    def score(command: c.Command) -> float:
        to = h.at if isinstance(command, c.Stay) else tuple(command.to)  # type: ignore[attr-defined]
        value = rng.random()
        level = "safe" if threats is None else threats.level(to)  # type: ignore[arg-type]
        value -= {"safe": 0, "risky": 3, "deadly": 10}[level]
        if to in hunt:  # next to a Strigoi it can wound, with the blood to fight it
            value += 12
        if isinstance(command, c.Move):
            feature = rules.fortress.feature(command.to, board)
            if feature in EXPECTED_STRENGTH and to not in state.fight_markers:
                beatable = strength + rewards >= EXPECTED_STRENGTH[feature]
                value += 6 if beatable else -4
        return value

    return max(moves, key=score) if moves else legal[0]


def _hunting_spaces(rules: GameRules, state: GameState, strength: int) -> set[tuple[int, int]]:
    """Spaces joined by an open edge to a Strigoi the hero could wound now (R-HIT-2 melee)."""
    if state.altar < ALTAR_NEEDED[state.players]:
        return set()
    board = board_state(state)
    found: set[tuple[int, int]] = set()
    for name, room in state.strigoi.items():
        if strength < rules.catalog.strigoi[name].strength:
            continue
        centre = rules.fortress.centre(room)
        found |= {cell for _, cell in rules.fortress.open_neighbours(centre, board)}
    return found


def _monster_fight(rules: GameRules, state: GameState, legal: Sequence[c.Command]) -> c.Command:
    fights = [x for x in legal if isinstance(x, c.Fight)]
    winning = [x for x in fights if (odds := fight_odds(rules, state, x))[0] >= odds[1]]
    if winning:  # the fewest rewards that win
        return min(winning, key=lambda x: len(x.rewards))
    leave = next((x for x in legal if isinstance(x, c.LeaveMonster)), None)
    if leave is not None:  # Stealth: leave what it cannot beat (R-ENC-6)
        return leave
    return min(fights, key=lambda x: len(x.rewards)) if fights else legal[0]


def _strigoi_fight(rules: GameRules, state: GameState, legal: Sequence[c.Command]) -> c.Command:
    """The attack with the fewest rewards that wounds (the engine's own strength sum)."""
    attacks = [x for x in legal if isinstance(x, c.AttackStrigoi)]
    for attack in sorted(attacks, key=lambda x: len(x.rewards)):
        strength, needed = attack_odds(rules, state, attack)
        if strength >= needed:
            return attack
    return next((x for x in legal if isinstance(x, c.SkipFight)), legal[0])


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}
