"""The phones' board on numbers (companion/app/web/board.py, issues 29/30): the touchscreen's
crowd of five heroes on neighbouring spaces, pushed apart by the touchscreen's rules; each
room's name placed clear of every disc and every other name, in each language, and drawn as
wide as it was measured. The same in Chromium: tests/web/test_web_board_browser.py."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

import ui.board.layout
from companion.app.board import geometry as board_geometry
from companion.app.board.geometry import Box, Circle, intersects, overlaps
from companion.app.board.text_widths import text_width
from companion.app.web import board as web_board
from companion.app.web.board import NAME_SIZE, NAMES_APART, misread, reach, room_labels
from companion.app.web.views import board_view, names_view
from companion.app.words import i18n
from companion.engine.game import commands as c
from companion.engine.game.context import situation
from companion.engine.hexgrid import Cell
from tests.support.table import CROWD, FORTRESS, Table

Json = dict[str, Any]


def crowded_board() -> tuple[Table, dict]:  # type: ignore[type-arg]
    table = Table(seats=[(hero, f"L{i + 1}") for i, hero in enumerate(CROWD)])
    for hero, cell in CROWD.items():
        table.place(hero, cell)
    here = situation(table.rules, table.state)
    return table, board_view(FORTRESS, here, {})


def discs(board: dict, placed: bool = True) -> list[Circle]:  # type: ignore[type-arg]
    x, y = ("fx", "fy") if placed else ("x", "y")
    return [Circle(f["id"], f[x], f[y], reach(f["kind"])) for f in board["figures"]]


def test_the_crowd_is_pushed_apart_beside_its_spaces_keeping_its_order() -> None:
    _, board = crowded_board()
    heroes = [f for f in board["figures"] if f["kind"] == "hero"]
    assert {f["id"] for f in heroes} == set(CROWD)
    assert overlaps(discs(board, placed=False)) != []  # the phone's discs are wider than a space
    assert overlaps(discs(board)) == []
    at = {f["id"]: f for f in heroes}
    for f in heroes:  # beside its space: within a disc and a half of it
        assert math.hypot(f["fx"] - f["x"], f["fy"] - f["y"]) <= 3 * reach("hero"), f
    # left stays left, the upper row (smaller y in the SVG) stays above
    assert at["roel"]["fx"] < at["matthew"]["fx"]
    assert at["attila"]["fx"] < at["charles"]["fx"] < at["falk_maria"]["fx"]
    assert max(at["roel"]["fy"], at["matthew"]["fy"]) < min(
        at[h]["fy"] for h in ("attila", "charles", "falk_maria")
    ) + reach("hero")
    # the view holds every disc
    x, y, w, h = board["view"]
    for d in discs(board):
        assert x <= d.x - d.r and d.x + d.r <= x + w and y <= d.y - d.r and d.y + d.r <= y + h


def labels_in(language: str) -> tuple[dict, list[Json]]:  # type: ignore[type-arg]
    table, board = crowded_board()
    with i18n.translating(i18n.catalog(language)):
        names = names_view(FORTRESS, situation(table.rules, table.state))
        return board, room_labels(FORTRESS, board, names)


def box_of(label: Json) -> Box:
    x, y, w, h = label["box"]
    return Box(str(label["room"]), x, y, w, h)


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_each_room_name_is_clear_of_the_figures_and_of_each_other(language: str) -> None:
    board, labels = labels_in(language)
    assert {label["room"] for label in labels} == set(FORTRESS.rooms)
    boxes = [box_of(label) for label in labels]
    assert overlaps([*discs(board), *boxes]) == [], language
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:  # a space's width apart: two names never read as one
            assert not intersects(a, b, NAMES_APART - 1e-3), (a, b)
    # each name reads as its room's: over no other room's space, and beside its own room
    # (within two spaces of one of its spaces; the rooms lie about twelve apart)
    for box in boxes:
        near: dict[str, float] = {}
        for space in board["spaces"]:
            room = FORTRESS.room_at(tuple(space["c"]))
            if room is None:
                continue
            assert not intersects(Circle("space", space["x"], space["y"], 0.8), box), (
                language,
                box,
                space,
            )
            gap = math.hypot(
                space["x"] - min(max(space["x"], box.x), box.right),
                space["y"] - min(max(space["y"], box.y), box.top),
            )
            near[room] = min(near.get(room, math.inf), gap)
        label = next(label for label in labels if label["room"] == box.name)
        if box.name == FORTRESS.centre_room:
            # hemmed in by the other rooms' arms: its name between two of them, a line from
            # the name to the room (as on the touchscreen, board_geometry.Name.anywhere)
            x0, y0, x1, y1 = label["leader"]
            start = Circle("start", x0, y0, 0.05)
            assert intersects(start, Box("near", box.x - 0.5, box.y - 0.5, box.w + 1, box.h + 1))
            centre = next(r for r in board["rooms"] if r["id"] == box.name)
            assert math.hypot(x1 - centre["x"], y1 - centre["y"]) <= 3 * 2 * math.sqrt(3)
        elif "leader" not in label:  # beside its own room
            assert near[box.name] <= 2 * math.sqrt(3), (language, box, near)
            assert min(near.values()) == near[box.name], (language, box, near)
        else:  # in the margin, a line from it to its room
            x0, y0, x1, y1 = label["leader"]
            room = next(r for r in board["rooms"] if r["id"] == box.name)
            assert math.hypot(x1 - room["x"], y1 - room["y"]) <= 3 * 2 * math.sqrt(3)
    # and none reads as another room's (board_geometry.reads_as)
    assert misread(FORTRESS, board, labels) == [], language


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_the_names_are_large_enough_to_read_on_a_phone(language: str) -> None:
    """A 360 px phone shows the whole fortress about 336 px wide: its names 14 px and more
    (they were 11: issue 29), the view never widened by a name so far that they shrink."""
    board, labels = labels_in(language)
    x, _, w, _ = board["view"]
    left = min([x, *(label["box"][0] for label in labels)])
    right = max([x + w, *(label["box"][0] + label["box"][2] for label in labels)])
    assert NAME_SIZE * 336 / (right - left + 0.6) >= 14, (language, right - left)


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_each_line_is_drawn_as_wide_as_it_was_measured_inside_its_box(language: str) -> None:
    table, _ = crowded_board()
    _, labels = labels_in(language)
    with i18n.translating(i18n.catalog(language)):
        names = names_view(FORTRESS, situation(table.rules, table.state))
    for label in labels:
        box = box_of(label)
        lines = label["lines"]
        assert isinstance(lines, list) and lines
        assert " ".join(line[0] for line in lines) == names[box.name]
        for text, x, baseline, width in lines:
            assert width == pytest.approx(text_width(text, NAME_SIZE), abs=1e-3)
            assert x == pytest.approx(box.x + box.w / 2, abs=2e-3)  # centred (both rounded)
            assert box.x <= x - width / 2 and x + width / 2 <= box.x + box.w
            assert box.y + NAME_SIZE * 0.7 < baseline < box.y + box.h  # inside the box


def test_the_touchscreen_keeps_its_names_for_the_shared_geometry() -> None:
    """ui/board/layout.py only re-exports companion/app/board/geometry.py: one set of rules."""
    for name in ui.board.layout.__all__:
        assert getattr(ui.board.layout, name) is getattr(board_geometry, name), name


def test_text_widths_follow_the_letters() -> None:
    assert text_width("", 10) == 0
    assert text_width("iiii", 10) < text_width("mmmm", 10)
    assert text_width("chambre nord-ouest", 2.0) == pytest.approx(
        2 * text_width("chambre nord-ouest", 1.0)
    )
    assert text_width("Südwest", 1.0) > text_width("Sudwest", 1.0) - 1e-9  # an umlaut is known


# ----- the names' ground kept between commands (issue 41: the views' build) --------------------
def scene(moves: Sequence[tuple[str, Cell]] = (), command: c.Command | None = None) -> Table:
    """The crowd, then each (hero, space) move, then `command` (a platform turned...)."""
    table = Table(seats=[(hero, f"L{i + 1}") for i, hero in enumerate(CROWD)])
    for hero, cell in [*CROWD.items(), *moves]:
        table.place(hero, cell)
    if command is not None:
        table.do(command)
    return table


def both_ways(table: Table, language: str) -> tuple[list[Json], list[Json]]:
    """The labels placed on the kept ground (web_board.kept_ground) and on one made alone."""
    here = situation(table.rules, table.state)
    board = board_view(FORTRESS, here, {})
    with i18n.translating(i18n.catalog(language)):
        names = names_view(FORTRESS, here)
    return web_board.place_labels(FORTRESS, board, names), web_board.place_labels(
        FORTRESS, board, names, keep=False
    )


def scenes() -> list[Table]:
    """A game's worth of figures moving about the fortress (the crowd scattered, heroes in the
    margins of their rooms, at the ladders, in the centre), then a platform turned and more
    moves after it, another turned."""
    return [
        scene(),
        scene([("roel", (3, -10)), ("attila", (-2, -8))]),
        scene([("charles", (0, 0)), ("falk_maria", (4, -4)), ("matthew", (-4, 4))]),
        scene([("roel", (-11, 0)), ("matthew", (11, 0)), ("attila", (7, -11))]),
        scene(command=c.SetRotation(room="NW", rotation=4)),
        scene([("roel", (8, -6)), ("charles", (-8, 2))], c.SetRotation(room="NW", rotation=4)),
        scene([("roel", (1, 1)), ("charles", (-6, 6))], c.SetRotation(room="SW", rotation=1)),
    ]


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_names_on_the_kept_ground_are_those_placed_afresh(language: str) -> None:
    """Board after board of one game (figures moved, a platform turned), on the ground kept
    from the board before: the same labels, to the last digit, as placed from nothing."""
    web_board.kept_ground.cache_clear()
    for number, table in enumerate(scenes()):
        kept, afresh = both_ways(table, language)
        assert kept == afresh, (language, number)
    grounds = web_board.kept_ground.cache_info()
    assert grounds.hits >= 4, grounds  # the kept ground was used: moves placed on it
    assert grounds.misses == 3, grounds  # one ground a board: as made, and each turn


def test_a_changed_board_is_given_its_own_names_never_the_last() -> None:
    """A platform turned or a ladder taken away is another board: placed on its own ground,
    the labels it would get afresh, not the board before's."""
    web_board.kept_ground.cache_clear()
    for language in sorted(i18n.LANGUAGES):
        before, _ = both_ways(scene(), language)
        turned, turned_afresh = both_ways(scene(command=c.SetRotation(room="NE", rotation=3)),
                                          language)  # fmt: skip
        assert turned == turned_afresh
        ladders = [ladder for ladder in sorted(FORTRESS.ladders) if ladder != "L1"]
        taken, taken_afresh = both_ways(scene(command=c.SetLadders(ladders=ladders)), language)
        assert taken == taken_afresh
        assert taken != before, language  # the stairs space gone: the names move
    assert web_board.kept_ground.cache_info().misses == 3 * len(i18n.LANGUAGES)


def test_the_kept_grounds_are_bounded() -> None:
    """However many boards a game has (each platform turned every way, in two languages), only
    the last GROUNDS grounds are kept."""
    web_board.kept_ground.cache_clear()
    assert web_board.kept_ground.cache_info().maxsize == web_board.GROUNDS <= 16
    for rotation in range(6):
        for language in ("en", "de"):
            both_ways(scene(command=c.SetRotation(room="E", rotation=rotation)), language)
    grounds = web_board.kept_ground.cache_info()
    assert grounds.misses == 12, grounds  # twelve boards and languages, each its own ground
    assert grounds.currsize == web_board.GROUNDS, grounds
