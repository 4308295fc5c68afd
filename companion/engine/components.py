"""The component catalog's value types and checks (R-CMP). Data lives in `companion/data`.

Everything the rulebook prints only on cards and tokens is data: the engine reads these values
and never hard-codes one. `check_catalog` refuses a catalog that breaks the component counts or
names an unknown ability, hero, letter or effect, naming the JSON path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

import msgspec

from companion.engine.game.kinds import StackName
from companion.engine.situation import HEROES
from companion.errors import CompanionError

Ability = Literal[
    "protection",
    "heal",
    "retrieval",
    "mechanics",
    "stealth",
    "pack",
    "leap",
    "recovery",
    "gates_of_hell",
    "destruction",
]
ABILITIES: tuple[str, ...] = get_args(Ability)
CARD_LETTERS = "ABCDEFX"


class CatalogError(CompanionError, ValueError):
    """The component catalog is invalid; the message names the JSON path."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class StrigoiCard(msgspec.Struct):
    existence: int
    damage: int
    strength: int
    transcribed: bool = False
    note: str | None = None


class PlayableCard(msgspec.Struct, kw_only=True):
    """What every card chosen in phase 1 shows (R-CMP-4, R-CMP-5)."""

    id: str
    title: str
    initiative: int
    movement: int
    strength: int
    abilities: list[Ability]
    letter: str
    wound_icon: bool = False
    transcribed: bool = False
    note: str | None = None


class ActionCard(PlayableCard, kw_only=True):
    hero: str


EarnedBy = Literal[
    "first_red_monster_defeated",
    "first_grey_monster_defeated",
    "fewest_reward_cards_when_another_gets_third",
    "first_wounded_by_strigoi",
    "destroyed_first_strigoi",
    "first_hero_defeated",
    "card_let_strigoi_deal_comrades_third_wound",
]


class AdvancedCard(PlayableCard, kw_only=True):
    kind: Literal["fire_and_forgive", "fist_by_fist", "legendary"]
    earned_by: EarnedBy


class EncounterToken(msgspec.Struct):
    id: str
    kind: Literal["monster", "monk"]
    strength: int = 0
    rewards: list[Literal["bat", "axe", "blood"]] = []


class EncounterTokens(msgspec.Struct):
    red: list[EncounterToken]
    grey: list[EncounterToken]


class StrigoiToken(msgspec.Struct):
    id: str
    strigoi: Literal["master", "apprentice"]
    bonus: int = 0


class WoundToken(msgspec.Struct):
    id: str
    effect: Literal["plain", "double", "shock", "movement", "strength", "ability"]
    value: int = 1  # how many wounds it counts as (R-WND-1: the Double Wound counts 2)
    penalty: int = 0  # for movement / strength
    ability: Ability | None = None  # for "ability": the ability it blocks until healed


class RewardToken(msgspec.Struct):
    id: str
    strength: int = 0
    abilities: list[Ability] = []


class RewardUse(msgspec.Struct):
    strength: int = 0
    abilities: list[Ability] = []


class RewardCard(msgspec.Struct):
    id: str
    title: str
    wild: RewardUse
    normal: RewardUse | None = None  # None: wild-only (R-REW-1)
    wound_icon: bool = False  # wounds its user in each fight it is used in (R-WND-3)


class Catalog(msgspec.Struct, dict=True):
    """`dict=True` lets the lookup indexes live on the instance without being encoded."""

    format: str
    strigoi: dict[str, StrigoiCard]
    action_cards: list[ActionCard]
    advanced_cards: list[AdvancedCard]
    encounter_tokens: EncounterTokens
    strigoi_tokens: list[StrigoiToken]
    wound_tokens: list[WoundToken]
    reward_tokens: list[RewardToken]
    reward_cards: list[RewardCard]
    about: str | None = msgspec.field(default=None, name="_about")

    def __post_init__(self) -> None:
        self._cards: dict[str, ActionCard | AdvancedCard] = {c.id: c for c in self.action_cards}
        self._cards.update({c.id: c for c in self.advanced_cards})
        self._reward_cards = {r.id: r for r in self.reward_cards}
        self._reward_tokens = {t.id: t for t in self.reward_tokens}
        self._wounds = {w.id: w for w in self.wound_tokens}
        self._strigoi_tokens = {t.id: t for t in self.strigoi_tokens}

    def is_action_card(self, card_id: str) -> bool:
        """An action or advanced card (the cards played for initiative)."""
        return card_id in self._cards

    def damage(self) -> dict[str, int]:
        return {name: card.damage for name, card in self.strigoi.items()}

    def card(self, card_id: str) -> ActionCard | AdvancedCard:
        return self._cards[card_id]

    def hero_cards(self, hero: str) -> list[str]:
        return [c.id for c in self.action_cards if c.hero == hero]

    def stack_ids(self) -> dict[StackName, list[str]]:
        """The component ids of each stack, by stack name (red, grey, strigoi, wound, ...)."""
        return {
            "red": [t.id for t in self.encounter_tokens.red],
            "grey": [t.id for t in self.encounter_tokens.grey],
            "strigoi": [t.id for t in self.strigoi_tokens],
            "wound": [t.id for t in self.wound_tokens],
            "reward_token": [t.id for t in self.reward_tokens],
            "reward_card": [t.id for t in self.reward_cards],
        }

    def reward_card(self, item: str) -> RewardCard | None:
        return self._reward_cards.get(item)

    def reward_token(self, item: str) -> RewardToken | None:
        return self._reward_tokens.get(item)

    def strigoi_token(self, token: str) -> StrigoiToken:
        return self._strigoi_tokens[token]

    def wound(self, token: str) -> WoundToken:
        return self._wounds[token]


