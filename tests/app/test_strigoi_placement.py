"""The Strigoi enter the board at the start of round 2 (issue 40, item 3; R-SET-3): round 1 ends
without a curse while no Strigoi is on the board (its card and its board say the same), then a
story item of its own puts each Strigoi on its marked platform: a table to-do on the card, the
rings pulsing in the Strigoi's colours, the voice naming each figure and room, the to-do closed
by the centre readers or by hand. The table service and the simulated board's nodes are in
tests/app/test_strigoi_placement_table.py (slow); here the story, the tracker and the rings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.app.devices.leds import Light, RingShow, table_leds
from companion.app.story.announce import STRIGOI_COLOUR
from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of, why_rows
from companion.app.table.differences import expected_from_game
from companion.app.table.tracking import Origin, Step, TableTracker
from companion.app.web.views import announcement_view
from companion.app.words import i18n
from companion.app.words.names import room_name, strigoi_subject
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from firmware_bridge.board import room_node
from firmware_bridge.tags import CENTRE_READER
from tests.support.random_games import Told, played

RULES = GameRules(load_board_file(), load_catalog())
SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]
MARKED = {r.id for r in RULES.fortress.rooms.values() if r.strigoi_start}


def round_one_ends(games: int = 4) -> Iterator[Told]:
    """The command of each random game that ends round 1 (its story: round 2 begins)."""
    for told in played(RULES, SEATS, games):
        before, _command, _events, after, _story = told
        if before.round == 1 and after.round == 2:
            yield told


ENDS = list(round_one_ends())


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.mark.rule("R-SET-3", "R-RND-4")
def test_round_one_ends_without_a_curse_on_an_empty_board_then_the_strigoi_enter() -> None:
    assert len(ENDS) == 4
    for before, _command, events, after, story in ENDS:
        assert before.strigoi == {}  # R-SET-3: no Strigoi in round 1
        kinds = [a.kind for a in story]
        # no curse, then the new round's line, then the Strigoi entering (and whose turn)
        at = kinds.index("strigoi_placed")
        assert kinds[at - 2 : at + 1] == ["curse_skipped", "round", "strigoi_placed"], kinds
        skipped, placed = story[at - 2], story[at]
        # R-RND-4: no curse, and the board shown with that card has no Strigoi either (it drew
        # both while the card said "No Strigoi is on the board yet")
        assert skipped.facts["why"] == "no_strigoi"
        assert skipped.board is not None and skipped.board.strigoi == {}
        assert skipped.board.round == 1
        card = card_of(RULES.catalog, skipped)
        assert card.words.startswith("No curse in round 1:")
        # the placement: two different marked rooms, the board with the figures there
        entered = placed.facts["placed"]
        assert entered == after.strigoi and set(after.strigoi) == {"master", "apprentice"}
        assert set(after.strigoi.values()) <= MARKED and len(set(after.strigoi.values())) == 2
        assert placed.board is not None and placed.board.strigoi == after.strigoi
        assert placed.facts["round"] == 2
        assert [x.room for x in events if isinstance(x, e.StrigoiPlaced)] == list(
            after.strigoi.values()
        )


@pytest.mark.rule("R-SET-3")
def test_the_placement_card_is_a_table_to_do_said_whole() -> None:
    *_, after, story = ENDS[0]
    placed = next(a for a in story if a.kind == "strigoi_placed")
    card = card_of(RULES.catalog, placed)
    puts = tuple(
        f"Put {strigoi_subject(name)} on the centre of the {room_name(room)}."
        for name, room in after.strigoi.items()
    )
    assert puts[0].startswith("Put the Master on the centre of the ")
    assert card.title == "Round 2"
    assert card.headline == "The Strigoi enter the fortress."
    assert card.todo == puts  # what the table does, each figure with its room
    assert card.words == " ".join(("The Strigoi enter the fortress.", *puts))  # the voice
    assert card.done == "Strigoi placed" and card.rules == ("R-SET-3",)
    assert [rule for _sentence, rule in why_rows(RULES.catalog, placed)] == ["R-SET-3"]
    # the rings: each room pulses in its Strigoi's colour
    assert {cue.node: (cue.colour, cue.pattern) for cue in placed.leds} == {
        room_node(room): (STRIGOI_COLOUR[name], "pulse") for name, room in after.strigoi.items()
    }
    # the phones show the same card: headline, then the to-do
    assert announcement_view(placed, RULES.catalog)["lines"] == [card.headline, *puts]


def test_the_placement_card_in_german_and_a_hero_stepping_off() -> None:
    placed = Announcement(
        "strigoi_placed",
        "",
        (),
        (),
        {"round": 2, "placed": {"master": "SE", "apprentice": "NW"}, "stepped_off": ["roel"]},
    )
    card = card_of(RULES.catalog, placed)
    assert card.todo[-1] == (
        "Roel stood on a starting centre and steps off: the app asks where to."
    )
    i18n.set_language("de")
    german = card_of(RULES.catalog, placed)
    assert german.title == "Runde 2"
    assert german.headline != card.headline and german.done != card.done
    assert german.todo[0].startswith("Der Meister") and "Südost" in german.todo[0]
    assert "Roel" in german.todo[-1] and german.todo[-1] != card.todo[-1]


@pytest.mark.rule("R-SET-3")
def test_the_placement_to_do_on_a_table_without_tags_is_done_by_hand() -> None:
    """No figure carries a tag: the app asks all the same (a Strigoi figure is never moved by
    a hero's player), the readers cannot close it, a player says it is done."""
    before, _command, _events, after, story = ENDS[0]
    tracker = TableTracker(RULES.fortress.rooms, lambda uid: None, lambda p: False, lambda f: False)
    tracker.expect(expected_from_game(RULES, before), 0.0, Origin.RESUME)
    tracker.expect(expected_from_game(RULES, after), 1.0, Origin.COMMAND)
    status = tracker.status(60.0)  # long after: nothing closes by itself
    asked = {(a.room, a.figure) for a in status.actions if a.step == Step.PLACE_FIGURE}
    assert asked == {(room, name) for name, room in after.strigoi.items()}
    assert all(a.reader == CENTRE_READER and not a.sensed for a in status.actions)
    # the rings: the rooms to fill pulse in the figure's colour, the rest dark
    rings = table_leds(RULES.fortress.rooms, after, story[-1:], status)
    for room in RULES.fortress.rooms:
        name = next((n for n, r in after.strigoi.items() if r == room), None)
        want = RingShow(Light(STRIGOI_COLOUR[name], "pulse", 230)) if name else RingShow()
        assert rings[room_node(room)] == want, room
    tracker.done_by_hand()
    assert tracker.status(61.0).actions == ()
