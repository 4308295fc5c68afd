"""Where the board's figures and room names go so that none covers another (issue 29): plain
geometry, no Kivy, so that the rules can be tested on numbers. Shared by the touchscreen
(ui/board/view.py, through ui/board/layout.py) and the phones' view
(companion/app/web/board.py): the same push-apart and the same name places on both. Its y axis
grows upwards (Kivy's); the phones' view turns its SVG coordinates over to use it.

Figures first: each wants the centre of its space; discs that would intersect (heroes on
neighbouring spaces of the whole fortress, where a 13 px disc is wider than a space) are pushed
apart just enough, each keeping its side of the others, so they stay beside their spaces (the
view draws a short line from a moved disc to its space). Then the room names: each takes the
first good place among a few around its room (above, shifted outwards, below, on two lines),
one where no figure, no other name and nothing outside the view is; among those, the one over
the fewest book letters, ladders and spaces (the view weighs each like a figure: a name never
covers a space while a clear place exists). When no place beside the room is clear, the name
goes further out into the margin, ring after ring, with a short leader line to its room."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Circle:
    """A figure as drawn (its outline included): centre and radius; `name` says which."""

    name: str
    x: float
    y: float
    r: float


@dataclass(frozen=True)
class Box:
    """A text as drawn: lower-left corner and size; `name` says which."""

    name: str
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h


Item = Circle | Box
#: how far apart two drawn things must stay (px) to read as two
GAP = 2.0


def intersects(a: Item, b: Item, gap: float = 0.0) -> bool:
    """Whether two drawn things overlap (or come closer than `gap`)."""
    if isinstance(a, Circle) and isinstance(b, Circle):
        return math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r + gap - 1e-6
    if isinstance(a, Box) and isinstance(b, Box):
        return (
            a.x < b.right + gap - 1e-6
            and b.x < a.right + gap - 1e-6
            and a.y < b.top + gap - 1e-6
            and b.y < a.top + gap - 1e-6
        )
    circle, box = (a, b) if isinstance(a, Circle) else (b, a)
    assert isinstance(circle, Circle) and isinstance(box, Box)
    nearest_x = min(max(circle.x, box.x), box.right)
    nearest_y = min(max(circle.y, box.y), box.top)
    return math.hypot(circle.x - nearest_x, circle.y - nearest_y) < circle.r + gap - 1e-6


def overlaps(items: Sequence[Item]) -> list[str]:
    """Every pair of drawn things that overlap, by their names (the layout check)."""
    return [
        f"{a.name!r} overlaps {b.name!r}"
        for i, a in enumerate(items)
        for b in items[i + 1 :]
        if intersects(a, b)
    ]


def covered(ground: Sequence[Circle], above: Sequence[Item]) -> list[str]:
    """Every space (`ground`: each as the circle inside its hexagon) that something drawn over
    the board covers: a room's name, the legend, a button over the board (the layout check: a
    player must see every space whole)."""
    return [
        f"{thing.name!r} covers {space.name!r}"
        for thing in above
        for space in ground
        if intersects(thing, space)
    ]


def spread(discs: Sequence[Circle], gap: float = GAP) -> list[Circle]:
    """The discs moved apart until no two intersect (nor come closer than `gap`): pushed away
    from each other along the line between them, each pair by just what it lacks, until all are
    clear; discs already clear of the others stay where they are. Discs on the same point part
    in a fixed direction per pair, so the result depends only on the input."""
    xs = [d.x for d in discs]
    ys = [d.y for d in discs]
    count = len(discs)
    for _ in range(400):
        moved = False
        for i in range(count):
            for j in range(i + 1, count):
                need = discs[i].r + discs[j].r + gap
                dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                distance = math.hypot(dx, dy)
                if distance >= need - 1e-6:
                    continue
                if distance < 1e-9:
                    angle = 2.399963 * (i * count + j)  # the golden angle: no two alike
                    dx, dy, distance = math.cos(angle), math.sin(angle), 1.0
                push = (need - distance) / 2 + 0.01
                ux, uy = dx / distance, dy / distance
                xs[i], ys[i] = xs[i] - ux * push, ys[i] - uy * push
                xs[j], ys[j] = xs[j] + ux * push, ys[j] + uy * push
                moved = True
        if not moved:
            break
    placed = [Circle(d.name, x, y, d.r) for d, x, y in zip(discs, xs, ys, strict=True)]
    if any(intersects(a, b, gap) for i, a in enumerate(placed) for b in placed[i + 1 :]):
        return _rings(discs, gap)  # never seen; a guaranteed answer all the same
    return placed


def _rings(discs: Sequence[Circle], gap: float) -> list[Circle]:
    """All discs on one ring around their centre, in the order of their angles: never two
    intersecting (the fallback of `spread`)."""
    cx = sum(d.x for d in discs) / len(discs)
    cy = sum(d.y for d in discs) / len(discs)
    if len(discs) == 1:
        return list(discs)
    widest = max(d.r for d in discs) + gap / 2
    radius = widest / math.sin(math.pi / len(discs)) + 0.01
    order = sorted(range(len(discs)), key=lambda k: math.atan2(discs[k].y - cy, discs[k].x - cx))
    placed = list(discs)
    for slot, k in enumerate(order):
        angle = 2 * math.pi * slot / len(discs)
        placed[k] = Circle(
            discs[k].name, cx + radius * math.cos(angle), cy + radius * math.sin(angle), discs[k].r
        )
    return placed


@dataclass(frozen=True)
class Name:
    """A room's name to place: its lines as they would be drawn (one, or the name on two lines
    when one is too wide) with each line's size, and where the room is: its centre and the
    half-axes of the ellipse around it, or `zoomed` (the room fills the view: its name goes
    along the view's top or bottom edge)."""

    room: str
    lines: tuple[tuple[str, float, float], ...]  # (text, width, height) of each line, one form
    two_lines: tuple[tuple[str, float, float], ...]  # the same name on two lines (or the same)
    cx: float
    cy: float
    rx: float = 0.0  # the room's half-width
    ry: float = 0.0  # the room's half-height
    outwards: int = 0  # -1: the room lies left of the fortress's middle, 1: right, 0: in it
    zoomed: bool = False
    #: the name may stand nearer another room than its own (the centre room, all around it
    #: other rooms): its leader line says whose it is
    anywhere: bool = False


@dataclass(frozen=True)
class Placed:
    room: str
    lines: tuple[tuple[str, float, float], ...]
    box: Box
    #: a line from the name to its room (x0, y0, x1, y1) when it stands away from it
    line: tuple[float, float, float, float] | None = None


def split_in_two(text: str) -> tuple[str, str] | None:
    """The name at the space nearest its middle ("chambre" / "nord-ouest"); None: one word."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return None
    middle = len(text) / 2
    cut = min(spaces, key=lambda i: abs(i - middle))
    return text[:cut], text[cut + 1 :]


def _box_of(room: str, lines: tuple[tuple[str, float, float], ...], x: float, y: float) -> Box:
    """The box of `lines` centred on x, its bottom at y."""
    width, height = _size(lines)
    return Box(room, x - width / 2, y, width, height)


#: the directions a name is tried in around its room, in degrees from straight up towards the
#: outside of the fortress (negative: towards its middle), best first; 180: below the room
ANGLES = (0, 25, -25, 50, -50, 75, 90, -75, -90, 115, 140, -115, -140, 180)


def candidates(
    name: Name, bounds: Box
) -> Iterable[tuple[tuple[tuple[str, float, float], ...], Box]]:
    """The places a name may take, best first: just outside its room (the ellipse around it),
    straight above, then turning outwards and inwards little by little, beside the room, last
    below it (nearer to the next room's name); at each direction on one line, then a little
    further out, then on two lines. Zoomed: along the view's top edge, then lower step by
    step (a corner the room leaves free), last its bottom edge."""
    forms = (name.lines,) if name.two_lines == name.lines else (name.lines, name.two_lines)
    if name.zoomed:
        for lines in forms:
            width, height = _size(lines)
            # along the top edge; then, where the strip along the top is too low for it (the
            # spaces kept 48 px: 800x480, large text, a banner), a little lower each time, in
            # a corner the room leaves free; the bottom edge last
            lower = max(0, math.floor((bounds.h - 2 * height) / (height / 4)))
            rows = [bounds.top - height - k * height / 4 for k in range(lower + 1)]
            for y in [*rows, bounds.y]:
                for step in (0, 1, -1, 2, -2, 3, -3, 4, -4):
                    yield lines, _box_of(name.room, lines, name.cx + step * width / 4, y)
                for x in (bounds.x + width / 2, bounds.right - width / 2):  # at an end
                    yield lines, _box_of(name.room, lines, x, y)
        return
    sides = (name.outwards,) if name.outwards else (1, -1)
    seen: set[tuple[int, int]] = set()
    for degrees in ANGLES:
        for side in sides:
            angle = math.radians(90 - side * degrees)
            ux, uy = math.cos(angle), math.sin(angle)
            if (degrees, round(ux * 1000)) in seen:
                continue
            seen.add((degrees, round(ux * 1000)))
            edge = math.hypot(name.rx * ux, name.ry * uy)  # the ellipse's radius that way
            for lines in forms:
                width, height = _size(lines)
                for extra in (0.0, 0.5 * height / len(lines)):
                    reach = edge + extra + abs(ux) * width / 2 + abs(uy) * height / 2
                    x, y = name.cx + ux * reach, name.cy + uy * reach
                    yield lines, _box_of(name.room, lines, x, y - height / 2)
    # further out, into the margin (the view draws a leader line to the room): ring after ring
    for ring in range(2, FAR_RINGS + 2):
        for degrees in FAR_ANGLES:
            for side in sides:
                angle = math.radians(90 - side * degrees)
                ux, uy = math.cos(angle), math.sin(angle)
                edge = math.hypot(name.rx * ux, name.ry * uy)
                for lines in forms:
                    width, height = _size(lines)
                    extra = ring * 0.5 * height / len(lines)
                    reach = edge + extra + abs(ux) * width / 2 + abs(uy) * height / 2
                    x, y = name.cx + ux * reach, name.cy + uy * reach
                    yield lines, _box_of(name.room, lines, x, y - height / 2)


#: the directions tried for a name in the margin (every 15 degrees), and how many half lines
#: further out at most
FAR_ANGLES = tuple(range(0, 181, 15)) + tuple(range(-15, -180, -15))
FAR_RINGS = 24


def leader(name: Name, box: Box, slack: float) -> tuple[float, float, float, float] | None:
    """A short line from a name placed away from its room to the room (from the box's edge
    nearest the room's centre to the room's ellipse): None when the name is beside its room
    (within `slack` of the ellipse)."""
    bx = min(max(name.cx, box.x), box.right)
    by = min(max(name.cy, box.y), box.top)
    dx, dy = bx - name.cx, by - name.cy
    distance = math.hypot(dx, dy)
    if distance < 1e-6 or name.zoomed:
        return None
    ux, uy = dx / distance, dy / distance
    edge = math.hypot(name.rx * ux, name.ry * uy)
    if distance - edge <= slack:
        return None
    return bx, by, name.cx + ux * edge, name.cy + uy * edge


def _size(lines: tuple[tuple[str, float, float], ...]) -> tuple[float, float]:
    return max(w for _, w, _ in lines), sum(h for _, _, h in lines)


#: what a name costs where it lies (`place_names`): outside the view, over a figure or another
#: name (never, while a clear place exists), per candidate further down the list (the margin's
#: thousands of candidates together cost less than one space covered)
OUTSIDE, HARD, RANK = 1000.0, 100.0, 0.004
#: a name over a space of its own room (named "space:<room>") costs as much as one over another
#: room's: a space covered is one a player cannot see whole (issue 29)
OWN = 1.0
#: a name nearer to another room's centre than to its own (read as that room's): less than a
#: space covered, more than any place in the margin
ASTRAY = 40.0
#: a name read as another room's (`reads_as`: beside another room's spaces, or without a
#: leader line nearer them than its own room's): as bad as a name over a figure (issue 29: the
#: wizard's "chambre sud-ouest" under the south-east room, "Raum Südost" against the east room)
MISREAD = HARD
#: a name is beside a room when it comes within this much of its line's height of one of the
#: room's spaces
BESIDE = 0.75
#: a name within this much of its line's height of its room's ellipse needs no leader line (it
#: must then stand nearest its own room: `reads_as`); one line above a crowd of figures at the
#: top of its room still reads as the room's
NEAR = 1.1
#: a name that may stand anywhere (the centre room's) costs this much more the more it stands
#: beside its room rather than above or below it (where its line runs between two rooms)
SIDEWAYS = 10.0
#: per point of a leader line (one every few pixels) over another room's space, letter or
#: ladder: a line across a room reads as pointing into it
CROSSING = 1.5
#: per line height of a leader line's length: of two clear places in the margin, the nearer
#: one (a phone's "stanza nord-ovest" went below the whole fortress, its line across it)
LENGTH = 0.5


def place_names(
    names: Sequence[Name],
    figures: Sequence[Item],
    soft: Sequence[tuple[Circle, float]],
    bounds: Box,
    gap: float = GAP,
    apart: float = GAP,
    blocked: Sequence[Item] = (),
    lead: float = BESIDE,
    stop: Callable[[list[Placed]], bool] | None = None,
    ground: Ground | None = None,
) -> list[Placed]:
    """Each name at its best place: inside `bounds`, clear of every figure (and of whatever
    else covers the board: a button over it) and of the names
    placed before it (by `gap` from a figure, `apart` from a name: two names close together
    read as one); among such places the cheapest: each `soft` thing it covers costs its weight
    (a book letter or a ladder more than a space; a space of its own room little), each step
    down the list of candidates a little. A name with no clear place takes the one that
    overlaps least (the layout check then reports it). Under a `blocked` thing (a button the
    screen draws over the board: it would hide the name) a name costs as much as outside.
    `stop(placed)`, asked after each name: True ends the placing there (a caller that only asks
    whether every name is clear stops at the first that is not; the names before it are as
    they would be in the whole placing). `ground`: what the board alone makes of each place
    (`Ground`, made for these `names`, `soft` and `lead`, and `bounds` for a zoomed name),
    kept from an earlier placing on the same board: the same places as without it, found with
    less work."""
    if ground is None:
        ground = Ground(names, soft, lead, bounds if any(n.zoomed for n in names) else None)
    else:
        assert ground.made_for(names, soft, lead, bounds), "a ground made for another board"
    placed: list[Placed] = []
    drawn_lines: list[tuple[float, float, float, float]] = []  # placed: no name over them
    hidden = [(*_extent(f, gap), f, gap) for f in figures]  # and the names placed (`_hits`)
    for name in names:
        best: tuple[float, Placed] | None = None
        for rank, place in enumerate(ground.places(name)):
            if best is not None and RANK * rank >= best[0]:
                break  # every cost adds to its rank's: no later place can be cheaper
            lines, box = place.lines, place.box
            inside = (
                box.x >= bounds.x
                and box.right <= bounds.right
                and box.y >= bounds.y
                and box.top <= bounds.top
            )
            cost = (0.0 if inside else OUTSIDE) + RANK * rank
            if blocked:
                cost += OUTSIDE * sum(intersects(box, b, gap) for b in blocked)
            if best is not None and cost >= best[0]:
                continue
            cost += place.astray
            if best is not None and cost >= best[0]:
                continue
            line = place.line if place.led else ground.leader(name, place)
            if best is not None and cost + place.least > best[0] + SURE:
                continue  # what the board alone adds (known from an earlier placing) is too much
            hard = _hits(box, hidden) + any(_on_line(box, line) for line in drawn_lines)
            cost += HARD * hard
            if best is not None and cost >= best[0]:
                continue
            if line is not None:
                cost += place.length
                cost += HARD * _things_on_line(line, [*(p.box for p in placed), *figures])
                if best is not None and cost >= best[0]:
                    continue
                # crossings counted only as far as they can leave this place the cheapest
                most = None if best is None else math.floor((best[0] - cost) / CROSSING) + 1
                cost += CROSSING * ground.crossings(name, place, most)
                if best is not None and cost >= best[0]:
                    continue
            for weight in ground.covers(name, place):
                cost += weight
                if best is not None and cost >= best[0]:
                    break  # no better than the best so far
            if best is not None and cost >= best[0]:
                continue
            if not name.zoomed and (
                ground.misread(name, place)
                or (name.anywhere and beside_name(name, box, placed) is not None)
            ):
                cost += MISREAD
            if best is None or cost < best[0]:
                best = (cost, Placed(name.room, lines, box))
        assert best is not None
        chosen = best[1]
        slack = chosen.lines[0][2] * NEAR  # within a line of its room: beside it
        line = leader(name, chosen.box, slack)
        placed.append(Placed(chosen.room, chosen.lines, chosen.box, line))
        hidden.append((*_extent(chosen.box, apart), chosen.box, apart))
        if line is not None:
            drawn_lines.append(line)
        if stop is not None and stop(placed):
            break
    return placed


#: how much more than the best so far a place's known least cost must come to for it to be
#: passed over unweighed (`Ground`: the sums differ from the placing's own by rounding only)
SURE = 1e-6


class _Place:
    """One candidate place of a name and what the board alone makes of it (`Ground`): known at
    once, what standing astray costs; found when first
    asked, its leader line, the spaces, letters and ladders it covers, whether it reads as
    another room's; `least`, what these add to its cost at least (by what is known of them)."""

    __slots__ = ("astray", "box", "complete", "covers", "crossings", "least", "led", "length",
                 "line", "lines", "misread")  # fmt: skip

    def __init__(
        self, lines: tuple[tuple[str, float, float], ...], box: Box, astray: float
    ) -> None:
        self.lines, self.box, self.astray = lines, box, astray
        self.led = False  # whether `line` is known
        self.line: tuple[float, float, float, float] | None = None
        self.length = 0.0
        self.crossings = 0
        self.complete = False  # `crossings` is the whole count (else: at least that many)
        self.covers: tuple[float, ...] | None = None
        self.misread: bool | None = None
        self.least = 0.0


class Ground:
    """What the board alone (not its figures, not the names placed before) makes of every place
    a name may take (`place_names`): its candidates, whether each stands astray, its leader
    line and what that crosses, what it covers and whether it reads as another room's. Each
    found when first asked and kept, so that placing the same names on the same board again (a
    figure moved) weighs only what the figures change. A value of its inputs (`names`, `soft`,
    `lead`; `bounds`, the view, only for a zoomed name: the others' candidates do not depend on
    it): a board turned or collapsed, other names or another language is another ground."""

    def __init__(
        self,
        names: Sequence[Name],
        soft: Sequence[tuple[Circle, float]],
        lead: float = BESIDE,
        bounds: Box | None = None,
    ) -> None:
        self.names = tuple(names)
        self.soft = tuple(soft)
        self.bounds = bounds
        self.lead = lead
        self.index = _Grid(soft)
        self.centres = {n.room: (n.cx, n.cy) for n in names}
        self.rooms = room_spaces(soft)
        self._places: dict[Name, tuple[list[_Place], Iterator[_Place]]] = {}

    def made_for(
        self,
        names: Sequence[Name],
        soft: Sequence[tuple[Circle, float]],
        lead: float,
        bounds: Box,
    ) -> bool:
        """Whether this is the ground of these names on this board."""
        return (
            self.names == tuple(names)
            and self.soft == tuple(soft)
            and self.lead == lead
            and self.bounds in (None, bounds)
        )

    def places(self, name: Name) -> Iterator[_Place]:
        """The name's candidates (`candidates`), best first, each made once."""
        if name not in self._places:
            self._places[name] = ([], self._make(name))
        known, more = self._places[name]
        for rank in itertools.count():
            if rank == len(known):
                place = next(more, None)
                if place is None:
                    return
                known.append(place)
            yield known[rank]

    def _make(self, name: Name) -> Iterator[_Place]:
        assert self.bounds is not None or not name.zoomed, "a zoomed name's ground needs its view"
        for lines, box in candidates(name, self.bounds or Box("view", 0.0, 0.0, 0.0, 0.0)):
            astray = 0.0
            if not name.anywhere and _astray(name.room, box, self.centres):
                astray = ASTRAY
            elif name.anywhere:  # straight above or below: between two rooms, toward its own
                bx, by = box.x + box.w / 2 - name.cx, box.y + box.h / 2 - name.cy
                astray = SIDEWAYS * abs(bx) / (math.hypot(bx, by) or 1.0)
            yield _Place(lines, box, astray)

    def leader(self, name: Name, place: _Place) -> tuple[float, float, float, float] | None:
        """The place's leader line to its room (`leader`), None beside it."""
        if not place.led:
            line = leader(name, place.box, place.lines[0][2] * NEAR)
            place.led, place.line = True, line
            if line is not None:
                x0, y0, x1, y1 = line
                place.length = LENGTH * math.hypot(x1 - x0, y1 - y0) / place.lines[0][2]
            self._settle(name, place)
        return place.line

    def crossings(self, name: Name, place: _Place, most: int | None) -> int:
        """How many points of its leader line lie over another room's things (`_crossings`),
        counted up to `most` at most."""
        line = self.leader(name, place)
        assert line is not None
        if place.complete or (most is not None and place.crossings >= most):
            return place.crossings if most is None else min(place.crossings, most)
        found = _crossings(line, self.index, f"space:{name.room}", most)
        place.crossings, place.complete = found, most is None or found < most
        self._settle(name, place)
        return found

    def covers(self, name: Name, place: _Place) -> tuple[float, ...]:
        """What each soft thing under the place costs, in the index's order."""
        if place.covers is None:
            own, box = f"space:{name.room}", place.box
            x0, x1, y0, y1 = box.x, box.x + box.w, box.y, box.y + box.h
            place.covers = tuple(
                HARD if name.zoomed else weight * (OWN if thing.name == own else 1.0)
                for thing, weight in self.index.near(box)
                if x0 <= thing.x + thing.r
                and thing.x - thing.r <= x1  # within reach: then
                and y0 <= thing.y + thing.r
                and thing.y - thing.r <= y1  # looked at closely
                and intersects(box, thing)
            )  # a zoomed name is a heading over the room: over none of its spaces, when some
            self._settle(name, place)  # place (two lines, a corner) covers none (S3)
        return place.covers

    def misread(self, name: Name, place: _Place) -> bool:
        """Whether the place reads as another room's (`reads_as`)."""
        if place.misread is None:
            line = self.leader(name, place)
            found = reads_as(name, place.box, line, self.rooms, self.centres, self.lead)
            place.misread = found is not None
            self._settle(name, place)
        return place.misread

    def _settle(self, name: Name, place: _Place) -> None:
        """What the place adds to a cost at least, by what is known of it so far."""
        least = 0.0
        if place.line is not None:  # its crossings: as many as counted, at least
            least += place.length + CROSSING * place.crossings
        if place.covers is not None:
            least += sum(place.covers)
        place.least = least + (MISREAD if place.misread else 0.0)


def _extent(thing: Item, gap: float) -> tuple[float, float, float, float]:
    """The thing's bounds grown by `gap` (left, right, bottom, top): a box beyond them comes no
    closer to it than `gap` (`intersects`)."""
    if isinstance(thing, Circle):
        reach = thing.r + gap
        return thing.x - reach, thing.x + reach, thing.y - reach, thing.y + reach
    return thing.x - gap, thing.right + gap, thing.y - gap, thing.top + gap


def _hits(box: Box, things: Sequence[tuple[float, float, float, float, Item, float]]) -> int:
    """How many of the things the box comes within their gap of (`intersects`), each with its
    `_extent`: looked at closely only when the box reaches into that (the same count as
    `intersects` with each, for a fraction of the work: every candidate place asks it)."""
    x0, x1, y0, y1 = box.x, box.x + box.w, box.y, box.y + box.h
    return sum(
        1
        for left, right, low, high, thing, gap in things
        if x0 <= right and left <= x1 and y0 <= high and low <= y1 and intersects(box, thing, gap)
    )


def _points(line: tuple[float, float, float, float]) -> list[Circle]:
    """Points along a line, every 4 px (as a thing a name must not cover)."""
    x0, y0, x1, y1 = line
    steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 4))
    return [
        Circle("leader", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps, 1.0)
        for k in range(steps + 1)
    ]


