"""The phones' board (ui/web, issues 29/30): where each figure's disc and each room's name go,
so that no two discs and no name and disc cover each other. The touchscreen's rules
(companion/app/board/geometry.py: the same push-apart with a line to the space, the same
places tried around a room) on the same board, in the SVG's units (a space's radius is 1).

Why the server places them, not the page: one implementation of the rules for both screens,
tested on numbers; the discs' places have no words and are made once for every viewer, the
names' places once per language and change for every phone of that language; the page only
draws. The geometry is in the SVG's units and scales as a whole with the phone: its sizes are
chosen for the smallest phone showing the whole fortress (360 px wide: about 8 px a unit), and
grow on larger screens and when a room is zoomed in.

Why the widths hold in a browser: the server cannot know a phone's font, so it estimates each
name's width from DejaVu Sans' advance widths (board/text_widths.py), and the page draws
each line with exactly that width (SVG `textLength`, lengthAdjust `spacingAndGlyphs`): a phone's
font a little wider or narrower is squeezed or stretched by a few per cent instead of running
into a figure. tests/web/test_web_board_browser.py reads every name's and disc's box in Chromium
(getBBox) and checks that none covers another, and the estimate against the browser's own
measure of the text.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.app.board.geometry import (
    GAP,
    Box,
    Circle,
    Ground,
    Item,
    Name,
    place_names,
    reads_as,
    split_in_two,
)
from companion.app.board.geometry import spread as spread_discs
from companion.app.board.text_widths import text_width
from companion.engine.fortress import Fortress

JSON = dict[str, Any]
SQRT3 = math.sqrt(3)

#: a hero's disc (its radius; the outline adds OUTLINE), a Strigoi's diamond (corner to
#: centre), the figures' marks and the room names (font sizes), all in the SVG's units: about
#: 10, 12, 9 and 14.5 px on a 360 px phone showing the whole fortress (twice that on a tablet;
#: the names were 11 px, too small at arm's length: issue 29)
HERO_R = 1.2
STRIGOI_R = 1.5
OUTLINE = 0.06  # half the outline's width
MARK_SIZE = 1.05
NAME_SIZE = 1.75
#: a text line's box (in font sizes): DejaVu Sans' ascent + descent (0.928 + 0.236, what a
#: browser's getBBox of a line measures, 1.14 to 1.18 with the hinting of each size) and a
#: little to spare; its baseline lies this far above the box's bottom (the glyphs centred)
LINE = 1.25
DESCENT = 0.236 + (LINE - 1.164) / 2
#: room between two discs, between a name and a disc, between two names (the touchscreen's
#: 2 px, 3 px and about a space's width at 8 px a unit)
DISC_GAP = GAP / 8
NAME_GAP = (GAP + 1) / 8
NAMES_APART = NAME_SIZE * 0.6
#: what a name costs over a space (of another room: over its own a fifth), a space with a
#: feature (red, grey, stairs: what a player looks for), a book, a ladder: the touchscreen's
#: weights (ui/board/view.py) but spaces dearer, so that a phone's names go to the empty
#: corners of the board rather than over the corridors
SPACE_COST, FEATURE_COST, BOOK_COST, LADDER_COST = 3.0, 6.0, 4.0, 6.0
#: a space as a name sees it: a little more than the circle inside its hexagon (0.82), so that
#: a name touching one on the server does not cover it by a hair in a browser
SPACE_R = 0.85
#: a space of a room (not of a corridor) costs this many times more: a name over another
#: room's spaces reads as that room's (over its own, board_geometry.OWN of it)
ROOM_SPACE = 2.0
#: how far the view reaches beyond the outermost spaces (a space's radius is 1), and above
#: them: a line of a name over the top rooms
MARGIN = 1.3
TOP_MARGIN = MARGIN + NAME_SIZE * LINE
#: how far beyond the view a name may go (the page widens its view to show it), sideways and
#: up or down: a phone held upright has height to spare, not width (a view widened by a name
#: draws every name smaller), so a name finds room above or below the fortress, with a line
ROOM_FOR_NAMES = (0.3, 4.0)


#: without a leader line a name stands nearer its own room than any other (by nothing more:
#: the touchscreen asks for 3/4 of a line, board_geometry.reads_as; on a phone the rooms lie
#: far apart for its names, and asking more sent names to the margin with long lines)
LEAD = 0.0


def sizes() -> JSON:
    """The sizes the page draws with (board["sizes"]): the server's layout assumed them."""
    return {
        "hero": HERO_R,
        "strigoi": STRIGOI_R,
        "outline": OUTLINE * 2,
        "mark": MARK_SIZE,
        "name": NAME_SIZE,
    }