FORMAT_TAG = "armata-catalog/1"
EXPECTED_COUNTS = {
    "action_cards": 30,
    "advanced_cards": 17,
    "encounter_tokens.red": 21,
    "encounter_tokens.grey": 20,
    "wound_tokens": 15,
    "reward_tokens": 10,
}


def parse_catalog(data: object) -> Catalog:
    """Shape (msgspec) and content checks; raises CatalogError naming the JSON path."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_TAG:
        raise CatalogError("format", f"expected {FORMAT_TAG!r}")
    try:
        catalog = msgspec.convert(data, Catalog)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `$")
        raise CatalogError(where.rstrip("`").lstrip("."), message) from None
    check_catalog(catalog)
    return catalog


def _unique(ids: Iterable[str], path: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            raise CatalogError(f"{path}[{i}].id", f"duplicate id {item!r}")
        seen.add(item)


def check_catalog(catalog: Catalog) -> None:
    counts = {
        "action_cards": len(catalog.action_cards),
        "advanced_cards": len(catalog.advanced_cards),
        "encounter_tokens.red": len(catalog.encounter_tokens.red),
        "encounter_tokens.grey": len(catalog.encounter_tokens.grey),
        "wound_tokens": len(catalog.wound_tokens),
        "reward_tokens": len(catalog.reward_tokens),
    }
    for path, expected in EXPECTED_COUNTS.items():
        if counts[path] != expected:
            raise CatalogError(path, f"R-CMP lists {expected}, found {counts[path]}")
    missing = {"master", "apprentice", "supreme"} - set(catalog.strigoi)
    if missing:
        raise CatalogError("strigoi", f"missing {sorted(missing)}")
    _unique([c.id for c in catalog.action_cards] + [c.id for c in catalog.advanced_cards], "cards")
    for i, card in enumerate(catalog.action_cards):
        if card.hero not in HEROES:
            raise CatalogError(f"action_cards[{i}].hero", f"unknown hero {card.hero!r}")
    for hero in HEROES:
        own = [c for c in catalog.action_cards if c.hero == hero]
        if len(own) != 6:
            raise CatalogError("action_cards", f"{hero} has {len(own)} cards, R-CMP-4 gives 6")
    playable: list[tuple[str, PlayableCard]] = [
        *((f"action_cards[{i}]", c) for i, c in enumerate(catalog.action_cards)),
        *((f"advanced_cards[{i}]", c) for i, c in enumerate(catalog.advanced_cards)),
    ]
    for path, c in playable:
        if c.letter not in CARD_LETTERS or len(c.letter) != 1:
            raise CatalogError(f"{path}.letter", f"must be A-F or X, got {c.letter!r}")
        if c.movement < 0 or c.strength < 0:
            raise CatalogError(path, "movement and strength must be 0 or more")
    kinds = [c.kind for c in catalog.advanced_cards]
    if kinds.count("fire_and_forgive") != 6 or kinds.count("fist_by_fist") != 6:
        raise CatalogError("advanced_cards", "R-CMP-5 gives 6 Fire & Forgive and 6 Fist by Fist")
    for i, token in enumerate(catalog.wound_tokens):
        if token.effect == "ability" and token.ability is None:
            raise CatalogError(f"wound_tokens[{i}].ability", "an ability wound names its ability")
    paths = {
        "red": "encounter_tokens.red",
        "grey": "encounter_tokens.grey",
        "strigoi": "strigoi_tokens",
        "wound": "wound_tokens",
        "reward_token": "reward_tokens",
        "reward_card": "reward_cards",
    }
    token_ids = {paths[stack]: ids for stack, ids in catalog.stack_ids().items()}
    for name, ids in token_ids.items():
        _unique(ids, name)
    if not catalog.strigoi_tokens or {t.strigoi for t in catalog.strigoi_tokens} != {
        "master",
        "apprentice",
    }:
        raise CatalogError("strigoi_tokens", "tokens must name both the Master and the Apprentice")


__all__ = [
    "ABILITIES",
    "CARD_LETTERS",
    "EXPECTED_COUNTS",
    "FORMAT_TAG",
    "Ability",
    "ActionCard",
    "AdvancedCard",
    "Catalog",
    "CatalogError",
    "EarnedBy",
    "EncounterToken",
    "EncounterTokens",
    "PlayableCard",
    "RewardCard",
    "RewardToken",
    "RewardUse",
    "StrigoiCard",
    "StrigoiToken",
    "WoundToken",
    "check_catalog",
    "parse_catalog",
]