def _near_points(line: tuple[float, float, float, float], thing: Item) -> Iterable[Circle]:
    """The line's points (`_points`, the same values) that may lie over `thing`: those inside
    its bounding box grown by a point's radius, found by clipping the line to it (a point
    outside that box is further than its radius from the thing)."""
    if isinstance(thing, Box):
        low_x, high_x, low_y, high_y = thing.x, thing.right, thing.y, thing.top
    else:
        low_x, high_x = thing.x - thing.r, thing.x + thing.r
        low_y, high_y = thing.y - thing.r, thing.y + thing.r
    x0, y0, x1, y1 = line
    steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 4))
    first, last = 0.0, 1.0  # the part of the line inside the grown box, as fractions of it
    for start, delta, low, high in ((x0, x1 - x0, low_x - 1.0, high_x + 1.0),
                                    (y0, y1 - y0, low_y - 1.0, high_y + 1.0)):  # fmt: skip
        if delta == 0:
            if not low <= start <= high:
                return
            continue
        a, b = (low - start) / delta, (high - start) / delta
        first, last = max(first, min(a, b)), min(last, max(a, b))
    if first > last:
        return
    # one point more on each side: the fractions are rounded, the points computed as _points
    low_k, high_k = max(0, math.floor(first * steps) - 1), min(steps, math.ceil(last * steps) + 1)
    for k in range(low_k, high_k + 1):
        yield Circle("leader", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps, 1.0)


