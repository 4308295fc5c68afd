"""The board's layout rules on numbers (ui/board/layout.py, issue 29 item 3): the overlap check
itself, figures pushed apart beside their spaces, room names placed clear of figures and of
each other with the widths of their words; and the room the board shows for what the game
waits for (ui/screens/round_board.focus_room)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import commands as c
from tests.support.table import CATALOG, FORTRESS, Table
from ui.board.layout import (
    GAP,
    Box,
    Circle,
    Item,
    Name,
    Placed,
    astray,
    covered,
    intersects,
    misread,
    overlaps,
    place_names,
    reads_as,
    room_spaces,
    split_in_two,
    spread,
)
from ui.screens.round.board import focus_room


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([Circle("RO", 0, 0, 15), Circle("MT", 30, 0, 15)], []),  # touching: apart
        ([Circle("RO", 0, 0, 15), Circle("MT", 29, 0, 15)], ["'RO' overlaps 'MT'"]),
        ([Circle("RO", 0, 0, 15), Circle("MT", 0, 0, 15)], ["'RO' overlaps 'MT'"]),  # one space
        ([Box("NW", 0, 0, 140, 19), Box("NE", 140, 0, 120, 19)], []),  # side by side
        (  # "chambre nord-ouestchambre nord-est": run into each other
            [Box("NW", 0, 0, 140, 19), Box("NE", 130, 0, 120, 19)],
            ["'NW' overlaps 'NE'"],
        ),
        ([Box("NW", 0, 0, 140, 19), Box("W", 0, 25, 140, 19)], []),  # one above the other
        ([Box("NW", 0, 0, 140, 19), Circle("AT", 150, 10, 9)], []),  # beside the name's end
        ([Box("NW", 0, 0, 140, 19), Circle("AT", 150, 10, 11)], ["'NW' overlaps 'AT'"]),
        ([Box("NW", 0, 0, 140, 19), Circle("AT", 70, 10, 4)], ["'NW' overlaps 'AT'"]),  # inside
        ([Box("NW", 0, 0, 140, 19), Circle("AT", 148, 27, 10)], []),  # off the corner
        ([Box("NW", 0, 0, 140, 19), Circle("AT", 145, 24, 10)], ["'NW' overlaps 'AT'"]),
        (
            [Circle("RO", 0, 0, 15), Circle("MT", 20, 0, 15), Box("NW", -20, 5, 60, 19)],
            ["'RO' overlaps 'MT'", "'RO' overlaps 'NW'", "'MT' overlaps 'NW'"],
        ),
    ],
)
def test_the_overlap_check_names_every_pair_that_covers_another(
    items: list[Item], expected: list[str]
) -> None:
    assert overlaps(items) == expected


def _hex_centre(q: int, r: int, size: float) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), -size * 1.5 * r


#: five heroes on neighbouring spaces at the top of the north-west room (the crowd of issue 29)
CROWD = {"RO": (0, -10), "MT": (1, -10), "AT": (0, -9), "CH": (1, -9), "FM": (2, -9)}


@pytest.mark.parametrize("size", [8.0, 9.5, 12.0])  # the whole fortress at 800x480 .. 1280x800
def test_heroes_on_neighbouring_spaces_are_pushed_apart_keeping_their_places(size: float) -> None:
    wanted = [Circle(mark, *_hex_centre(*cell, size), 15) for mark, cell in CROWD.items()]
    assert overlaps(wanted) != []  # as drawn before: "AT RO MT" on top of each other
    placed = spread(wanted)
    assert overlaps(placed) == []
    assert not any(intersects(a, b, GAP) for i, a in enumerate(placed) for b in placed[i + 1 :])
    at = {p.name: p for p in placed}
    for disc in wanted:  # each beside its space: within a disc and a half of it
        assert math.hypot(at[disc.name].x - disc.x, at[disc.name].y - disc.y) <= 1.5 * disc.r * 2
    # the crowd keeps its order: left stays left, the upper row stays above
    assert at["RO"].x < at["MT"].x and at["AT"].x < at["CH"].x < at["FM"].x
    assert min(at["RO"].y, at["MT"].y) > max(at["AT"].y, at["CH"].y, at["FM"].y) - 15


def test_figures_already_clear_of_each_other_stay_on_their_spaces() -> None:
    wanted = [Circle("RO", 0, 0, 15), Circle("MT", 60, 0, 15), Circle("M", 0, 60, 20)]
    assert spread(wanted) == wanted


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-6, 6), st.integers(-6, 6), st.sampled_from([15.0, 16.25, 24.0])),
        min_size=1,
        max_size=7,
        unique_by=lambda t: (t[0], t[1]),
    ),
    st.floats(8.0, 40.0),
)
def test_no_two_figures_ever_intersect_after_spreading(
    figures: list[tuple[int, int, float]], size: float
) -> None:
    wanted = [
        Circle(f"F{i}", *_hex_centre(q, r, size), radius)
        for i, (q, r, radius) in enumerate(figures)
    ]
    assert overlaps(spread(wanted)) == []


def _line(text: str, px_per_char: float = 7.8, height: float = 19.0) -> tuple[str, float, float]:
    return (text, len(text) * px_per_char, height)


def _name(room: str, text: str, cx: float, cy: float, outwards: int) -> Name:
    halves = split_in_two(text)
    two = (_line(halves[0]), _line(halves[1])) if halves else (_line(text),)
    return Name(room, (_line(text),), two, cx, cy, 52.0, 44.0, outwards)


def test_french_names_of_neighbouring_rooms_do_not_run_into_each_other() -> None:
    """The north-west and north-east rooms' names (140 px each at 16 px) above rooms 105 px
    apart, heroes crowded at the top of the north-west room: each name clear of the other, of
    every figure, inside the view, and nearer to its own room than to the other."""
    size = 8.7
    nw, ne = _hex_centre(0, -7, size), _hex_centre(7, -7, size)
    figures = spread([Circle(m, *_hex_centre(*cell, size), 15) for m, cell in CROWD.items()])
    bounds = Box("view", -200, -200, 450, 290)
    names = [
        _name("NW", "chambre nord-ouest", *nw, -1),
        _name("NE", "chambre nord-est", *ne, 1),
    ]
    placed = place_names(names, figures, [], bounds, GAP, 10)
    boxes = [p.box for p in placed]
    assert overlaps([*figures, *boxes]) == []
    assert not intersects(boxes[0], boxes[1], 10)  # a word's gap apart, not run together
    for box in boxes:
        assert bounds.x <= box.x and box.right <= bounds.right
        assert bounds.y <= box.y and box.top <= bounds.top
    centre = {p.room: (p.box.x + p.box.w / 2, p.box.y + p.box.h / 2) for p in placed}
    for room, own, other in (("NW", nw, ne), ("NE", ne, nw)):
        x, y = centre[room]
        assert math.hypot(x - own[0], y - own[1]) < math.hypot(x - other[0], y - other[1])


def test_a_name_takes_its_place_above_its_room_when_nothing_is_there() -> None:
    name = _name("E", "east room", 0, 0, 1)
    [placed] = place_names([name], [], [], Box("view", -300, -300, 600, 600))
    assert placed.lines == (_line("east room"),)
    assert placed.box.y == pytest.approx(44.0)  # just above the room
    assert placed.box.x + placed.box.w / 2 == pytest.approx(0.0)  # centred on it


def test_a_name_that_fits_nowhere_on_one_line_goes_on_two() -> None:
    """A view just wide enough for the longer half: "chambre" over "nord-ouest"."""
    name = _name("NW", "chambre nord-ouest", 0, 0, -1)
    [placed] = place_names([name], [], [], Box("view", -60, -200, 120, 400))
    assert [text for text, _, _ in placed.lines] == ["chambre", "nord-ouest"]


def test_larger_text_still_keeps_names_apart() -> None:
    """The same rooms with the names a quarter larger (Text size: large)."""
    size = 8.7
    nw, ne = _hex_centre(0, -7, size), _hex_centre(7, -7, size)
    figures = spread([Circle(m, *_hex_centre(*cell, size), 15) for m, cell in CROWD.items()])
    names = []
    for room, text, (cx, cy), side in (
        ("NW", "chambre nord-ouest", nw, -1),
        ("NE", "chambre nord-est", ne, 1),
    ):
        halves = split_in_two(text)
        assert halves is not None
        one = (_line(text, 9.75, 24),)
        two = (_line(halves[0], 9.75, 24), _line(halves[1], 9.75, 24))
        names.append(Name(room, one, two, cx, cy, 52.0, 44.0, side))
    placed = place_names(names, figures, [], Box("view", -200, -200, 450, 290), GAP, 12)
    assert overlaps([*figures, *(p.box for p in placed)]) == []
    assert not intersects(placed[0].box, placed[1].box, 12)


@pytest.mark.parametrize(
    ("above", "expected"),
    [
        ([Box("NW", 0, 0, 140, 19)], ["'NW' covers 'space a'"]),  # over a space's middle
        ([Box("NW", 0, 30, 140, 19)], []),  # above it
        ([Box("legend", -50, -60, 300, 30)], []),  # the legend's strip below it
        ([Box("Whole fortress", 5, -12, 100, 48)], ["'Whole fortress' covers 'space a'"]),
    ],
)
def test_the_cover_check_names_each_space_under_a_name_the_legend_or_a_button(
    above: list[Item], expected: list[str]
) -> None:
    ground = [Circle("space a", 40, 5, 8), Circle("space b", 200, 5, 8)]
    assert covered(ground, above) == expected


def _spaces_of(cx: float, cy: float, size: float, room: str) -> list[tuple[Circle, float]]:
    """A room of radius 2 around (cx, cy), each space as the view weighs it (60: as bad as
    covering a figure, nearly)."""
    cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    return [
        (Circle(f"space:{room}", cx + x, cy + y, size * 0.8), 60.0)
        for x, y in (_hex_centre(q, r, size) for q, r in cells)
    ]


def test_a_name_with_no_clear_place_beside_its_room_goes_into_the_margin_with_a_line() -> None:
    """Issue 29: at 800x480 with large text the room names covered spaces. Rooms on every side
    of one, figures above it: its name takes a place covering no space, further out, and a
    leader line joins it to its room."""
    size = 11.0
    soft: list[tuple[Circle, float]] = []
    rooms = {"C": (0.0, 0.0)}
    for k in range(6):  # six rooms around the centre room, as on the fortress
        angle = math.radians(60 * k + 30)
        rooms[f"R{k}"] = (5.2 * size * 1.5 * math.cos(angle), 5.2 * size * 1.5 * math.sin(angle))
    for room, (cx, cy) in rooms.items():
        soft += _spaces_of(cx, cy, size, room)
    bounds = Box("view", -260, -260, 520, 520)
    name = Name("C", (_line("chambre centrale", 9.75, 24),), (_line("chambre", 9.75, 24),
                _line("centrale", 9.75, 24)), 0.0, 0.0, 52.0, 44.0, 0, anywhere=True)  # fmt: skip
    [placed] = place_names([name], [], soft, bounds)
    assert covered([thing for thing, _ in soft], [placed.box]) == []
    assert placed.line is not None  # away from its room: a line to it
    x0, y0, x1, y1 = placed.line
    assert math.hypot(x1, y1) < 60 < math.hypot(x0, y0)  # from the name to the room's edge


def test_a_name_nearer_to_another_room_than_its_own_is_astray() -> None:
    east, west = (_line("east room"),), (_line("west room"),)
    names = [Name("E", east, east, 100, 0, 40, 40, 1), Name("W", west, west, -100, 0, 40, 40, -1)]
    near = place_names(names[:1], [], [], Box("view", -300, -300, 600, 600))
    assert astray(near, names) == []
    wrong = [type(near[0])("E", near[0].lines, Box("E", -130, 0, 70, 19))]
    assert astray(wrong, names) == ["E"]


def _rooms_in_a_row(size: float = 11.0) -> list[tuple[Circle, float]]:
    """Three rooms side by side (W, C, E), 10 spaces' widths apart, their spaces as the view
    weighs them."""
    soft: list[tuple[Circle, float]] = []
    for room, cx in (("W", -200.0), ("C", 0.0), ("E", 200.0)):
        soft += _spaces_of(cx, 0.0, size, room)
    return soft


@pytest.mark.parametrize(
    ("room", "box", "line", "expected"),
    [
        ("E", Box("E", 150, 60, 100, 19), None, None),  # just above its room
        # under the room beside it, a line or not: it reads as that room's (issue 29: the
        # wizard's "chambre sud-ouest" under the south-east room, leader line and all)
        ("W", Box("W", -40, 50, 100, 19), None, "C"),
        ("W", Box("W", -40, 50, 100, 19), (-40.0, 50.0, -160.0, 30.0), "C"),
        # between two rooms, nearer the other's spaces, no line: the other's ("Raum Südost"
        # against the east room)
        ("E", Box("E", 40, 45, 60, 19), None, "C"),
        # out in the margin, away from every room, with its line: its own
        ("W", Box("W", -150, 120, 100, 19), (-100.0, 120.0, -200.0, 44.0), None),
    ],
)
def test_a_name_reads_as_the_room_it_stands_beside(
    room: str, box: Box, line: tuple[float, float, float, float] | None, expected: str | None
) -> None:
    soft = _rooms_in_a_row()
    names = {
        r: Name(r, (_line("room"),), (_line("room"),), cx, 0.0, 52.0, 44.0, 0)
        for r, cx in (("W", -200.0), ("C", 0.0), ("E", 200.0))
    }
    centres = {r: (n.cx, n.cy) for r, n in names.items()}
    assert reads_as(names[room], box, line, room_spaces(soft), centres) == expected
    placed = [Placed(room, (_line("room"),), box, line)]
    assert misread(placed, list(names.values()), soft) == (
        [] if expected is None else [f"the name of {room} reads as {expected}'s"]
    )


def test_names_of_three_rooms_in_a_row_each_read_as_their_own() -> None:
    """Placed, no name reads as another room's, with names wider than the gaps between."""
    soft = _rooms_in_a_row()
    names = [
        _name("W", "chambre sud-ouest", -200.0, 0.0, -1),
        _name("C", "chambre centrale", 0.0, 0.0, 0),
        _name("E", "chambre sud-est", 200.0, 0.0, 1),
    ]
    placed = place_names(names, [], soft, Box("view", -300, -80, 600, 160))
    assert misread(placed, names, soft) == []
    assert covered([thing for thing, _ in soft], [p.box for p in placed]) == []


