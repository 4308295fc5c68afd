"""The setup wizard's model (R-SET): players, heroes, seat order, layout edits through the board
loader, ladder sites with the rule's reasons, physical stacks, and the game it starts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.app.session.game import GameSession
from companion.app.session.setup_plan import SetupPlan, ladder_sites
from companion.boardfile import load_board_file
from companion.engine.board_build import load_board
from companion.engine.game.context import GameOptions
from companion.errors import BoardFormatError, SetupError
from companion.store.gamelog import GameLog


@pytest.fixture
def plan() -> SetupPlan:
    return SetupPlan.from_fortress(load_board_file(), ["roel", "attila"])


@pytest.mark.rule("R-SET-2")
def test_ladder_sites_of_the_default_fortress_carry_the_rule_against_them() -> None:
    # R-SET-2: outer side, a corridor reaching it, not a Strigoi-marked platform's room
    sites = {(s.room, s.side): s for s in ladder_sites(load_board_file())}
    assert sites[("E", 0)].allowed
    assert "no corridor" in sites[("E", 1)].refusal and "R-SET" not in sites[("E", 1)].refusal
    assert "Strigoi mark" in sites[("NW", 1)].refusal  # NW holds a marked platform
    assert ("E", 2) not in sites  # faces room NE: not an outer side at all
    fortress = load_board_file()
    for ladder in fortress.ladders.values():  # every ladder of the printed layout is allowed
        assert sites[(ladder.room, ladder.side)].allowed


def test_players_two_to_five_each_hero_once(plan: SetupPlan) -> None:
    with pytest.raises(SetupError, match="already playing"):
        plan.add_player("roel")
    plan.add_player()
    plan.add_player()
    plan.add_player()
    assert sorted(s.hero for s in plan.seats) == sorted(
        ["roel", "attila", "falk_maria", "matthew", "charles"]
    )
    with pytest.raises(SetupError, match="At most five"):
        plan.add_player()
    for _ in range(3):
        plan.remove_player(0)
    with pytest.raises(SetupError, match="At least two"):
        plan.remove_player(0)


def test_hero_button_cycles_through_free_heroes_and_seats_reorder(plan: SetupPlan) -> None:
    plan.next_hero(0)  # roel -> attila is taken -> falk_maria... (wraps past the taken one)
    assert plan.seats[0].hero not in ("roel", "attila")
    hero0 = plan.seats[0].hero
    plan.move_seat(0, +1)
    assert [s.hero for s in plan.seats] == ["attila", hero0]
    plan.move_seat(0, -1)  # off the top: nothing moves
    assert [s.hero for s in plan.seats] == ["attila", hero0]


@pytest.mark.rule("R-SET-2")
def test_ladders_refused_with_reasons_and_one_per_side(plan: SetupPlan) -> None:
    plan.place_ladder(0, "E", 0)
    with pytest.raises(SetupError, match="Roel's ladder stands there"):
        plan.place_ladder(1, "E", 0)
    with pytest.raises(  # the side in words, never "NW NE"
        SetupError, match=r"^No ladder in the north-west room: its platform has the Strigoi mark"
    ):
        plan.place_ladder(1, "NW", 1)
    with pytest.raises(SetupError, match=r"^East room, north-west side is not an outer side"):
        plan.place_ladder(1, "E", 2)
    assert plan.problems() == ["Attila has no ladder yet"]
    assert plan.problems(lambda template: "«" + template + "»") == [  # the app's language
        "«Attila has no ladder yet»"
    ]
    plan.place_ladder(1, "W", 3)
    assert plan.problems() == []
    board = load_board(plan.game_board())
    assert {(x.room, x.side) for x in board.ladders.values()} == {("E", 0), ("W", 3)}
    assert plan.game_seats() == [("roel", "L1"), ("attila", "L2")]


def test_layout_edits_go_through_the_loader_and_drop_ladders_they_invalidate(
    plan: SetupPlan,
) -> None:
    plan.place_ladder(0, "E", 0)
    before = plan.fortress.rooms["E"].rotation
    plan.turn_platform("E")
    assert plan.fortress.rooms["E"].rotation == (before + 1) % 6
    assert plan.seats[0].site == ("E", 0)  # platforms do not move doors
    plan.turn_tile("E")  # the door on side 0 turns to side 1
    assert 0 not in plan.fortress.rooms["E"].doors
    assert plan.seats[0].site is None
    with pytest.raises(SetupError, match="centre room"):
        plan.swap_rooms("C", "E")
    platform_e, platform_w = plan.fortress.rooms["E"].platform, plan.fortress.rooms["W"].platform
    plan.swap_rooms("E", "W")
    assert (plan.fortress.rooms["E"].platform, plan.fortress.rooms["W"].platform) == (
        platform_w,
        platform_e,
    )
    plan.use_default_layout()
    assert plan.board["layout"]["rooms"] == plan.default_board["layout"]["rooms"]


def test_a_refused_edit_leaves_the_plan_as_it_was(plan: SetupPlan) -> None:
    plan.board["layout"]["rooms"][1]["orientation"] = 9  # a broken board inside the plan
    with pytest.raises(BoardFormatError, match=r"layout\.rooms\[1\]\.orientation"):
        plan.turn_platform("E")
    plan.board["layout"]["rooms"][1]["orientation"] = 0
    with pytest.raises(SetupError, match="no room"):
        plan.turn_tile("X")


@pytest.mark.rule("R-SET-1")
def test_random_layouts_keep_marked_platforms_apart() -> None:
    # R-SET-1 advice for first games
    for seed in range(30):
        plan = SetupPlan.from_fortress(load_board_file())
        plan.randomise_layout(random.Random(seed))
        marked = [r for r in plan.fortress.rooms.values() if r.strigoi_start]
        assert len(marked) == 2
        assert marked[1].id not in marked[0].neighbours


def test_physical_stacks_are_checked(plan: SetupPlan) -> None:
    plan.set_physical("red", True)
    plan.set_physical("grey", True)
    plan.set_physical("grey", False)
    assert plan.physical == {"red"}
    with pytest.raises(SetupError, match="unknown stack"):
        plan.set_physical("dice", True)


def test_the_plan_starts_a_game_on_its_own_layout(plan: SetupPlan, tmp_path: Path) -> None:
    plan.randomise_layout(random.Random(3))
    plan.place_ladder(0, *next((s.room, s.side) for s in plan.sites() if s.allowed))
    plan.place_ladder(1, *next((s.room, s.side) for s in plan.sites() if s.allowed))
    plan.set_physical("strigoi", True)
    with GameLog(tmp_path / "g.db") as log:
        session = GameSession.start(
            log,
            5,
            plan.game_seats(),
            GameOptions(physical=frozenset(plan.physical)),
            load_board(plan.game_board()),
        )
        again = GameSession(log, session.game_id)  # the layout is stored with the game
        assert again.rules.fortress.rooms["E"].platform == plan.fortress.rooms["E"].platform
        assert again.rules.options.physical == frozenset({"strigoi"})
        hero = again.state.heroes[0]
        assert hero.at == again.rules.fortress.ladders["L1"].cell


def test_every_chosen_ladder_is_on_the_preview_with_its_hero(plan: SetupPlan) -> None:
    fortress, owners = plan.preview()
    assert owners == {} and not fortress.ladders  # nobody has chosen yet
    plan.add_player("matthew")
    plan.place_ladder(0, "E", 0)
    plan.place_ladder(2, "W", 3)
    fortress, owners = plan.preview()
    assert owners == {"L1": "roel", "L3": "matthew"}  # seat 2 (Attila) has none yet
    assert {(x.room, x.side) for x in fortress.ladders.values()} == {("E", 0), ("W", 3)}
    assert fortress.ladders["L3"].room == "W"


def test_a_room_is_described_by_what_its_tile_and_platform_show(plan: SetupPlan) -> None:
    # NW of the default layout: tile t3 (2 red, 1 grey, 1 stairs), platform p1 (books
    # ABCDEF, the Strigoi mark) turned one step: book A faces north-east
    parts = plan.room_parts("NW")
    assert parts.tile_spaces == {"red": 2, "grey": 1, "stairs": 1}
    assert (parts.books, parts.marked, parts.book_facing) == ("ABCDEF", True, ("A", 1))
    east = plan.room_parts("NE")  # p2 "CAEBFD" read round the rim from A
    assert (east.books, east.marked, east.book_facing) == ("AEBFDC", False, ("C", 0))
    plan.turn_platform("NE")
    assert plan.room_parts("NE").book_facing == ("C", 1)
    centre = plan.room_parts("C")
    assert centre.book_facing is None and centre.books == ""


def test_players_can_be_added_and_removed_only_within_two_to_five(plan: SetupPlan) -> None:
    assert plan.can_add_player() and not plan.can_remove_player()  # R-SET: two seats
    for _ in range(3):
        plan.add_player()
    assert not plan.can_add_player() and plan.can_remove_player()


def test_the_not_allowed_list_says_each_reason_once(plan: SetupPlan) -> None:
    """The wizard's "Not allowed" list: a room whose platform has the Strigoi mark refuses
    each of its outer sides for the same reason, in the same words ("No ladder in the
    north-west room: its platform has the Strigoi mark."): the list says it once (issue 29
    playtest: the list repeated lines); a site the active seat holds is not in it."""
    marked = [s for s in plan.sites() if "Strigoi mark" in s.reason]
    assert len({s.room for s in marked}) < len(marked)  # one room, several sides: one reason
    plan.place_ladder(0, "E", 0)
    refused = plan.refused_sites(plan.seats[1])
    assert refused and len(refused) == len(set(refused)), refused
    assert sum("Strigoi mark" in line for line in refused) == len({s.room for s in marked})
    assert any("Roel" in line for line in refused)  # the other seat's ladder is a refusal
    assert not any("Roel" in line for line in plan.refused_sites(plan.seats[0]))
