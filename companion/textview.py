"""A terminal picture of the fortress: spaces, open edges, features, ladders and figures.

Pointy-topped hexes: direction 0 (E) is drawn `-`, 1 (NE) `/`, 2 (NW) `\\`. One glyph a space.
"""

from __future__ import annotations

from companion.engine.explain import DIRECTION_NAMES
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell
from companion.engine.situation import Situation

HERO_GLYPHS = {"attila": "A", "falk_maria": "F", "matthew": "M", "charles": "C", "roel": "R"}
STRIGOI_GLYPHS = {"master": "V", "apprentice": "v", "supreme": "W"}
LEGEND = (
    "legend: . space  o platform space  r red  g grey  x fought (fight marker)  s stairs  "
    "L ladder  # collapsed\n"
    "        A Attila  F Falk Maria  M Matthew  C Charles  R Roel  V Master  v Apprentice  "
    "W Supreme"
)


def _glyph(fortress: Fortress, situation: Situation, cell: Cell) -> str:
    state = situation.board
    for figure in situation.heroes:
        if figure.at == cell:
            return HERO_GLYPHS.get(figure.hero, "?")
    for name, room in situation.strigoi.items():
        if fortress.centre(room) == cell:
            return STRIGOI_GLYPHS.get(name, "?")
    if cell in fortress.ladder_by_cell:
        return "L"
    feature = fortress.feature(cell, state)
    if feature in ("red", "grey"):
        return "x" if cell in situation.fight_markers else feature[0]
    if feature == "stairs":
        return "s"
    return "o" if fortress.on_platform(cell, state) else "."


def render_board(fortress: Fortress, situation: Situation) -> str:
    """The picture, the legend and one line per room (books, rotation) and the ladders."""
    picture = render_picture(fortress, situation)
    return "\n".join([picture, "", LEGEND, "", *_room_lines(fortress, situation)])


def render_picture(fortress: Fortress, situation: Situation) -> str:
    state = situation.board
    spaces = set(fortress.spaces(state))
    debris = {
        c
        for room in state.collapsed
        if room in fortress.platforms
        for c in fortress.platforms[room].cells
    }
    drawn = spaces | debris
    xs = [2 * q + r for q, r in drawn]
    rs = [r for _, r in drawn]
    x0, r0 = min(xs), min(rs)
    width, height = 2 * (max(xs) - x0) + 1, 2 * (max(rs) - r0) + 1
    grid = [[" "] * width for _ in range(height)]

    def pos(cell: Cell) -> tuple[int, int]:
        return 2 * (cell[1] - r0), 2 * (2 * cell[0] + cell[1] - x0)

    for cell in debris - spaces:
        row, col = pos(cell)
        grid[row][col] = "#"
    for cell in spaces:
        row, col = pos(cell)
        grid[row][col] = _glyph(fortress, situation, cell)
        mask = fortress.open_mask(cell, state)
        if mask & 1:
            grid[row][col + 1 : col + 4] = ["-", "-", "-"]
        if mask >> 1 & 1:
            grid[row - 1][col + 1] = "/"
        if mask >> 2 & 1:
            grid[row - 1][col - 1] = "\\"
    return "\n".join("".join(line).rstrip() for line in grid)


def _room_lines(fortress: Fortress, situation: Situation) -> list[str]:
    state = situation.board
    lines = ["rooms (books: letter -> direction the Strigoi would jump):"]
    for room in fortress.rooms.values():
        if room.platform is None:
            kind = "centre room"
        elif room.id in state.collapsed:
            kind = f"platform {room.platform} COLLAPSED"
        else:
            mark = ", Strigoi mark" if room.strigoi_start else ""
            kind = f"platform {room.platform} rotation {state.rotations[room.id]}{mark}"
        books = []
        for letter in "ABCDEF":
            d = fortress.book_direction(room.id, letter, state)
            if d is not None:
                books.append(f"{letter}->{DIRECTION_NAMES[d]}")
        lines.append(f"  {room.id:<3} centre {list(room.centre)}  {kind}  {' '.join(books)}")
    ladders = [
        f"{lid} ({fortress.ladders[lid].room} {DIRECTION_NAMES[fortress.ladders[lid].side]})"
        for lid in sorted(state.ladders)
    ]
    lines.append("ladders: " + (", ".join(ladders) if ladders else "none"))
    return lines