def reach(kind: str) -> float:
    """How far a figure's drawing reaches from its centre, outline included."""
    return (STRIGOI_R if kind == "strigoi" else HERO_R) + OUTLINE


def place_figures(figures: Sequence[JSON]) -> None:
    """Each figure's disc where it is drawn (`fx`, `fy`): its space's centre, or pushed beside
    it when it would cover another (board_geometry.spread; the page then draws a line from the
    disc to its space)."""
    wanted = [Circle(f["id"], f["x"], f["y"], reach(f["kind"])) for f in figures]
    for figure, disc in zip(figures, spread_discs(wanted, DISC_GAP), strict=True):
        figure["fx"], figure["fy"] = round(disc.x, 3), round(disc.y, 3)


def view_box(board: JSON) -> list[float]:
    """The whole fortress as the page shows it (its SVG viewBox: x, y, width, height): every
    space, a line of a name above, and every disc where it was pushed."""
    xs = [s["x"] for s in board["spaces"]]
    ys = [s["y"] for s in board["spaces"]]
    left, right = min(xs) - MARGIN, max(xs) + MARGIN
    top, bottom = min(ys) - TOP_MARGIN, max(ys) + MARGIN
    for f in board["figures"]:
        r = reach(f["kind"]) + 0.2
        left, right = min(left, f["fx"] - r), max(right, f["fx"] + r)
        top, bottom = min(top, f["fy"] - r), max(bottom, f["fy"] + r)
    return [round(v, 3) for v in (left, top, right - left, bottom - top)]


# ----- the room names (in the SVG's coordinates turned over: board_geometry's y grows upwards)
#: added to a line's width where it is placed (not where it is drawn): a browser's box of a
#: small text reaches a little beyond its textLength (font hinting)
SLACK = 0.2


#: board_geometry counts in pixels (its index of the board's things has buckets 48 wide):
#: the names are placed in the SVG's units times this (about a 360 px phone's pixels)
PX = 8.0


def _lines(text: str) -> tuple[tuple[str, float, float], ...]:
    return tuple(
        (line, (text_width(line, NAME_SIZE) + SLACK) * PX, NAME_SIZE * LINE * PX)
        for line in text.split("\n")
    )


def _up(x: float, y: float, r: float, name: str) -> Circle:
    """A thing of the SVG in board_geometry's terms: in its pixels, its y axis upwards."""
    return Circle(name, x * PX, -y * PX, r * PX)


def _soft(fortress: Fortress, board: JSON) -> list[tuple[Circle, float]]:
    """What a name had better not cover (weighted): books and ladders more than spaces; a space
    is named by its room (a name over its own room's spaces still reads as its name)."""
    things: list[tuple[Circle, float]] = []
    for room in board["rooms"]:
        for book in room["books"]:
            things.append((_up(book["x"], book["y"], 0.5, "book"), BOOK_COST))
    for ladder in board["ladders"]:
        things.append((_up(ladder["x"], ladder["y"], 0.6, "ladder"), LADDER_COST))
    for space in board["spaces"]:
        room = fortress.room_at(tuple(space["c"])) or ""
        cost = SPACE_COST if space["k"] in ("space", "platform") else FEATURE_COST
        cost *= ROOM_SPACE if room else 1.0
        things.append((_up(space["x"], space["y"], SPACE_R, f"space:{room}"), cost))
    return things