def _on_line(box: Box, line: tuple[float, float, float, float]) -> bool:
    """Whether the box covers one of the line's points (`_points`)."""
    x0, y0, x1, y1 = line
    if (
        box.x > max(x0, x1) + 1.0
        or box.right < min(x0, x1) - 1.0
        or box.y > max(y0, y1) + 1.0
        or box.top < min(y0, y1) - 1.0
    ):
        return False
    return any(intersects(box, point) for point in _near_points(line, box))


def _things_on_line(line: tuple[float, float, float, float], things: Sequence[Item]) -> int:
    """How many of `things` one of the line's points (`_points`) lies over: for each thing,
    only the points near it are looked at (`_near_points`), the same count as testing every
    point against every thing, for a fraction of the work (names are placed on every move of
    a figure)."""
    x0, y0, x1, y1 = line
    low_x, high_x = min(x0, x1) - 1.0, max(x0, x1) + 1.0  # a point is a circle of radius 1
    low_y, high_y = min(y0, y1) - 1.0, max(y0, y1) + 1.0
    count = 0
    for thing in things:
        if isinstance(thing, Box):
            if thing.x > high_x or thing.right < low_x or thing.y > high_y or thing.top < low_y:
                continue
        elif (
            thing.x - thing.r > high_x
            or thing.x + thing.r < low_x
            or thing.y - thing.r > high_y
            or thing.y + thing.r < low_y
        ):
            continue
        count += any(intersects(point, thing) for point in _near_points(line, thing))
    return count


