"""Set-up corrections (engine/game/arrange.py): each component named is taken from where it lies,
each one displaced goes where the table puts it, every component stays once in the game, and
the events replay to the same state."""

from __future__ import annotations

import pytest

from companion.engine.game import commands as c
from companion.engine.game.game import replay
from companion.engine.game.invariants import violations
from companion.engine.game.public import public_event_data
from companion.errors import IllegalCommand
from tests.support.table import Table

ROEL = [
    "roel/murder-at-midnight",
    "roel/nightside-of-siberia",
    "roel/prayer-in-the-dark",
    "roel/son-of-the-wolf",
    "roel/werewolves-of-armenia",
    "roel/when-the-moon-shines-red",
]


def consistent(t: Table) -> None:
    assert violations(t.rules, t.state) == []
    assert replay(t.game.events) == t.state


def test_a_hand_set_alone_sends_the_other_own_cards_to_the_discard_pile() -> None:
    t = Table()
    t.do(c.SetCards(hero="roel", hand=["roel/son-of-the-wolf", "sword", "fire-and-forgive-2"]))
    roel = t.state.hero("roel")
    assert roel.hand == ["roel/son-of-the-wolf", "sword", "fire-and-forgive-2"]
    assert sorted(roel.discard) == [x for x in ROEL if x != "roel/son-of-the-wolf"]
    assert roel.advanced == ["fire-and-forgive-2"]
    assert "sword" not in t.state.stacks["reward_card"].draw
    consistent(t)
    t.do(c.SetCards(hero="roel", discard=[]))  # everything back to the hand
    roel = t.state.hero("roel")
    assert sorted(roel.hand) == sorted([*ROEL, "sword", "fire-and-forgive-2"])
    t.do(c.SetCards(hero="roel", hand=ROEL))  # the Sword to its stack's discards, F&F beside
    roel = t.state.hero("roel")
    assert roel.advanced == [] and "fire-and-forgive-2" in t.state.advanced_left
    assert t.state.stacks["reward_card"].discard == ["sword"]
    consistent(t)


def test_both_piles_set_the_rest_is_out_of_the_game() -> None:
    t = Table()
    t.do(c.SetCards(hero="roel", hand=ROEL[:2], discard=ROEL[2:4]))
    assert sorted(t.state.removed) == ROEL[4:]
    t.do(c.SetCards(hero="roel", hand=ROEL[:3]))  # taken back from out of the game
    assert t.state.hero("roel").hand == ROEL[:3] and sorted(t.state.removed) == ROEL[4:]
    consistent(t)


def test_tokens_wounds_markers_ladders_face_up_and_strigoi_wounds() -> None:
    t = Table(physical=frozenset({"red", "grey", "strigoi", "wound"}))
    t.do(c.SetCards(hero="matthew", reward_tokens=["token-shield-1"], wounds=["wound-double"]))
    matthew = t.state.hero("matthew")
    assert matthew.reward_tokens == ["token-shield-1"] and matthew.wounds == ["wound-double"]
    t.do(c.SetCards(hero="matthew", wounds=[]))
    assert t.state.stacks["wound"].discard == ["wound-double"]
    red = t.red()
    t.do(c.SetFightMarkers(cells=red[:2]))
    assert t.state.fight_markers == red[:2]
    t.do(c.SetFaceUp(stack="red", token="red-13"))
    t.do(c.SetFaceUp(stack="red", token="red-02"))  # the first back on top of its stack
    stack = t.state.stacks["red"]
    assert stack.face_up == "red-02" and stack.draw[-1] == "red-13"
    t.place("matthew", t.red()[3])  # off his ladder first
    t.do(c.SetLadders(ladders=["L1"]))
    assert t.state.ladders == ["L1"]
    consistent(t)


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (c.SetCards(hero="roel", hand=["matthew/son-of-the-wolf"]), "cannot be in roel's hand"),
        (c.SetCards(hero="roel", hand=["fire-and-forgive-1", "fire-and-forgive-2"]), "identical"),
        (c.SetCards(hero="roel", hand=["sword"], discard=["sword"]), "one place"),
        (c.SetCards(hero="roel", reward_tokens=["sword"]), "reward_tokens"),
        (c.SetCards(hero="charles", hand=[]), "not playing"),
        (c.SetStrigoiWounds(strigoi="master", wounds=1), "not on the board"),
        (c.SetFightMarkers(cells=[(0, 0)] * 2), "one per space"),
        (c.SetLadders(ladders=["L1"]), "stands on a ladder"),  # Matthew stands on L2
        (c.SetLadders(ladders=["L1", "L2", "L3"]), "still standing"),
        (c.SetFaceUp(stack="red", token="grey-03"), "not in the red stack"),
    ],
)
def test_impossible_set_ups_are_refused_and_change_nothing(command: c.Command, why: str) -> None:
    t = Table()
    before = t.state.event_count
    with pytest.raises(IllegalCommand, match=why):
        t.do(command)
    assert t.state.event_count == before
    consistent(t)


def test_a_strigoi_set_up_stays_below_its_existence() -> None:
    t = Table()
    t.state.strigoi.update(master="NW", apprentice="SE")  # round 2's placement, arranged
    t.do(c.SetStrigoiWounds(strigoi="master", wounds=2))
    assert t.state.strigoi_wounds == {"master": 2}
    with pytest.raises(IllegalCommand, match="0-2 wounds"):
        t.do(c.SetStrigoiWounds(strigoi="master", wounds=3))


def test_a_set_up_publishes_no_draw_order() -> None:
    t = Table()
    events = t.do(c.SetCards(hero="roel", hand=[*ROEL, "sword"]))
    data = public_event_data(events[0])
    assert data["moves"] == [["sword", "reward_card.draw", "roel.hand"]]