def room_labels(
    fortress: Fortress, board: JSON, names: Mapping[str, str], settled: bool = True
) -> list[JSON] | None:
    """Each room's name where it reads as that room's and covers no disc and no other name
    (board_geometry.place_names), inside the view: `room`, `box` (x, y of its top-left corner,
    width, height) and its `lines`, each [text, x of its middle, y of its baseline, width].
    Made anew only when the names or what they avoid changed (most commands move nothing); when
    only figures moved, on the ground kept for this board and language (`kept_ground`).
    With `settled` False, None instead of a placing on a board whose ground is not kept (a
    platform turned, a ladder taken away: the first placing there costs a hundred times more;
    the feed sends the move at once with the names where they stood and places them after)."""
    key = (
        id(fortress),
        tuple(sorted(names.items())),
        json.dumps([board["view"], board["figures"], board["rooms"], board["ladders"]]),
        len(board["spaces"]),
    )
    found = _made.get(key)
    if found is None:
        if not settled and not _kept(*_wanted(fortress, board, names)):
            return None
        found = _made[key] = json.dumps(place_labels(fortress, board, names))
        while len(_made) > _KEEP:
            del _made[next(iter(_made))]  # the oldest
    labels: list[JSON] = json.loads(found)
    return labels


#: the names' places made last (by the board and names they were made for): each language's
#: of the last few changes, an undo finds them again
_made: dict[tuple[object, ...], str] = {}
_KEEP = 16


#: how many boards' grounds are kept (`kept_ground`): in each of the four languages, the board now
#: and the one before (a platform turned back, an undo)
GROUNDS = 8


#: the keys `kept_ground` holds now, in the order its cache drops them (the same rule: the
#: least recently used goes), so that `room_labels` can tell a kept ground without making one
_grounds: dict[tuple[tuple[Name, ...], tuple[tuple[Circle, float], ...]], None] = {}


def _kept(names: tuple[Name, ...], soft: tuple[tuple[Circle, float], ...]) -> bool:
    return (names, soft) in _grounds


def _keep(names: tuple[Name, ...], soft: tuple[tuple[Circle, float], ...]) -> Ground:
    """`kept_ground`, its keys noted in `_grounds`."""
    _grounds.pop((names, soft), None)
    _grounds[(names, soft)] = None
    while len(_grounds) > GROUNDS:
        del _grounds[next(iter(_grounds))]
    return kept_ground(names, soft)


@functools.lru_cache(maxsize=GROUNDS)
def kept_ground(names: tuple[Name, ...], soft: tuple[tuple[Circle, float], ...]) -> Ground:
    """What the board alone makes of each name's places (board_geometry.Ground), by its value:
    the names in a language (their texts and widths, where their rooms are) and what they had
    better not cover (spaces, letters and ladders: a platform's turn, a collapse, a ladder
    taken away). A command that only moves figures places the names on the same ground again,
    weighing only what the figures change; a new board or language costs one placing."""
    return Ground(names, soft, LEAD)


def _wanted(
    fortress: Fortress, board: JSON, names: Mapping[str, str]
) -> tuple[tuple[Name, ...], tuple[tuple[Circle, float], ...]]:
    """The names to place and what they had better not cover: a ground's key (`kept_ground`)."""
    middle = next((r["x"] for r in board["rooms"] if r["id"] == fortress.centre_room), 0.0)
    radius = fortress.room_radius
    wanted = []
    # the outer rooms first, each taking the best place of its own side; the centre's name
    # last, between them (first, it took the place its neighbours' names needed)
    for room in sorted(board["rooms"], key=lambda r: r["id"] == fortress.centre_room):
        text = names.get(room["id"], "")
        if not text:
            continue
        lines = _lines(text)
        halves = split_in_two(text)
        two = _lines("\n".join(halves)) if halves else lines
        side = 0 if abs(room["x"] - middle) < 1 else (1 if room["x"] > middle else -1)
        rx, ry = SQRT3 * (radius + 0.5), 1.5 * radius + 0.8
        # the centre room, hemmed in by the other rooms' arms, may have its name between two
        # of them with a line to it (as on the touchscreen): over no space
        centre = room["id"] == fortress.centre_room
        wanted.append(
            Name(
                room["id"],
                lines,
                two,
                room["x"] * PX,
                -room["y"] * PX,
                rx * PX,
                ry * PX,
                side,
                anywhere=centre,
            )
        )
    return tuple(wanted), tuple(_soft(fortress, board))


