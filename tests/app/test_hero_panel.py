"""The hero panel as a value (companion/app/story/hero_panel.py), on states the engine reaches: the
secret hand (R-RND-1), the card facts as the catalog prints them (R-CMP-4), reward cards and
tokens (R-REW), wounds (R-WND), and the abilities legal now (R-ABL) — every one of them, and
nothing the engine would refuse. The reveal's initiatives (R-RND-2)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.app.service import reveal_text
from companion.app.story.hero_panel import ABILITY_COMMANDS, HeroPanel, hero_panel, wound_effect
from companion.app.words import i18n
from companion.app.words.names import ability_name, item_name
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.state import GameState
from tests.support.random_games import settled
from tests.support.table import CATALOG, Table

FIVE = [
    ("roel", "L1"),
    ("matthew", "L2"),
    ("attila", "L3"),
    ("charles", "L4"),
    ("falk_maria", "L5"),
]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def mid_game(seed: int, steps: int = 4000) -> Iterator[tuple[Table, list[c.Command]]]:
    """A whole random game, digital stacks: the table and its legal commands at every step."""
    t = Table(FIVE[:3], seed=seed, physical=frozenset())
    rng = random.Random(seed)
    for _ in range(steps):
        if t.state.phase == "over":
            return
        legal = t.game.legal_commands()
        yield t, legal
        t.do(rng.choice(settled(t.state, legal)))


@pytest.mark.parametrize("hero", [h for h, _ in FIVE])
def test_the_hand_stays_secret_in_the_choice_until_its_player_asks(hero: str) -> None:  # R-RND-1
    t = Table(FIVE, physical=frozenset())
    legal = t.game.legal_commands()
    closed = hero_panel(t.rules, t.state, hero, legal)
    assert closed.hand_secret and closed.hand == ()
    assert not any(
        CATALOG.card(x).title in line for x in CATALOG.hero_cards(hero) for line in closed.lines()
    )
    asked = hero_panel(t.rules, t.state, "roel", legal)  # the question names the hero as printed
    assert asked.hand_question == "Only Roel looks — show?" and asked.show_hand_label == "Show"
    opened = hero_panel(t.rules, t.state, hero, legal, show_hand=True)
    assert not opened.hand_secret
    assert sorted(card.card for card in opened.hand) == sorted(CATALOG.hero_cards(hero))
    initiatives = [card.initiative for card in opened.hand]
    assert initiatives == sorted(initiatives)  # sorted as a player sorts for the choice
    wanted = {x.card: x for x in legal if isinstance(x, c.ChooseCard) and x.hero == hero}
    assert {card.card: card.choose for card in opened.hand} == wanted  # the options' commands


@pytest.mark.parametrize("card", [x.id for x in CATALOG.action_cards])
def test_every_card_shows_its_printed_facts(card: str) -> None:  # R-CMP-4
    printed = CATALOG.card(card)
    hero = card.split("/")[0]
    t = Table([(hero, "L1"), ("roel" if hero != "roel" else "matthew", "L2")], physical=frozenset())
    panel = hero_panel(t.rules, t.state, hero, t.game.legal_commands(), show_hand=True)
    [facts] = [x for x in panel.hand if x.card == card]
    assert facts.title == printed.title and facts.initiative == printed.initiative
    assert facts.figures == (  # one line on a tile: "initiative 3 · movement 3 · …"
        f"initiative {printed.initiative}",
        f"movement {printed.movement}",
        f"strength {printed.strength}",
        f"book {printed.letter}",
    )
    counts = {a: printed.abilities.count(a) for a in printed.abilities}  # in printed order
    said = [ability_name(a) + (f" ×{n}" if n > 1 else "") for a, n in counts.items()]
    assert (", ".join(said) or "no abilities") in facts.lines  # "Protection ×2"
    assert any("Wound icon" in line for line in facts.lines) == printed.wound_icon


def test_a_chosen_card_is_marked_only_in_the_opened_hand() -> None:  # R-RND-1
    t = Table(FIVE[:2], physical=frozenset())
    t.choose(roel="prayer-in-the-dark")
    legal = t.game.legal_commands()
    opened = hero_panel(t.rules, t.state, "roel", legal, show_hand=True)
    [chosen] = [x for x in opened.hand if x.note]
    assert chosen.card == "roel/prayer-in-the-dark" and chosen.note == "Chosen for this round."
    # the others may be played instead until all have chosen; the chosen one not again
    assert chosen.choose is None and not chosen.instead
    others = [x for x in opened.hand if x is not chosen]
    assert others and all(x.instead for x in others)
    assert [x.choose for x in others] == [c.ChooseCard(hero="roel", card=x.card) for x in others]
    assert "Prayer in the Dark" not in "\n".join(
        hero_panel(t.rules, t.state, "roel", legal).lines()
    )


def check_panel(t: Table, panel: HeroPanel, legal: list[c.Command]) -> None:
    h = t.state.hero(panel.hero)
    rows = {s.heading: s.lines for s in panel.sections}
    rewards = [x for x in h.hand if CATALOG.reward_card(x)]
    shown = [line.name for line in rows.get("Reward cards", ())]
    assert shown[: len(rewards)] == [CATALOG.reward_card(x).title for x in rewards]  # type: ignore[union-attr]
    for item, line in zip(rewards, rows.get("Reward cards", ()), strict=False):
        card = CATALOG.reward_card(item)
        assert card is not None
        if card.normal is not None and card.normal.strength:
            assert f"normal: strength +{card.normal.strength}" in line.does
        assert ("wild only" in line.does) == (card.normal is None)
    tokens = [line.name for line in rows.get("Reward tokens", ())]
    assert tokens == [item_name(CATALOG, x) for x in h.reward_tokens]
    wounds = rows.get("Wounds", ())
    assert len(wounds) == (len(h.wounds) + 1 if h.wounds else 0)  # and what 3 wounds do
    for token, line in zip(h.wounds, wounds, strict=False):
        wound = CATALOG.wound(token)
        assert line.does == wound_effect(t.rules, token)
        assert f"counts as {wound.value} wound" in line.does
        if wound.penalty:
            assert f"-{wound.penalty} until healed" in line.does
        if wound.ability:
            assert f"{ability_name(wound.ability)} cannot be used" in line.does
    value = sum(CATALOG.wound(w).value for w in h.wounds)
    name = hero_name(h.hero)  # the header is sentences: how many wounds, where the hero stands
    said = f"{name} has {value} wound{'' if value == 1 else 's'} of 3." if value else None
    assert panel.summary.startswith(said or f"{name} has no wounds."), panel.summary
    assert f". {name} " in panel.summary and panel.summary.endswith("."), panel.summary
    assert " · " not in panel.summary
    # the abilities: exactly the engine's legal ones of this hero, each once
    offered = [x for a in panel.actions for x in a.commands]
    mine = [
        x
        for x in legal
        if isinstance(x, ABILITY_COMMANDS) and getattr(x, "hero", None) == panel.hero
    ]
    assert sorted(map(repr, offered)) == sorted(map(repr, mine))


def test_mid_game_panels_tell_rewards_wounds_and_legal_abilities() -> None:
    """Whole random games, every hero's panel at every step, until the games have shown each
    kind of thing the panel tells (a game the Strigoi win early shows few)."""
    seen = {"reward card": 0, "token": 0, "wound": 0, "ability": 0, "penalty": 0}
    for t, legal in (x for seed in range(30) if not all(seen.values()) for x in mid_game(seed)):
        for h in t.state.heroes:
            panel = hero_panel(t.rules, t.state, h.hero, legal)
            check_panel(t, panel, legal)
            seen["reward card"] += any(CATALOG.reward_card(x) for x in h.hand)
            seen["token"] += bool(h.reward_tokens)
            seen["wound"] += bool(h.wounds)
            seen["ability"] += bool(panel.actions)
            seen["penalty"] += any(CATALOG.wound(w).penalty for w in h.wounds)
    assert all(seen.values()), seen  # the game reached every kind of thing the panel shows


def test_an_ability_from_the_panel_is_accepted_and_changes_the_state() -> None:  # R-ABL
    used = 0
    for seed in (1, 2, 3, 4):
        for t, legal in mid_game(seed):
            hero = t.state.active_hero
            if hero is None:
                continue
            panel = hero_panel(t.rules, t.state, hero, legal)
            direct = [a for a in panel.actions if len(a.commands) == 1]
            if direct:
                before = t.state.event_count
                assert t.do(direct[0].commands[0])  # the engine takes it as the options would
                assert t.state.event_count > before
                used += 1
                break
    assert used >= 2


def test_plural_forms_in_every_language() -> None:
    t = Table(FIVE[:2], physical=frozenset())
    t.do(c.AddWound(hero="roel", token="wound-1"))
    for lang, one in (
        ("en", "Roel has 1 wound of 3."),
        ("de", "Roel hat 1 von 3 Verletzungen."),
        ("fr", "Roel a 1 blessure sur 3."),
    ):
        i18n.set_language(lang)
        assert hero_panel(t.rules, t.state, "roel", []).summary.startswith(one)
    t.do(c.AddWound(hero="roel", token="wound-2"))
    for lang, two in (
        ("en", "Roel has 2 wounds of 3."),
        ("de", "Roel hat 2 von 3 Verletzungen."),
        ("it", "Roel ha 2 ferite su 3."),
    ):
        i18n.set_language(lang)
        assert hero_panel(t.rules, t.state, "roel", []).summary.startswith(two)


def test_the_reveal_gives_each_hero_s_initiative_beside_the_order() -> None:  # R-RND-2
    t = Table(FIVE[:3], physical=frozenset())
    t.choose(roel="prayer-in-the-dark", matthew="armata-strigoi")
    events = t.do(c.ChooseCard(hero="attila", card="attila/son-of-the-wolf"))
    text = reveal_text(t.state, events, CATALOG)
    state: GameState = t.state
    parts = [
        f"{hero_name(hero)} plays {CATALOG.card(state.hero(hero).chosen or '').title}, "
        f"initiative {CATALOG.card(state.hero(hero).chosen or '').initiative}"
        for hero in state.turn_order
    ]
    # whole sentences, the first goes first (never "Turn order: Attila (initiative 1: …), …")
    assert text == " ".join([parts[0] + ", and goes first.", *(f"Then {p}." for p in parts[1:])])
    numbers = [CATALOG.card(state.hero(h).chosen or "").initiative for h in state.turn_order]
    assert numbers == sorted(numbers)  # the order the initiatives decide
    assert reveal_text(t.state, [], CATALOG) == ""


def test_a_long_reveal_keeps_the_initiatives_and_leaves_the_titles_out() -> None:  # R-RND-2
    """Five heroes' titles would not fit the two-line banner: the initiatives stay."""
    t = Table(FIVE, physical=frozenset())
    cards = {h: CATALOG.hero_cards(h)[0] for h, _ in FIVE}
    events: list = []
    for hero, card in cards.items():
        events = t.do(c.ChooseCard(hero=hero, card=card))
    text = reveal_text(t.state, events, CATALOG)
    assert len(text) <= 170
    first, *then = t.state.turn_order
    initiative = {h: CATALOG.card(cards[h]).initiative for h in cards}
    assert text.startswith(f"{hero_name(first)} goes first, initiative {initiative[first]}.")
    for hero in then:
        assert f"Then {hero_name(hero)}, initiative {initiative[hero]}." in text


def test_the_panel_travels_as_json_for_another_screen() -> None:
    """A phone view gets the same value: plain data, its commands in the log's own form."""
    import msgspec

    t = Table(FIVE[:2], physical=frozenset())
    panel = hero_panel(t.rules, t.state, "roel", t.game.legal_commands(), show_hand=True)
    data = msgspec.json.decode(msgspec.json.encode(panel))
    assert data["name"] == "Roel" and len(data["hand"]) == len(panel.hand)
    sent = [msgspec.convert(x["choose"], c.AnyCommand) for x in data["hand"]]
    assert sent == [x.choose for x in panel.hand]