def _five() -> Table:
    return Table(
        seats=[("roel", "L1"), ("matthew", "L2"), ("attila", "L3"), ("charles", "L4"),
               ("falk_maria", "L5")]
    )  # fmt: skip


def _room_near(cell: tuple[int, int]) -> str | None:
    room = FORTRESS.room_at(cell)
    if room is None and cell in FORTRESS.ladder_by_cell:
        room = FORTRESS.ladders[FORTRESS.ladder_by_cell[cell]].room
    return room


def test_the_board_shows_the_room_of_the_hero_the_game_waits_for() -> None:
    t = _five()
    assert focus_room(t.state, t.game.waiting_for, [], _room_near) is None  # secret choice
    for hero in ("roel", "matthew", "attila", "charles", "falk_maria"):
        t.do(c.ChooseCard(hero=hero, card=CATALOG.hero_cards(hero)[0]))
    task = t.game.waiting_for
    assert task is not None and task.kind == "move"
    first = task.hero
    assert first is not None
    t.place(first, (0, -9))  # the north-west room
    task = t.game.waiting_for
    assert focus_room(t.state, task, [], _room_near) == "NW"
    # spaces to choose in one room: that room, wherever the hero stands
    assert focus_room(t.state, task, [(7, -9), (7, -8)], _room_near) == "NE"
    # spaces in several rooms: the hero's own
    assert focus_room(t.state, task, [(7, -9), (0, -10)], _room_near) == "NW"
    # spaces in several rooms, none the hero's (a fight marker to take, R-ENC-4): the whole
    # fortress, so every lit space shows (issue 40)
    assert focus_room(t.state, task, [(7, -9), (-7, 9)], _room_near) is None
    t.do(c.Stay(hero=first))
    t.finish_turn(first)
    task = t.game.waiting_for
    assert task is not None and task.hero not in (None, first)  # the next hero's turn
    second = task.hero
    assert second is not None
    assert focus_room(t.state, task, [], _room_near) == _room_near(t.at(second) or (0, 0))
    assert focus_room(t.state, task, [], _room_near) != "NW"  # not the last hero's room


@pytest.mark.rule("R-ENC-4")
def test_a_fight_marker_to_take_is_chosen_on_spaces_lit_from_the_legal_list() -> None:
    """All six fight markers out: the board lights exactly the spaces the engine accepts
    (its legal list), none in the hero's room, and shows the whole fortress so each is seen
    (issue 40: "put a fight marker on a space in the west room" marked no space)."""
    from tests.engine.test_game_encounters import fight_ready
    from ui.screens.round.board import BoardChoice

    t, target = fight_ready()
    t.state.fight_markers.extend([x for x in t.red() if x != target][:6])  # six out
    t.do(c.EnterDraw(hero="roel", token="red-07"))
    t.do(c.Fight(hero="roel", rewards=[]))
    task = t.game.waiting_for
    assert task is not None and task.kind == "marker"
    legal = t.game.legal_commands()
    choice = BoardChoice()
    choice.offer(legal)
    lit = choice.cells(FORTRESS, t.state)
    assert lit == {x.take_from for x in legal if isinstance(x, c.PlaceFightMarker)}
    assert lit and FORTRESS.room_at(target) not in {FORTRESS.room_at(x) for x in lit}
    assert focus_room(t.state, task, lit, _room_near) is None  # the whole fortress
