"""Abilities (R-ABL), reward cards and tokens (R-REW), advanced cards (R-ADV)."""

from __future__ import annotations

import pytest

from companion.engine.game import commands as c
from companion.errors import IllegalCommand
from tests.support.table import Table, kinds


@pytest.mark.rule("R-ABL Mechanics")
def test_mechanics_turns_a_platform_once_per_round() -> None:  # R-ABL Mechanics
    t = Table([("matthew", "L1"), ("roel", "L2")])
    t.choose(matthew="armata-strigoi", roel="nightside-of-siberia")  # 7 vs 8: Matthew first
    before = t.state.rotations["E"]
    t.do(c.UseMechanics(hero="matthew", room="E", rotation=(before + 2) % 6))
    assert t.state.rotations["E"] == (before + 2) % 6 and t.task() == "move"
    with pytest.raises(IllegalCommand, match="'card' gives matthew no mechanics now"):
        t.do(c.UseMechanics(hero="matthew", room="E", rotation=before))


@pytest.mark.rule("R-ABL Heal")
def test_heal_removes_a_wound_from_every_hero_in_the_room() -> None:  # R-ABL Heal
    t = Table([("falk_maria", "L1"), ("roel", "L2")])
    t.choose(falk_maria="amen-and-attack", roel="nightside-of-siberia")
    room_cells = sorted(
        c for c in t.rules.fortress.tile_spaces if t.rules.fortress.room_at(c) == "C"
    )
    t.place("falk_maria", room_cells[0])
    t.place("roel", room_cells[1])
    for hero in ("falk_maria", "roel", "roel"):
        t.do(c.AddWound(hero=hero))
    t.do(c.UseHeal(hero="falk_maria"))
    assert len(t.state.hero("falk_maria").wounds) == 0 and len(t.state.hero("roel").wounds) == 1


@pytest.mark.rule("R-MOV-4", "R-ABL Stealth")
def test_stealth_passes_a_strigoi() -> None:  # R-MOV-4, R-ABL Stealth
    t = Table([("roel", "L1"), ("matthew", "L2")])
    from tests.engine.test_game_strigoi import round_two

    round_two(t, roel="son-of-the-wolf", matthew="nightside-of-siberia")
    room = t.state.strigoi["master"]
    centre = t.rules.fortress.centre(room)
    t.place("roel", t.neighbour_into(centre))
    plain = {
        tuple(x.to) for x in t.game.legal_commands() if isinstance(x, c.Move) and not x.stealth
    }
    sneaky = {tuple(x.to) for x in t.game.legal_commands() if isinstance(x, c.Move) and x.stealth}
    assert sneaky and not (sneaky & plain) and centre not in sneaky
    target = sorted(sneaky)[0]
    t.do(c.Move(hero="roel", to=target, stealth=True))
    assert t.at("roel") == target and "stealth" in t.state.hero("roel").used


def _with_reward_card(t: Table, hero: str) -> str:
    """Give `hero` a reward card the honest way: win a monster showing an axe."""
    t.walk_onto(hero, t.red()[0])
    t.do(c.EnterDraw(hero=hero, token="red-05"))  # strength 2: axe
    t.do(c.Fight(hero=hero, rewards=[]))
    cards = [
        x for x in t.state.hero(hero).hand if x in {r.id for r in t.rules.catalog.reward_cards}
    ]
    assert len(cards) == 1
    return cards[0]


@pytest.mark.rule("R-REW-1")
def test_reward_cards_normal_or_wild() -> None:  # R-REW-1
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    card = _with_reward_card(t, "roel")
    info = next(r for r in t.rules.catalog.reward_cards if r.id == card)
    t.finish_turn("roel")
    t.finish_turn("matthew")
    t.choose(roel="when-the-moon-shines-red", matthew="son-of-the-wolf")
    t.finish_turn("matthew")
    t.walk_onto("roel", t.red()[1])
    t.do(c.EnterDraw(hero="roel", token="red-13"))  # strength 5
    mode = "normal" if info.normal is not None else "wild"
    t.do(c.Fight(hero="roel", rewards=[c.RewardPlay(item=card, mode=mode)]))
    roel = t.state.hero("roel")
    if mode == "normal":
        assert card in roel.rewards_used  # goes to the own discard pile at round end
        t.finish_turn("roel")
        assert card in t.state.hero("roel").discard or card in t.state.hero("roel").hand
    else:
        assert card in t.state.removed


