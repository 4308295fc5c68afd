"""Setup and the round (R-SET, R-RND), commands refused with reasons, corrections."""

from __future__ import annotations

import json

import pytest

from companion.engine.board_build import load_board
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.game import Game, replay
from companion.engine.game.setup import new_game
from companion.errors import IllegalCommand
from tests.conftest import ROOT
from tests.support.table import CATALOG, FORTRESS, Table, kinds


@pytest.mark.rule("R-SET-2", "R-SET-3")
def test_heroes_start_on_their_ladders_and_unused_ladders_leave() -> None:  # R-SET-2
    t = Table([("roel", "L1"), ("matthew", "L2")])
    assert t.at("roel") == FORTRESS.ladders["L1"].cell
    assert t.state.ladders == ["L1", "L2"]
    assert t.state.strigoi == {}  # R-SET-3: not on the board in round 1
    assert sorted(t.state.hero("roel").hand) == sorted(CATALOG.hero_cards("roel"))  # 6 cards


@pytest.mark.rule("R-SET-2")
def test_a_ladder_next_to_a_strigoi_room_is_refused() -> None:  # R-SET-2
    data = json.loads((ROOT / "companion" / "data" / "default-fortress.json").read_text())
    data["layout"]["ladders"][4] = {"id": "L6", "room": "NW", "side": 1}
    board = load_board(data)
    with pytest.raises(IllegalCommand, match="touches 'NW', a Strigoi starting room"):
        new_game(GameRules(board, CATALOG), 1, [("roel", "L6"), ("matthew", "L1")])


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ([("roel", "L1")], "2-5 players"),
        ([("roel", "L1"), ("roel", "L2")], "each hero plays once"),
        ([("roel", "L1"), ("matthew", "L1")], "own ladder"),
        ([("wolf", "L1"), ("roel", "L2")], "unknown hero"),
    ],
)
def test_bad_setups_are_refused(seats: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(IllegalCommand, match=message):
        new_game(GameRules(FORTRESS, CATALOG), 1, seats)


@pytest.mark.rule("R-SET-4")
def test_stacks_are_shuffled_from_the_seed() -> None:  # R-SET-4
    a = Table(seed=1).state.stacks
    b = Table(seed=1).state.stacks
    d = Table(seed=2).state.stacks
    assert a == b
    assert a["red"].draw != d["red"].draw and sorted(a["red"].draw) == sorted(d["red"].draw)


@pytest.mark.rule("R-RND-1", "R-RND-2")
def test_choices_stay_secret_until_all_are_in() -> None:  # R-RND-1
    t = Table()
    events = t.do(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))
    assert next(e.public(x) for x in events) == e.CardChosen(hero="roel", card="")
    assert t.state.turn_order == [] and t.task() == "choose"
    with pytest.raises(IllegalCommand, match="not an action card in matthew's hand"):
        t.do(c.ChooseCard(hero="matthew", card="roel/son-of-the-wolf"))
    events = t.do(c.ChooseCard(hero="matthew", card="matthew/son-of-the-wolf"))
    assert "cards_revealed" in kinds(events)
    assert t.state.turn_order == ["matthew", "roel"]  # R-RND-2: initiative 2 before 3


@pytest.mark.rule("R-RND-1", "R-RND-2")
def test_a_chosen_card_may_be_swapped_until_all_reveal() -> None:  # R-RND-1 (decision)
    """Face down, a card can be swapped for another until everyone has chosen and all reveal
    together: the phones' seat page offers it (issue 41). The change is as secret as the
    choice, listed among the legal commands, and the revealed order follows the new card."""
    t = Table()
    t.do(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))  # initiative 3
    swap = c.ChooseCard(hero="roel", card="roel/son-of-the-wolf")  # initiative 2
    assert swap in t.game.legal_commands()
    assert c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark") not in t.game.legal_commands()
    events = t.do(swap)
    assert next(e.public(x) for x in events) == e.CardChosen(hero="roel", card="")
    with pytest.raises(IllegalCommand, match="roel has already chosen 'roel/son-of-the-wolf'"):
        t.do(swap)
    t.do(c.ChooseCard(hero="matthew", card="matthew/dancing-with-the-dead"))
    assert t.state.turn_order == ["roel", "matthew"]  # 2 before 5: the swapped card counts
    with pytest.raises(IllegalCommand, match="the game waits for"):  # revealed: too late
        t.do(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))


@pytest.mark.rule("R-RND-2")
def test_equal_initiative_follows_seat_order() -> None:  # R-RND-2 (option)
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(matthew="werewolves-of-armenia", roel="werewolves-of-armenia")
    assert t.state.turn_order == ["roel", "matthew"]  # both 4: roel sits first


@pytest.mark.rule("R-RND-3", "R-SET-3")
def test_round_one_has_no_strigoi_step_and_round_two_places_them() -> None:  # R-RND-3, R-SET-3
    t = Table()
    t.choose(roel="prayer-in-the-dark", matthew="son-of-the-wolf")
    for hero in t.state.turn_order:
        assert t.task() == "move"
        t.do(c.Stay(hero=hero))
        assert t.task() in ("move", "choose")  # no fight possible, no Strigoi yet
    assert t.state.round == 2 and t.task() == "choose"
    placed = sorted(t.state.strigoi.values())
    assert placed == ["NW", "SE"] and set(t.state.strigoi) == {"master", "apprentice"}