def place_labels(
    fortress: Fortress, board: JSON, names: Mapping[str, str], keep: bool = True
) -> list[JSON]:
    """The labels (`room_labels`), on a ground kept for this board and language (`kept_ground`),
    or with `keep` False on one made for this placing alone: the same labels."""
    x, y, w, h = board["view"]
    wide, high = ROOM_FOR_NAMES
    bounds = Box(
        "view", (x - wide) * PX, -(y + h + high) * PX, (w + 2 * wide) * PX, (h + 2 * high) * PX
    )
    figures: list[Item] = [
        _up(f["fx"], f["fy"], reach(f["kind"]), f["id"]) for f in board["figures"]
    ]
    wanted, soft = _wanted(fortress, board, names)
    ground = _keep(wanted, soft) if keep else None
    placed = place_names(
        wanted, figures, soft, bounds, NAME_GAP * PX, NAMES_APART * PX, lead=LEAD, ground=ground
    )
    labels = []
    for p in placed:
        bx, bw, bh = p.box.x / PX, p.box.w / PX, p.box.h / PX
        top = -p.box.top / PX  # the box's top edge in the SVG's coordinates
        box = [_r(bx), _r(top), _r(bw), _r(bh)]
        rows = []
        for line, width, height in p.lines:
            top += height / PX
            baseline = top - DESCENT * NAME_SIZE
            rows.append([line, _r(bx + bw / 2), _r(baseline), _r(width / PX - SLACK)])
        label: JSON = {"room": p.room, "box": box, "lines": rows}
        if p.line is not None:  # a name away from its room: a line from it to the room
            x0, y0, x1, y1 = p.line
            label["leader"] = [_r(x0 / PX), _r(-y0 / PX), _r(x1 / PX), _r(-y1 / PX)]
        labels.append(label)
    return labels


def misread(fortress: Fortress, board: JSON, labels: Sequence[JSON]) -> list[str]:
    """The names read as another room's (board_geometry.reads_as), each label's `box` (x, y of
    its top-left corner, width, height, in the SVG's units: the server's, or as a browser drew
    it) against the board's spaces: the layout check of the phones' board (issue 29)."""
    rooms: dict[str, list[Circle]] = {}
    for space in board["spaces"]:
        room = fortress.room_at(tuple(space["c"]))
        if room:
            rooms.setdefault(room, []).append(_up(space["x"], space["y"], SPACE_R, room))
    centres = {r["id"]: (r["x"] * PX, -r["y"] * PX) for r in board["rooms"]}
    found = []
    for label in labels:
        x, y, w, h = label["box"]
        room = label["room"]
        box = Box(room, x * PX, -(y + h) * PX, w * PX, h * PX)
        cx, cy = centres[room]
        name = Name(room, ((room, w * PX, NAME_SIZE * LINE * PX),), (), cx, cy,
                    anywhere=room == fortress.centre_room)  # fmt: skip
        leader = label.get("leader")
        line = None if leader is None else (0.0, 0.0, 0.0, 0.0)  # only whether it has one
        other = reads_as(name, box, line, rooms, centres, LEAD)
        if other is not None:
            found.append(f"the name of {room} reads as {other}'s")
    return found


def _r(value: float) -> float:
    return round(value, 3)


__all__ = [
    "HERO_R",
    "MARK_SIZE",
    "NAME_SIZE",
    "STRIGOI_R",
    "kept_ground",
    "misread",
    "place_figures",
    "place_labels",
    "reach",
    "room_labels",
    "sizes",
    "view_box",
]