@pytest.mark.rule("R-REW-1")
def test_wild_only_cards_cannot_be_used_normally() -> None:  # R-REW-1
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    wild_only = [r.id for r in t.rules.catalog.reward_cards if r.normal is None]
    t.state.hero("roel").hand.append(wild_only[0])  # arrange: the card is in hand
    t.state.stacks["reward_card"].draw.remove(wild_only[0])
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-13"))
    with pytest.raises(IllegalCommand, match="only be used in wild mode"):
        t.do(c.Fight(hero="roel", rewards=[c.RewardPlay(item=wild_only[0], mode="normal")]))
    t.do(c.Fight(hero="roel", rewards=[c.RewardPlay(item=wild_only[0], mode="wild")]))
    assert wild_only[0] in t.state.removed


@pytest.mark.rule("R-REW-1")
def test_the_reward_deck_is_never_refilled() -> None:  # R-REW-1
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    deck = t.state.stacks["reward_card"]
    deck.discard.extend(deck.draw)
    deck.draw.clear()
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-05"))  # an axe, but the deck is empty
    events = t.do(c.Fight(hero="roel", rewards=[]))
    assert "reward_taken" not in kinds(events) and "stack_reshuffled" not in kinds(events)


@pytest.mark.rule("R-REW-2")
def test_reward_tokens_are_reshuffled_when_empty() -> None:  # R-REW-2
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    tokens = t.state.stacks["reward_token"]
    tokens.discard.extend(tokens.draw)
    tokens.draw.clear()
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-02"))  # a bat
    events = t.do(c.Fight(hero="roel", rewards=[]))
    assert "stack_reshuffled" in kinds(events) and len(t.state.hero("roel").reward_tokens) == 1


@pytest.mark.rule("R-REW-2")
def test_a_reward_token_adds_strength_and_is_discarded() -> None:  # R-REW-2
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.state.hero("roel").reward_tokens.append("token-might-1")  # +2
    t.state.stacks["reward_token"].draw.remove("token-might-1")
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-13"))  # 5 = 3 + 2
    events = t.do(c.Fight(hero="roel", rewards=[c.RewardPlay(item="token-might-1")]))
    assert "blood_moved" in kinds(events)  # won: red-13 gives blood
    assert "token-might-1" in t.state.stacks["reward_token"].discard


@pytest.mark.rule("R-ADV-1")
def test_never_two_identical_advanced_cards() -> None:  # R-ADV-1
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-01"))
    t.do(c.Fight(hero="roel", rewards=[]))
    t.finish_turn("roel")
    t.finish_turn("matthew")
    t.choose(roel="when-the-moon-shines-red", matthew="son-of-the-wolf")
    t.finish_turn("matthew")
    t.walk_onto("roel", t.red()[1])
    t.do(c.EnterDraw(hero="roel", token="red-02"))
    t.do(c.Fight(hero="roel", rewards=[]))
    roel = t.state.hero("roel")
    assert sum(1 for x in roel.advanced if x.startswith("fire-and-forgive")) == 1


@pytest.mark.rule("R-ADV-2")
def test_nighttime_rebel_goes_to_the_one_with_fewest_reward_cards() -> None:  # R-ADV-2
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    deck = t.state.stacks["reward_card"]
    for item in deck.draw[-2:]:  # arrange: two reward cards already in hand
        t.state.hero("roel").hand.append(item)
    del deck.draw[-2:]
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-05"))  # an axe: the third reward card
    t.do(c.Fight(hero="roel", rewards=[]))
    assert t.state.hero("matthew").pending == ["nighttime-rebel"]
    t.finish_turn("roel")  # R-ADV: joins the hand at the end of the earning turn
    assert "nighttime-rebel" in t.state.hero("matthew").hand