def _crossings(
    line: tuple[float, float, float, float], index: _Grid, own: str, most: int | None = None
) -> int:
    """How many points of the line (every 4 px) lie over a thing that is not its own room's
    (a corridor's space aside: a line along a corridor points into no room); counted up to
    `most` at most (a caller that needs no more)."""
    x0, y0, x1, y1 = line
    steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 4))
    count = 0
    for k in range(steps + 1):
        if most is not None and count >= most:
            break
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        for thing, _ in index.at(x, y):  # a point lies in one bucket
            if (
                thing.name != own
                and thing.name != "space:"
                and math.hypot(x - thing.x, y - thing.y) < thing.r - 1e-6  # `intersects`
            ):
                count += 1
                break
    return count


def crossing(placed: Sequence[Placed], soft: Sequence[tuple[Circle, float]]) -> list[str]:
    """The names whose leader line runs over another room's space, a letter or a ladder."""
    index = _Grid(soft)
    return [
        p.room
        for p in placed
        if p.line is not None and _crossings(p.line, index, f"space:{p.room}")
    ]


def _astray(room: str, box: Box, centres: dict[str, tuple[float, float]]) -> bool:
    """Whether the box's centre lies nearer another room's centre than its own room's."""
    x, y = box.x + box.w / 2, box.y + box.h / 2
    own = centres[room]
    mine = math.hypot(x - own[0], y - own[1])
    return any(
        math.hypot(x - cx, y - cy) < mine for other, (cx, cy) in centres.items() if other != room
    )


