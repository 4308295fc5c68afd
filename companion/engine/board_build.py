"""Validate an `armata-board/1` document against BOARD-FORMAT.md and build its `Fortress`.

Every rule of the format is checked before anything is built; the first violation raises a
`BoardFormatError` whose path names the offending JSON element.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.engine.board_schema import (
    BoardSpec,
    CellSpec,
    PlatformSpec,
    SpacesSpec,
    TileSpec,
    parse_board_spec,
)
from companion.engine.fortress import (
    FEATURES,
    LETTERS,
    Feature,
    Fortress,
    Ladder,
    PlatformGeometry,
    Room,
)
from companion.engine.hexgrid import (
    DIRECTIONS,
    Cell,
    add,
    direction_between,
    disc,
    distance,
    opposite,
    rotate,
    scale,
    step,
)
from companion.errors import BoardFormatError

MAX_LADDERS = 5
Edge = tuple[Cell, Cell]


def edge(a: Cell, b: Cell) -> Edge:
    return (a, b) if a <= b else (b, a)


def fmt(cell: Sequence[int]) -> str:
    return f"[{cell[0]}, {cell[1]}]"


@dataclass
class _PartGeometry:
    """What one tile or platform declares, in its own local coordinates."""

    spaces: set[Cell] = field(default_factory=set)
    internal_edges: set[Edge] = field(default_factory=set)
    crossing_edges: set[Edge] = field(default_factory=set)
    door_sides: set[int] = field(default_factory=set)
    features: dict[Cell, Feature] = field(default_factory=dict)
    books: str | None = None


def load_board(data: object) -> Fortress:
    """Validate a parsed JSON document and build the fortress. Raises BoardFormatError."""
    return build_fortress(parse_board_spec(data))


#: Size bounds (a board is read from files and the network): the printed rooms have radius 3;
#: 12 leaves room for home-made boards while keeping a board's tables a few MB at most.
MAX_ROOM_RADIUS = 12
MAX_ROOMS = 37  # the centre room and three rings around it


def build_fortress(spec: BoardSpec) -> Fortress:
    radius, prad = spec.room_radius, spec.platform_radius
    if radius < 1:
        raise BoardFormatError("room_radius", f"must be at least 1, got {radius}")
    if radius > MAX_ROOM_RADIUS:
        raise BoardFormatError("room_radius", f"must be at most {MAX_ROOM_RADIUS}, got {radius}")
    if len(spec.layout.rooms) > MAX_ROOMS:
        raise BoardFormatError(
            "layout.rooms", f"at most {MAX_ROOMS} rooms, got {len(spec.layout.rooms)}"
        )
    if not 0 <= prad < radius:
        raise BoardFormatError(
            "platform_radius", f"must be between 0 and room_radius - 1 ({radius - 1}), got {prad}"
        )
    tiles = {tid: _tile_geometry(tid, t, radius, prad) for tid, t in spec.tiles.items()}
    platforms = {pid: _platform_geometry(pid, p, prad) for pid, p in spec.platforms.items()}
    rooms = _place_rooms(spec, tiles)
    ladders = _place_ladders(spec, rooms, tiles)
    return _assemble(spec, tiles, platforms, rooms, ladders)


# ----- parts ----------------------------------------------------------------------------------
def _books(value: str | list[str] | None, path: str) -> str:
    if value is None:
        raise BoardFormatError(path, "missing: six distinct letters A-F are required")
    letters = "".join(value) if isinstance(value, list) else value
    if isinstance(value, list) and any(len(x) != 1 for x in value):
        raise BoardFormatError(path, f"each book must be one letter, got {value!r}")
    if len(letters) != 6 or set(letters) != set(LETTERS):
        raise BoardFormatError(path, f"must be six distinct letters A-F, got {value!r}")
    return letters


def _check_features(
    spaces: SpacesSpec,
    path: str,
    owns: Callable[[CellSpec], bool],
    part: _PartGeometry,
    what: str,
) -> None:
    for feature in FEATURES:
        cells: list[CellSpec] = getattr(spaces, feature)
        for j, cell in enumerate(cells):
            here = f"{path}.spaces.{feature}[{j}]"
            if not owns(cell):
                raise BoardFormatError(here, f"cell {fmt(cell)} is not a space of this {what}")
            if cell in part.features:
                raise BoardFormatError(
                    here, f"cell {fmt(cell)} already has feature {part.features[cell]!r}"
                )
            part.features[cell] = feature
            part.spaces.add(cell)


def _check_cells(
    polyline: list[CellSpec], path: str, nameable: Callable[[CellSpec], bool], limit: str
) -> None:
    """First pass over a polyline: every step adjacent, every cell within what the part may name."""
    if not polyline:
        raise BoardFormatError(path, "empty polyline")
    for j, cell in enumerate(polyline):
        if j > 0 and direction_between(polyline[j - 1], cell) is None:
            raise BoardFormatError(f"{path}[{j}]", f"not adjacent to {fmt(polyline[j - 1])}")
        if not nameable(cell):
            raise BoardFormatError(f"{path}[{j}]", f"cell {fmt(cell)} lies beyond {limit}")


def _polyline_neighbours(polyline: list[CellSpec], j: int) -> list[CellSpec]:
    return [polyline[k] for k in (j - 1, j + 1) if 0 <= k < len(polyline)]


def _tile_geometry(tid: str, tile: TileSpec, radius: int, prad: int) -> _PartGeometry:
    path = f"tiles.{tid}"
    part = _PartGeometry()
    doors = {scale(d, radius + 1): side for side, d in enumerate(DIRECTIONS)}

    def owns(cell: CellSpec) -> bool:
        dist = distance(cell)
        return dist <= radius and (not tile.cutout or dist > prad)

    def under_platform(cell: CellSpec) -> bool:
        return tile.cutout and distance(cell) <= prad

    def nameable(cell: CellSpec) -> bool:
        return distance(cell) <= radius or cell in doors

    for i, polyline in enumerate(tile.corridors):
        _check_cells(polyline, f"{path}.corridors[{i}]", nameable, f"the room radius {radius}")
        for j, cell in enumerate(polyline):
            here = f"{path}.corridors[{i}][{j}]"
            neighbours = _polyline_neighbours(polyline, j)
            if owns(cell):
                part.spaces.add(cell)
            elif under_platform(cell):
                if not neighbours or not all(owns(n) for n in neighbours):
                    raise BoardFormatError(
                        here,
                        f"cell {fmt(cell)} belongs to the platform: a tile may name it only as the "
                        "far end of a crossing edge",
                    )
            else:
                spoke = scale(DIRECTIONS[doors[cell]], radius)
                if not neighbours or any(n != spoke for n in neighbours):
                    raise BoardFormatError(
                        here,
                        f"door cell {fmt(cell)} may only end a door edge from {fmt(spoke)}",
                    )
            if j == 0:
                continue
            a, b = polyline[j - 1], cell
            if owns(a) and owns(b):
                part.internal_edges.add(edge(a, b))
            elif b in doors or a in doors:
                part.door_sides.add(doors[b] if b in doors else doors[a])
            else:
                part.crossing_edges.add(edge(a, b))
    _check_features(tile.spaces or SpacesSpec(), path, owns, part, "tile")
    if tile.cutout:
        if tile.books is not None:
            raise BoardFormatError(f"{path}.books", "only a tile without cut-out carries books")
    else:
        part.books = _books(tile.books, f"{path}.books")
    return part


def _platform_geometry(pid: str, platform: PlatformSpec, prad: int) -> _PartGeometry:
    path = f"platforms.{pid}"
    part = _PartGeometry(books=_books(platform.books, f"{path}.books"))

    def owns(cell: CellSpec) -> bool:
        return distance(cell) <= prad

    def nameable(cell: CellSpec) -> bool:
        return distance(cell) <= prad + 1

    for i, polyline in enumerate(platform.corridors):
        _check_cells(
            polyline, f"{path}.corridors[{i}]", nameable, f"the platform radius {prad} (+1)"
        )
        for j, cell in enumerate(polyline):
            here = f"{path}.corridors[{i}][{j}]"
            if owns(cell):
                part.spaces.add(cell)
            else:
                neighbours = _polyline_neighbours(polyline, j)
                if not neighbours or not all(owns(n) for n in neighbours):
                    raise BoardFormatError(
                        here,
                        f"cell {fmt(cell)} is outside the platform: it may be named only as the "
                        "far end of a crossing edge",
                    )
            if j == 0:
                continue
            a, b = polyline[j - 1], cell
            if owns(a) and owns(b):
                part.internal_edges.add(edge(a, b))
            else:
                part.crossing_edges.add(edge(a, b))
    _check_features(platform.spaces or SpacesSpec(), path, owns, part, "platform")
    return part


# ----- layout ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Placed:
    index: int
    id: str
    tile: str
    at: Cell
    orientation: int
    platform: str | None
    rotation: int


def _place_rooms(spec: BoardSpec, tiles: Mapping[str, _PartGeometry]) -> dict[str, _Placed]:
    rooms: dict[str, _Placed] = {}
    by_at: dict[Cell, str] = {}
    platform_used: dict[str, str] = {}
    if not spec.layout.rooms:
        raise BoardFormatError("layout.rooms", "no rooms")
    for i, room in enumerate(spec.layout.rooms):
        here = f"layout.rooms[{i}]"
        if room.id in rooms:
            raise BoardFormatError(f"{here}.id", f"duplicate room id {room.id!r}")
        if room.tile not in spec.tiles:
            raise BoardFormatError(f"{here}.tile", f"unknown tile id {room.tile!r}")
        if not 0 <= room.orientation <= 5:
            raise BoardFormatError(f"{here}.orientation", f"must be 0-5, got {room.orientation}")
        if not 0 <= room.rotation <= 5:
            raise BoardFormatError(f"{here}.rotation", f"must be 0-5, got {room.rotation}")
        at = (room.at[0], room.at[1])
        if at in by_at:
            raise BoardFormatError(
                f"{here}.at", f"macro position {fmt(at)} is already used by room {by_at[at]!r}"
            )
        cutout = spec.tiles[room.tile].cutout
        if room.platform is None:
            if cutout:
                raise BoardFormatError(
                    f"{here}.platform", f"room {room.id!r} has a cut-out and needs a platform"
                )
        else:
            if not cutout:
                raise BoardFormatError(
                    f"{here}.platform",
                    f"room {room.id!r} has tile {room.tile!r} without cut-out: no platform allowed",
                )
            if room.platform not in spec.platforms:
                raise BoardFormatError(f"{here}.platform", f"unknown platform id {room.platform!r}")
            if room.platform in platform_used:
                raise BoardFormatError(
                    f"{here}.platform",
                    f"platform {room.platform!r} is already in room "
                    f"{platform_used[room.platform]!r}",
                )
            platform_used[room.platform] = room.id
        by_at[at] = room.id
        rooms[room.id] = _Placed(
            i, room.id, room.tile, at, room.orientation, room.platform, room.rotation
        )
    centres = [r.id for r in rooms.values() if not spec.tiles[r.tile].cutout]
    if len(centres) != 1:
        raise BoardFormatError(
            "layout.rooms",
            "exactly one room must use a tile without cut-out (the centre room), "
            f"found {len(centres)}: {centres}",
        )
    _check_connected(rooms, by_at)
    return rooms


def _check_connected(rooms: Mapping[str, _Placed], by_at: Mapping[Cell, str]) -> None:
    first = next(iter(rooms))
    seen, todo = {first}, [first]
    while todo:
        room = rooms[todo.pop()]
        for d in DIRECTIONS:
            other = by_at.get(add(room.at, d))
            if other is not None and other not in seen:
                seen.add(other)
                todo.append(other)
    unreached = [r for r in rooms if r not in seen]
    if unreached:
        raise BoardFormatError(
            "layout.rooms",
            f"rooms are not connected: {unreached} cannot be reached from {first!r}",
        )


def _neighbour(rooms: Mapping[str, _Placed], at: Cell, side: int) -> str | None:
    target = add(at, DIRECTIONS[side])
    return next((r.id for r in rooms.values() if r.at == target), None)


def _place_ladders(
    spec: BoardSpec, rooms: Mapping[str, _Placed], tiles: Mapping[str, _PartGeometry]
) -> list[tuple[str, str, int]]:
    placed: list[tuple[str, str, int]] = []
    ids: set[str] = set()
    sides: dict[tuple[str, int], str] = {}
    for i, ladder in enumerate(spec.layout.ladders):
        here = f"layout.ladders[{i}]"
        if ladder.id in ids:
            raise BoardFormatError(f"{here}.id", f"duplicate ladder id {ladder.id!r}")
        if ladder.room not in rooms:
            raise BoardFormatError(f"{here}.room", f"unknown room {ladder.room!r}")
        if not 0 <= ladder.side <= 5:
            raise BoardFormatError(f"{here}.side", f"must be 0-5, got {ladder.side}")
        room = rooms[ladder.room]
        neighbour = _neighbour(rooms, room.at, ladder.side)
        if neighbour is not None:
            raise BoardFormatError(
                f"{here}.side",
                f"side {ladder.side} of room {ladder.room!r} faces room {neighbour!r}: "
                "ladders go on outer sides",
            )
        local_side = (ladder.side - room.orientation) % 6
        if local_side not in tiles[room.tile].door_sides:
            raise BoardFormatError(
                f"{here}.side", f"room {ladder.room!r} has no door on side {ladder.side}"
            )
        if (ladder.room, ladder.side) in sides:
            raise BoardFormatError(
                f"{here}.side",
                f"side {ladder.side} of room {ladder.room!r} already holds ladder "
                f"{sides[(ladder.room, ladder.side)]!r}",
            )
        ids.add(ladder.id)
        sides[(ladder.room, ladder.side)] = ladder.id
        placed.append((ladder.id, ladder.room, ladder.side))
    if len(placed) > MAX_LADDERS:
        raise BoardFormatError(
            "layout.ladders", f"at most {MAX_LADDERS} ladders, found {len(placed)}"
        )
    return placed


# ----- assembly -------------------------------------------------------------------------------
def _bit(masks: dict[Cell, int], a: Cell, b: Cell) -> None:
    d = direction_between(a, b)
    assert d is not None
    masks[a] = masks.get(a, 0) | 1 << d
    masks[b] = masks.get(b, 0) | 1 << opposite(d)


def _assemble(
    spec: BoardSpec,
    tiles: Mapping[str, _PartGeometry],
    platforms: Mapping[str, _PartGeometry],
    placed: Mapping[str, _Placed],
    ladder_list: list[tuple[str, str, int]],
) -> Fortress:
    radius, prad = spec.room_radius, spec.platform_radius
    span = 2 * radius + 1
    room_of_cell: dict[Cell, str] = {}
    tile_spaces: set[Cell] = set()
    tile_features: dict[Cell, Feature] = {}
    static: dict[Cell, int] = {}
    door_sides: dict[str, set[int]] = {}
    geometries: dict[str, PlatformGeometry] = {}
    rooms: dict[str, Room] = {}
    local_disc = disc(radius)

    for p in placed.values():
        centre = scale(p.at, span)
        tile = tiles[p.tile]

        def place(cell: Cell, turn: int, centre: Cell = centre) -> Cell:
            return add(rotate(cell, turn), centre)

        for cell in local_disc:
            room_of_cell[place(cell, 0)] = p.id
        tile_spaces |= {place(c, p.orientation) for c in tile.spaces}
        tile_features |= {place(c, p.orientation): f for c, f in tile.features.items()}
        for a, b in tile.internal_edges:
            _bit(static, place(a, p.orientation), place(b, p.orientation))
        door_sides[p.id] = {(s + p.orientation) % 6 for s in tile.door_sides}
        if p.platform is not None:
            geometries[p.id] = _platform_in_room(
                platforms[p.platform], tile, p.orientation, centre, prad
            )
        neighbours = tuple(_neighbour(placed, p.at, d) for d in range(6))
        platform_spec = spec.platforms.get(p.platform) if p.platform else None
        rooms[p.id] = Room(
            id=p.id,
            index=p.index,
            tile=p.tile,
            at=p.at,
            centre=centre,
            orientation=p.orientation,
            platform=p.platform,
            rotation=p.rotation,
            strigoi_start=bool(platform_spec and platform_spec.strigoi_start),
            neighbours=neighbours,
            doors=frozenset(door_sides[p.id]),
        )

    for room in rooms.values():
        for side in door_sides[room.id]:
            other = room.neighbours[side]
            if other is not None and opposite(side) in door_sides[other] and room.id < other:
                _bit(static, step(room.centre, side, radius), step(room.centre, side, radius + 1))

    ladders: dict[str, Ladder] = {}
    for lid, room_id, side in ladder_list:
        centre = rooms[room_id].centre
        ladders[lid] = Ladder(
            lid, room_id, side, step(centre, side, radius + 1), step(centre, side, radius)
        )
    by_room_cell: dict[Cell, tuple[str, ...]] = {}
    for ladder in ladders.values():
        by_room_cell[ladder.room_cell] = (*by_room_cell.get(ladder.room_cell, ()), ladder.id)

    centre_room = next(r.id for r in rooms.values() if r.platform is None)
    centre_books = tiles[rooms[centre_room].tile].books
    assert centre_books is not None
    return Fortress(
        spec=spec,
        room_radius=radius,
        platform_radius=prad,
        rooms=rooms,
        centre_room=centre_room,
        centre_books=centre_books,
        ladders=ladders,
        room_of_cell=room_of_cell,
        tile_spaces=frozenset(tile_spaces),
        tile_features=tile_features,
        static_masks=static,
        platforms=geometries,
        ladder_by_side={(lad.room, lad.side): lad.id for lad in ladders.values()},
        ladder_by_cell={lad.cell: lad.id for lad in ladders.values()},
        ladder_by_room_cell=by_room_cell,
    )


def _platform_in_room(
    platform: _PartGeometry, tile: _PartGeometry, orientation: int, centre: Cell, prad: int
) -> PlatformGeometry:
    tile_crossings = {
        edge(add(rotate(a, orientation), centre), add(rotate(b, orientation), centre))
        for a, b in tile.crossing_edges
    }
    spaces, features, masks = [], [], []
    for turn in range(6):

        def place(cell: Cell, turn: int = turn) -> Cell:
            return add(rotate(cell, turn), centre)

        mask: dict[Cell, int] = {}
        for a, b in platform.internal_edges:
            _bit(mask, place(a), place(b))
        for a, b in platform.crossing_edges:
            placed_edge = edge(place(a), place(b))
            if placed_edge in tile_crossings:
                _bit(mask, *placed_edge)
        spaces.append(frozenset(place(c) for c in platform.spaces))
        features.append({place(c): f for c, f in platform.features.items()})
        masks.append(mask)
    assert platform.books is not None
    return PlatformGeometry(
        cells=frozenset(add(c, centre) for c in disc(prad)),
        spaces=tuple(spaces),
        features=tuple(features),
        masks=tuple(masks),
        books=platform.books,
    )


__all__ = [
    "MAX_LADDERS",
    "MAX_ROOMS",
    "MAX_ROOM_RADIUS",
    "Edge",
    "build_fortress",
    "edge",
    "fmt",
    "load_board",
]