@pytest.mark.rule("R-ADV-1")
def test_advanced_cards_join_the_hand_at_the_end_of_the_turn() -> None:  # R-ADV-1
    from tests.engine.test_game_strigoi import round_two

    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-01"))
    t.do(c.Fight(hero="roel", rewards=[]))
    roel = t.state.hero("roel")
    assert t.task() == "strigoi"  # the turn is not over yet
    assert any(x.startswith("fire-and-forgive") for x in roel.pending)
    assert not any(x.startswith("fire-and-forgive") for x in roel.hand)  # cannot be used yet
    active = t.state.active
    for _ in range(10):  # answer whoever is asked (an attacked comrade, say) until the turn ends
        if t.state.active != active or t.state.phase != "turns":
            break
        waiting = t.game.waiting_for
        assert any(x.startswith("fire-and-forgive") for x in t.state.hero("roel").pending)
        t.finish_turn(waiting.hero if waiting and waiting.hero else "roel")
    assert any(x.startswith("fire-and-forgive") for x in t.state.hero("roel").hand)


def _card_with(ability: str) -> str:
    from tests.support.table import CATALOG

    return next(
        r.id for r in CATALOG.reward_cards if r.normal is not None and ability in r.normal.abilities
    )


def _give(t: Table, hero: str, item: str) -> None:
    """Arrange: a reward card from the deck into `hero`'s hand."""
    t.state.stacks["reward_card"].draw.remove(item)
    t.state.hero(hero).hand.append(item)


@pytest.mark.rule("R-ABL Recovery")
def test_recovery_takes_the_discard_pile_back() -> None:  # R-ABL Recovery
    t = Table([("attila", "L1"), ("roel", "L2")])
    t.state.hero("attila").hand.remove("attila/son-of-the-wolf")  # arrange: a discarded card
    t.state.hero("attila").discard.append("attila/son-of-the-wolf")
    t.choose(attila="sanctified-with-dynamite", roel="nightside-of-siberia")  # Pack + Recovery
    t.do(c.UseRecovery(hero="attila"))
    attila = t.state.hero("attila")
    assert "attila/son-of-the-wolf" in attila.hand and attila.discard == []


@pytest.mark.rule("R-ABL Gates of Hell")
def test_gates_of_hell_reactivates_every_encounter() -> None:  # R-ABL Gates of Hell
    t = Table([("roel", "L1"), ("matthew", "L2")])
    torch = next(r.id for r in t.rules.catalog.reward_cards if "gates_of_hell" in r.wild.abilities)
    _give(t, "roel", torch)
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.state.fight_markers.extend(t.red()[:3])
    with pytest.raises(IllegalCommand, match="no gates of hell"):
        t.do(c.UseGatesOfHell(hero="roel", source=f"{torch}:normal"))
    t.do(c.UseGatesOfHell(hero="roel", source=f"{torch}:wild"))
    assert t.state.fight_markers == [] and torch in t.state.removed


@pytest.mark.rule("R-ABL Retrieval")
def test_retrieval_takes_a_reward_card_back_even_in_a_fight() -> None:  # R-ABL Retrieval
    t = Table([("charles", "L1"), ("roel", "L2")])
    _give(t, "charles", "sword")
    hand = t.state.hero("charles")
    hand.hand.remove("sword")
    hand.discard.append("sword")  # arrange: the Sword in the own discard pile
    t.choose(charles="beast-of-gevaudan", roel="nightside-of-siberia")  # Retrieval
    t.walk_onto("charles", t.red()[0])
    t.do(c.EnterDraw(hero="charles", token="red-17"))  # strength 5 vs 4: needs the Sword
    with pytest.raises(IllegalCommand, match="not a reward card in charles's discard pile"):
        t.do(c.UseRetrieval(hero="charles", card="charles/son-of-the-wolf"))
    t.do(c.UseRetrieval(hero="charles", card="sword"))
    assert t.task() == "fight" and "sword" in t.state.hero("charles").hand
    events = t.do(c.Fight(hero="charles", rewards=[c.RewardPlay(item="sword")]))
    assert "advanced_earned" in kinds(events)  # won: 4 + 2 >= 5