def room_spaces(soft: Sequence[tuple[Circle, float]]) -> dict[str, list[Circle]]:
    """The rooms' spaces among the soft things (named "space:<room>"; a corridor's have no
    room), by room."""
    rooms: dict[str, list[Circle]] = {}
    for thing, _ in soft:
        kind, _, room = thing.name.partition(":")
        if kind == "space" and room:
            rooms.setdefault(room, []).append(thing)
    return rooms


def _distance(box: Box, circle: Circle) -> float:
    """How far the box lies from the circle's edge (0: they touch or overlap)."""
    nearest_x = min(max(circle.x, box.x), box.right)
    nearest_y = min(max(circle.y, box.y), box.top)
    return max(0.0, math.hypot(circle.x - nearest_x, circle.y - nearest_y) - circle.r)


def reads_as(
    name: Name,
    box: Box,
    line: tuple[float, float, float, float] | None,
    rooms: dict[str, list[Circle]],
    centres: dict[str, tuple[float, float]],
    lead: float = BESIDE,
) -> str | None:
    """The other room a name placed at `box` would be read as, None when it reads as its own
    (issue 29). A name is read as the room it stands beside: it must stand beside no other
    room's space (within BESIDE of its line's height), leader line or not; without a leader
    line, its own room's space must lie nearest, by `lead` of its line's height at least (in
    the gap between three rooms of the touchscreen a name reads as any of theirs; the phones'
    rooms lie further apart for their names: 0 there), and so must the room whose centre does (but
    for a name that may stand anywhere: the centre room's). With a line, it may stand nearer
    another room than its own, out in a margin or a corridor, away from it; the centre room's
    name with its line may stand anywhere (hemmed in by the six others, and
    saying "centre": it reads as no outer room's)."""
    beside = BESIDE * name.lines[0][2]
    far = {room: min(_distance(box, s) for s in spaces) for room, spaces in rooms.items()}
    own = far.get(name.room, math.inf)
    others = sorted((d, room) for room, d in far.items() if room != name.room)
    if line is not None and name.anywhere:
        return None  # the centre room's: hemmed in by the others, it says whose it is
    for d, room in others:
        if line is None and d < own + lead * name.lines[0][2]:  # not nearer its own by `lead`:
            return room  # in a gap between rooms, it reads as either's
        if line is not None and d < min(own, beside):
            return room
    if line is None and not name.anywhere and _astray(name.room, box, centres):
        x, y = box.x + box.w / 2, box.y + box.h / 2
        return min(centres, key=lambda r: math.hypot(x - centres[r][0], y - centres[r][1]))
    return None