@pytest.mark.rule("R-RND-4")
def test_end_of_round_discards_played_cards_and_recovers_empty_hands() -> None:  # R-RND-4
    t = Table()
    hand = list(t.state.hero("roel").hand)
    played: list[str] = []
    for _ in range(6):
        card = t.state.hero("roel").hand[0]
        played.append(card)
        t.do(c.ChooseCard(hero="roel", card=card))
        t.do(c.ChooseCard(hero="matthew", card=t.state.hero("matthew").hand[0]))
        for hero in list(t.state.turn_order):
            t.finish_turn(hero)
        if t.state.phase == "over":
            pytest.skip("the Strigoi won before the hand ran out")
    roel = t.state.hero("roel")
    # the five earlier cards come back; the last, played this round, starts the new pile
    assert sorted(roel.hand) == sorted(played[:5]) and roel.discard == [played[5]]
    assert roel.played == [] and sorted(played) == sorted(hand)


def test_refusals_quote_the_command_and_change_nothing() -> None:
    t = Table()
    before = t.state
    events = len(t.game.events)
    with pytest.raises(IllegalCommand) as caught:
        t.do(c.Stay(hero="roel"))  # out of phase: the game waits for the cards
    assert '{"do":"stay","hero":"roel"}' in str(caught.value)
    assert "the game waits for choose (every player)" in str(caught.value)
    assert t.state is before and len(t.game.events) == events
    t.choose(roel="prayer-in-the-dark", matthew="son-of-the-wolf")
    with pytest.raises(IllegalCommand, match="it is matthew's decision"):
        t.do(c.Stay(hero="roel"))  # wrong player
    import msgspec

    snapshot = msgspec.msgpack.encode(t.state)
    with pytest.raises(IllegalCommand, match="cannot end a move"):
        t.do(c.Move(hero="matthew", to=(0, 0)))  # refused after the handler emitted an event
    assert msgspec.msgpack.encode(t.state) == snapshot and t.task() == "move"


def test_unknown_commands_are_refused_at_the_boundary() -> None:
    import msgspec

    with pytest.raises(msgspec.ValidationError):
        c.parse_command({"do": "teleport_me", "hero": "roel"})
    assert c.parse_command({"do": "stay", "hero": "roel"}) == c.Stay(hero="roel")


def test_manual_corrections_are_events_and_always_allowed() -> None:
    t = Table()
    cell = FORTRESS.centre("C")
    t.do(c.SetHeroPosition(hero="roel", to=cell))
    t.do(c.SetBlood(altar=3, inferno=1))
    t.do(c.SetRotation(room="E", rotation=4))
    t.do(c.AddWound(hero="matthew"))
    token = t.state.hero("matthew").wounds[0]
    t.do(c.RemoveWound(hero="matthew", token=token))
    s = t.state
    assert (s.hero("roel").at, s.altar, s.inferno, s.supply) == (cell, 3, 1, 10)
    assert s.rotations["E"] == 4 and s.hero("matthew").wounds == []
    assert replay(t.game.events) == s
    with pytest.raises(IllegalCommand, match="Altar holds 0-5"):
        t.do(c.SetBlood(altar=6, inferno=0))


def test_replay_of_the_log_gives_the_identical_state() -> None:
    import random

    from companion.engine.game.legal import legal_commands

    rules = GameRules(FORTRESS, CATALOG, GameOptions())
    game = Game.new(rules, 11, [("roel", "L1"), ("charles", "L3"), ("attila", "L4")])
    rng = random.Random(3)
    while not game.over:
        game.execute(rng.choice(legal_commands(rules, game.state)))
    again = Game.new(rules, 11, [("roel", "L1"), ("charles", "L3"), ("attila", "L4")])
    rng = random.Random(3)
    while not again.over:
        again.execute(rng.choice(legal_commands(rules, again.state)))
    assert again.events == game.events and replay(game.events) == game.state


@pytest.mark.rule("R-SET-3")
def test_a_hero_on_a_starting_centre_steps_off_when_the_strigoi_arrive() -> None:  # R-SET-3
    t = Table()
    t.place("roel", FORTRESS.centre("SE"))  # decision: stepping off costs no blood
    t.choose(roel="prayer-in-the-dark", matthew="son-of-the-wolf")
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    assert t.state.round == 2 and sorted(t.state.strigoi.values()) == ["NW", "SE"]
    names = [type(x).__name__ for x in t.game.events]
    off = names.index("StrigoiPlaced") - 1
    assert t.game.events[off] == e.HeroMoved(hero="roel", to=None)  # off before it lands
    # Matthew stands on L2, so L1 is the only free ladder: taken without asking
    assert t.at("roel") == FORTRESS.ladders["L1"].cell
    assert (t.state.altar, t.state.inferno) == (0, 0) and t.task() == "choose"
