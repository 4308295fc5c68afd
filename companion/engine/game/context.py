"""What a game needs besides its state: the fortress, the catalog and the options."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.components import ActionCard, AdvancedCard, Catalog
from companion.engine.fortress import BoardState, Fortress
from companion.engine.game.kinds import STACKS
from companion.engine.game.state import GameState, HeroState
from companion.engine.options import Options
from companion.engine.situation import HeroFigure, Situation
from companion.errors import InvalidOptions

#: R-BLD-2 / R-BLD-3 by player count.
ALTAR_NEEDED = {2: 2, 3: 3, 4: 3, 5: 4}
INFERNO_LOSES = {2: 3, 3: 3, 4: 4, 5: 5}
ALTAR_MAX = 5  # R-BLD-1
FIGHT_MARKERS = 6  # R-ENC-4
WOUNDS_TO_DEFEAT = 3  # R-WND-2
#: Every stack may be drawn physically: the player enters the token; the engine checks it.
PHYSICAL_STACKS = STACKS


@dataclass(frozen=True)
class GameOptions:
    rules: Options = field(default_factory=Options)
    #: stacks the table draws physically (R-ENC, R-TEL-1 tokens...): the player enters the token
    physical: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = set(self.physical) - set(PHYSICAL_STACKS)
        if unknown:
            raise InvalidOptions(
                f"stacks {sorted(unknown)} cannot be drawn physically yet "
                f"(possible: {', '.join(PHYSICAL_STACKS)}; known: {', '.join(STACKS)})"
            )


@dataclass(frozen=True)
class GameRules:
    fortress: Fortress
    catalog: Catalog
    options: GameOptions = field(default_factory=GameOptions)
    #: memo of answers that depend on the state only (e.g. move targets), kept per rules
    memo: dict[tuple[object, ...], object] = field(
        default_factory=dict, init=False, compare=False, repr=False, hash=False
    )

    def card(self, card_id: str) -> ActionCard | AdvancedCard:
        return self.catalog.card(card_id)

    def is_action(self, card_id: str) -> bool:
        return self.catalog.is_action_card(card_id)


def board_state(state: GameState) -> BoardState:
    return BoardState(dict(state.rotations), frozenset(state.collapsed), frozenset(state.ladders))


def played_card(rules: GameRules, hero: HeroState) -> ActionCard | AdvancedCard | None:
    return (
        rules.card(hero.chosen) if hero.chosen is not None and hero.chosen in hero.played else None
    )


def situation(rules: GameRules, state: GameState) -> Situation:
    """The fortress engine's view of the game (figures, initiatives of revealed cards)."""
    card = rules.catalog.card
    heroes = tuple(
        HeroFigure(
            h.hero,
            h.at,
            card(h.chosen).initiative if h.chosen is not None and h.chosen in h.played else 0,
            False,
        )
        for h in sorted(state.heroes, key=_seat)
        if h.at is not None
    )
    return Situation(
        board_state(state),
        dict(state.strigoi),
        heroes,
        frozenset(state.fight_markers),
        state.players,
        state.altar,
        state.inferno,
    )


def _seat(hero: HeroState) -> int:
    return hero.seat


__all__ = [
    "ALTAR_MAX",
    "ALTAR_NEEDED",
    "FIGHT_MARKERS",
    "INFERNO_LOSES",
    "PHYSICAL_STACKS",
    "WOUNDS_TO_DEFEAT",
    "GameOptions",
    "GameRules",
    "board_state",
    "played_card",
    "situation",
]