#: a name that may stand anywhere (the centre room's) reads as part of another room's name when
#: that name's middle lies within this share of the way to its own room's middle
NAME_NEAR = 0.5


def beside_name(name: Name, box: Box, placed: Sequence[Placed]) -> str | None:
    """The room whose placed name stands close to a name that may stand anywhere (the centre
    room's), within NAME_NEAR of the way to its own room's middle: read as a second line of
    that name ("Mittelraum" just over "Raum Ost", its line across the fortress: playtest S3);
    None when no other name stands that close (between two rooms' names, under the centre, it
    reads as its own)."""
    x, y = box.x + box.w / 2, box.y + box.h / 2
    mine = math.hypot(x - name.cx, y - name.cy)
    for p in placed:
        if math.hypot(x - (p.box.x + p.box.w / 2), y - (p.box.y + p.box.h / 2)) < NAME_NEAR * mine:
            return p.room
    return None


def misread(
    placed: Sequence[Placed],
    names: Sequence[Name],
    soft: Sequence[tuple[Circle, float]],
    lead: float = BESIDE,
) -> list[str]:
    """Every placed name read as another room's (`reads_as`), as "<room> reads as <other>'s"
    (the layout check: a name never reads as a neighbour's)."""
    wanted = {n.room: n for n in names}
    centres = {n.room: (n.cx, n.cy) for n in names}
    rooms = room_spaces(soft)
    found = []
    for p in placed:
        name = wanted.get(p.room)
        if name is None or name.zoomed:
            continue
        other = reads_as(name, p.box, p.line, rooms, centres, lead)
        if other is None and name.anywhere:
            other = beside_name(name, p.box, [q for q in placed if q.room != p.room])
        if other is not None:
            found.append(f"the name of {p.room} reads as {other}'s")
    return found