@pytest.mark.rule("R-ABL Pack")
def test_pack_jumps_next_to_a_comrade() -> None:  # R-ABL Pack
    t = Table([("attila", "L1"), ("roel", "L2")])
    t.choose(attila="army-of-the-night", roel="nightside-of-siberia")  # Army: Pack
    cells = [x for x in t.game.legal_commands() if isinstance(x, c.UsePack)]
    roel_room = t.rules.fortress.room_at(t.at("roel"))
    assert roel_room is None and cells == []  # Roel on his ladder: no room to join
    t.place("roel", t.rules.fortress.centre("C"))
    cells = [x for x in t.game.legal_commands() if isinstance(x, c.UsePack)]
    assert cells and all(t.rules.fortress.room_at(tuple(x.to)) == "C" for x in cells)
    t.do(cells[0])
    assert t.rules.fortress.room_at(t.at("attila")) == "C" and t.task() == "move"


@pytest.mark.rule("R-ABL Leap")
def test_leap_within_the_own_room() -> None:  # R-ABL Leap
    t = Table([("matthew", "L1"), ("roel", "L2")])
    t.choose(matthew="dancing-with-the-dead", roel="nightside-of-siberia")  # Leap
    t.place("matthew", t.rules.fortress.centre("C"))
    leaps = [x for x in t.game.legal_commands() if isinstance(x, c.UseLeap)]
    assert leaps and all(t.rules.fortress.room_at(tuple(x.to)) == "C" for x in leaps)
    red = t.red()[0]
    with pytest.raises(IllegalCommand, match="no free, non-encounter space"):
        t.do(c.UseLeap(hero="matthew", to=red))
    t.do(leaps[-1])
    assert t.at("matthew") == tuple(leaps[-1].to)


@pytest.mark.rule("R-REW-3")
def test_adjacent_heroes_swap_reward_cards() -> None:  # R-REW-3
    t = Table([("roel", "L1"), ("matthew", "L2")])
    _give(t, "roel", "sword")
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    with pytest.raises(IllegalCommand, match="not on a space next to roel"):
        t.do(c.SwapRewards(hero="roel", other="matthew", give=["sword"]))
    here = t.rules.fortress.centre("C")
    t.place("roel", here)
    t.place("matthew", t.rules.fortress.adjacency(t.rules.fortress.initial_state())[here][0])
    with pytest.raises(IllegalCommand, match="only reward cards"):
        t.do(c.SwapRewards(hero="roel", other="matthew", give=["roel/prayer-in-the-dark"]))
    t.do(c.SwapRewards(hero="roel", other="matthew", give=["sword"]))
    assert "sword" in t.state.hero("matthew").hand and "sword" not in t.state.hero("roel").hand


@pytest.mark.rule("R-ADV-2")
def test_nighttime_rebel_draws_a_reward_card_and_leaves() -> None:  # R-ADV-2
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.state.advanced_left.remove("nighttime-rebel")  # arrange: Roel earned it earlier
    t.state.hero("roel").hand.append("nighttime-rebel")
    t.state.hero("roel").advanced.append("nighttime-rebel")
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.do(c.RebelDraw(hero="roel"))
    roel = t.state.hero("roel")
    assert "nighttime-rebel" in t.state.removed and "nighttime-rebel" not in roel.hand
    assert any(
        t.rules.catalog.reward_cards[i].id in roel.hand
        for i in range(len(t.rules.catalog.reward_cards))
    )


@pytest.mark.rule("R-ABL Destruction")
def test_destruction_cards_leave_the_game_after_use() -> None:  # R-ABL Destruction
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.state.advanced_left.remove("vampires-dont-die")  # arrange: earned earlier
    t.state.hero("roel").hand.append("vampires-dont-die")
    t.state.hero("roel").advanced.append("vampires-dont-die")
    t.do(c.ChooseCard(hero="roel", card="vampires-dont-die"))
    t.choose(matthew="nightside-of-siberia")
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    roel = t.state.hero("roel")
    assert "vampires-dont-die" in t.state.removed
    assert "vampires-dont-die" not in roel.discard + roel.hand