def astray(placed: Sequence[Placed], names: Sequence[Name]) -> list[str]:
    """The names placed nearer to another room than to their own (read as the other's)."""
    centres = {n.room: (n.cx, n.cy) for n in names}
    free = {n.room for n in names if n.anywhere}
    return [
        p.room
        for p in placed
        if p.room in centres and p.room not in free and _astray(p.room, p.box, centres)
    ]


class _Grid:
    """The soft things by square buckets: a name's box looks only at those near it (the
    board's ~200 spaces and letters against ~100 candidate places per room, on every change of
    a figure, would take a Pi's frame)."""

    def __init__(self, things: Sequence[tuple[Circle, float]], side: float = 48.0) -> None:
        self.side = side
        self.buckets: dict[tuple[int, int], list[tuple[Circle, float]]] = {}
        for thing in things:
            circle = thing[0]
            for key in self._keys(circle.x - circle.r, circle.y - circle.r, circle.x + circle.r,
                                  circle.y + circle.r):  # fmt: skip
                self.buckets.setdefault(key, []).append(thing)

    def _keys(self, x0: float, y0: float, x1: float, y1: float) -> Iterable[tuple[int, int]]:
        side = self.side
        for i in range(math.floor(x0 / side), math.floor(x1 / side) + 1):
            for j in range(math.floor(y0 / side), math.floor(y1 / side) + 1):
                yield i, j

    def at(self, x: float, y: float) -> list[tuple[Circle, float]]:
        """Each thing whose bucket holds the point (`near` of a box of no size)."""
        return self.buckets.get((math.floor(x / self.side), math.floor(y / self.side)), [])

    def near(self, box: Box) -> list[tuple[Circle, float]]:
        """Each thing whose bucket the box touches, once."""
        seen: dict[int, tuple[Circle, float]] = {}
        for key in self._keys(box.x, box.y, box.right, box.top):
            for thing in self.buckets.get(key, ()):
                seen[id(thing)] = thing
        return list(seen.values())
