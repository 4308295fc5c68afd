"""The fortress geometry: rooms, spaces, open edges, books, ladders and the stairs network.

A `Fortress` is immutable and built once from an `armata-board/1` document (see `board_build`).
What changes during play (platform rotations, collapsed platforms, ladders still standing) is a
small `BoardState` value. Every query takes both. Platform edges are precomputed for all six
rotations, so turning a platform is O(1): only the state's rotation number changes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from companion.engine.board_schema import BoardSpec
from companion.engine.cellbits import CellBits
from companion.engine.hexgrid import DIRECTIONS, Cell, opposite

Feature = Literal["red", "grey", "stairs"]
#: (static bits, room, platform bits for rotations 0-5 or None, ladder id or None, ladder bit)
EdgeRecord = tuple[int, str | None, tuple[int, ...] | None, str | None, int]
FEATURES: tuple[Feature, ...] = ("red", "grey", "stairs")
LETTERS = "ABCDEF"


@dataclass(frozen=True, slots=True)
class Room:
    id: str
    index: int
    tile: str
    at: Cell
    centre: Cell
    orientation: int
    platform: str | None
    rotation: int
    strigoi_start: bool
    #: room id adjacent in each absolute direction 0-5, or None.
    neighbours: tuple[str | None, ...]
    #: absolute sides (0-5) where the tile's corridors reach the room's edge (a door).
    doors: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Ladder:
    id: str
    room: str
    side: int
    cell: Cell
    room_cell: Cell


class BoardState(NamedTuple):
    """The parts of the board that change during a game (a named tuple: built on every query,
    and a tuple is several times cheaper to make than a frozen dataclass)."""

    rotations: Mapping[str, int]
    collapsed: frozenset[str] = frozenset()
    ladders: frozenset[str] = frozenset()

    def rotated(self, room: str, rotation: int) -> BoardState:
        rotations = dict(self.rotations)
        rotations[room] = rotation % 6
        return self._replace(rotations=rotations)

    def with_collapsed(self, room: str) -> BoardState:
        return self._replace(collapsed=self.collapsed | {room})

    def without_ladder(self, ladder: str) -> BoardState:
        return self._replace(ladders=self.ladders - {ladder})


@dataclass(frozen=True, slots=True)
class PlatformGeometry:
    """A platform placed in one room, precomputed for each of the six rotations."""

    cells: frozenset[Cell]  # the cells it covers (within P of the centre), whatever the rotation
    spaces: tuple[frozenset[Cell], ...]
    features: tuple[Mapping[Cell, Feature], ...]
    masks: tuple[
        Mapping[Cell, int], ...
    ]  # open-edge bits added by the platform (internal + crossing)
    books: str


@dataclass(frozen=True, slots=True)
class BoardTables:
    spaces: tuple[Cell, ...]  # sorted
    adjacency: Mapping[Cell, tuple[Cell, ...]]
    room_spaces: Mapping[str, tuple[Cell, ...]]  # sorted, per room (ladders belong to none)
    stairs: tuple[Cell, ...]  # sorted
    encounters: frozenset[Cell]
    #: the same as bit masks (`Fortress.bits` numbering), for the move search
    neighbour_masks: tuple[int, ...]  # by bit number; 0 for a cell that is no space now
    stairs_mask: int
    encounter_mask: int


@dataclass(frozen=True, slots=True)
class _Part:
    """One room's (or one ladder's) share of the board tables, for one state of that room."""

    room_spaces: tuple[Cell, ...]  # sorted; empty for a ladder
    adjacency: Mapping[Cell, tuple[Cell, ...]]
    neighbour_masks: tuple[tuple[int, int], ...]  # (bit number, neighbour mask)
    spaces: int
    stairs: int
    encounters: int


@dataclass(frozen=True, slots=True)
class Fortress:
    spec: BoardSpec
    room_radius: int
    platform_radius: int
    rooms: Mapping[str, Room]
    centre_room: str
    centre_books: str
    ladders: Mapping[str, Ladder]
    room_of_cell: Mapping[Cell, str]
    tile_spaces: frozenset[Cell]
    tile_features: Mapping[Cell, Feature]
    static_masks: Mapping[Cell, int]
    platforms: Mapping[str, PlatformGeometry]  # by room id
    ladder_by_side: Mapping[tuple[str, int], str] = field(default_factory=dict)
    ladder_by_cell: Mapping[Cell, str] = field(default_factory=dict)
    ladder_by_room_cell: Mapping[Cell, tuple[str, ...]] = field(default_factory=dict)
    #: Per cell, everything `open_mask` needs in one lookup (built in `__post_init__`).
    edge_records: Mapping[Cell, EdgeRecord] = field(default_factory=dict, init=False)
    #: Bit numbering of every cell that can ever be a space (built in `__post_init__`).
    bits: CellBits = field(init=False, compare=False, repr=False)
    _room_tile_spaces: Mapping[str, tuple[Cell, ...]] = field(init=False, compare=False, repr=False)
    _room_ladders: Mapping[str, frozenset[str]] = field(init=False, compare=False, repr=False)
    _parts: dict[tuple[object, ...], _Part] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    #: Tables derived from a board state (rotations, collapsed, ladders), built on first use:
    #: the board changes only on rotation, collapse or a destroyed ladder.
    _derived: dict[tuple[object, ...], BoardTables] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        records: dict[Cell, EdgeRecord] = {}
        cells = set(self.static_masks) | set(self.ladder_by_cell)
        for placed in self.platforms.values():
            for masks in placed.masks:
                cells |= set(masks)
        for cell in cells:
            room = self.room_of_cell.get(cell)
            geometry = self.platforms.get(room) if room is not None else None
            by_rotation: tuple[int, ...] | None = None
            if geometry is not None and any(m.get(cell, 0) for m in geometry.masks):
                by_rotation = tuple(m.get(cell, 0) for m in geometry.masks)
            ladder, bit = None, 0
            if room is None and cell in self.ladder_by_cell:
                ladder = self.ladder_by_cell[cell]
                bit = 1 << opposite(self.ladders[ladder].side)
            elif cell in self.ladder_by_room_cell:
                ladder = self.ladder_by_room_cell[cell][0]
                bit = 1 << self.ladders[ladder].side
            records[cell] = (self.static_masks.get(cell, 0), room, by_rotation, ladder, bit)
        object.__setattr__(self, "edge_records", records)
        possible = set(records) | set(self.tile_spaces) | set(self.ladder_by_cell)
        for placed in self.platforms.values():
            possible |= placed.cells
        object.__setattr__(self, "bits", CellBits(possible))
        tile_spaces: dict[str, list[Cell]] = {}
        for cell in self.tile_spaces:
            tile_spaces.setdefault(self.room_of_cell[cell], []).append(cell)
        object.__setattr__(
            self, "_room_tile_spaces", {r: tuple(cells) for r, cells in tile_spaces.items()}
        )
        room_ladders: dict[str, set[str]] = {}
        for cell, ladders in self.ladder_by_room_cell.items():
            room_ladders.setdefault(self.room_of_cell[cell], set()).update(ladders)
        object.__setattr__(
            self, "_room_ladders", {r: frozenset(ls) for r, ls in room_ladders.items()}
        )

    # ----- state -------------------------------------------------------------------------------
    def initial_state(self) -> BoardState:
        return BoardState(
            rotations={r.id: r.rotation for r in self.rooms.values() if r.platform is not None},
            collapsed=frozenset(),
            ladders=frozenset(self.ladders),
        )

    def has_platform(self, room: str, state: BoardState) -> bool:
        return room in self.platforms and room not in state.collapsed

    # ----- cells -------------------------------------------------------------------------------
    def centre(self, room: str) -> Cell:
        return self.rooms[room].centre

    def room_at(self, cell: Cell) -> str | None:
        """The room a cell belongs to (ladders and gaps belong to none)."""
        return self.room_of_cell.get(cell)

    def on_platform(self, cell: Cell, state: BoardState) -> str | None:
        """The room whose standing platform covers `cell`, if any."""
        room = self.room_of_cell.get(cell)
        if room is None or not self.has_platform(room, state):
            return None
        return room if cell in self.platforms[room].cells else None

    def is_space(self, cell: Cell, state: BoardState) -> bool:
        if cell in self.tile_spaces:
            return True
        ladder = self.ladder_by_cell.get(cell)
        if ladder is not None:
            return ladder in state.ladders
        room = self.room_of_cell.get(cell)
        if room is None or not self.has_platform(room, state):
            return False
        return cell in self.platforms[room].spaces[state.rotations[room]]

    def spaces(self, state: BoardState) -> list[Cell]:
        return list(self.tables(state).spaces)

    def feature(self, cell: Cell, state: BoardState) -> Feature | None:
        feature = self.tile_features.get(cell)
        if feature is not None:
            return feature
        if cell in self.ladder_by_cell:
            return "stairs" if self.ladder_by_cell[cell] in state.ladders else None
        room = self.room_of_cell.get(cell)
        if room is None or not self.has_platform(room, state):
            return None
        return self.platforms[room].features[state.rotations[room]].get(cell)

    def encounter_cells(self, state: BoardState) -> set[Cell]:
        """Every red or grey encounter space (fight markers not considered)."""
        return set(self.tables(state).encounters)

    def stairs(self, state: BoardState) -> list[Cell]:
        """Every stairs space (ladders included): the underground network of R-MOV-5."""
        return list(self.tables(state).stairs)

    # ----- edges -------------------------------------------------------------------------------
    def open_mask(self, cell: Cell, state: BoardState) -> int:
        """Bit d set when the edge from `cell` in direction d is open."""
        record = self.edge_records.get(cell)
        if record is None:
            return 0
        mask, room, by_rotation, ladder, ladder_bit = record
        if by_rotation is not None and room not in state.collapsed:
            mask |= by_rotation[state.rotations[room]]  # type: ignore[index]  # room set with bits
        if ladder is not None and ladder in state.ladders:
            mask |= ladder_bit
        return mask

    def tables(self, state: BoardState) -> BoardTables:
        """Spaces, neighbours, stairs and encounter spaces of this board state (cached).

        Assembled from per-room parts, each cached by what it depends on (its platform's
        rotation or collapse, its ladders), so a rotation rebuilds one room, not the board.
        """
        # unsorted: the same rotations in another key order only cost a second entry
        key = (tuple(state.rotations.items()), state.collapsed, state.ladders)
        tables = self._derived.get(key)
        if tables is None:
            if len(self._derived) >= 64:
                self._derived.clear()
            tables = self._assemble(state)
            self._derived[key] = tables
        return tables

    def _assemble(self, state: BoardState) -> BoardTables:
        parts = [self._room_part(room, state) for room in self.rooms]
        parts += [self._ladder_part(lid) for lid in sorted(state.ladders)]
        adjacency: dict[Cell, tuple[Cell, ...]] = {}
        masks = [0] * len(self.bits.cells)
        spaces = stairs = encounters = 0
        for part in parts:
            adjacency.update(part.adjacency)
            for i, mask in part.neighbour_masks:
                masks[i] = mask
            spaces |= part.spaces
            stairs |= part.stairs
            encounters |= part.encounters
        return BoardTables(
            spaces=tuple(self.bits.cells_of(spaces)),
            adjacency=adjacency,
            room_spaces={
                room: part.room_spaces
                for room, part in zip(self.rooms, parts, strict=False)
                if part.room_spaces
            },
            stairs=tuple(self.bits.cells_of(stairs)),
            encounters=frozenset(self.bits.cells_of(encounters)),
            neighbour_masks=tuple(masks),
            stairs_mask=stairs,
            encounter_mask=encounters,
        )

    def _room_part(self, room: str, state: BoardState) -> _Part:
        standing = self.has_platform(room, state)
        rotation = state.rotations[room] if standing else None
        ladders = frozenset(state.ladders & self._room_ladders.get(room, frozenset()))
        key = (room, rotation, ladders)
        part = self._parts.get(key)
        if part is None:
            cells = set(self._room_tile_spaces.get(room, ()))
            if rotation is not None:
                cells |= self.platforms[room].spaces[rotation]
            part = self._part(sorted(cells), state, in_room=True)
            self._parts[key] = part
        return part

    def _ladder_part(self, ladder: str) -> _Part:
        key = ("ladder", ladder)
        part = self._parts.get(key)
        if part is None:
            state = BoardState({}, frozenset(), frozenset({ladder}))
            part = self._part([self.ladders[ladder].cell], state, in_room=False)
            self._parts[key] = part
        return part

    def _part(self, cells: list[Cell], state: BoardState, in_room: bool) -> _Part:
        adjacency = {}
        for cell in cells:
            mask = self.open_mask(cell, state)
            q, r = cell
            adjacency[cell] = tuple(
                (q + dq, r + dr) for d, (dq, dr) in enumerate(DIRECTIONS) if mask >> d & 1
            )
        features = {cell: self.feature(cell, state) for cell in cells}
        bits = self.bits
        return _Part(
            room_spaces=tuple(cells) if in_room else (),
            adjacency=adjacency,
            neighbour_masks=tuple((bits.index[c], bits.mask(n)) for c, n in adjacency.items()),
            spaces=bits.mask(cells),
            stairs=bits.mask(c for c in cells if features[c] == "stairs"),
            encounters=bits.mask(c for c in cells if features[c] in ("red", "grey")),
        )

    def adjacency(self, state: BoardState) -> Mapping[Cell, tuple[Cell, ...]]:
        """Every space's open neighbours for this board state (cached)."""
        return self.tables(state).adjacency

    def is_open(self, cell: Cell, direction: int, state: BoardState) -> bool:
        return bool(self.open_mask(cell, state) >> direction & 1)

    def open_neighbours(self, cell: Cell, state: BoardState) -> Iterator[tuple[int, Cell]]:
        mask = self.open_mask(cell, state)
        q, r = cell
        for d in range(6):
            if mask >> d & 1:
                dq, dr = DIRECTIONS[d]
                yield d, (q + dq, r + dr)

    # ----- books -------------------------------------------------------------------------------
    def book_direction(self, room: str, letter: str, state: BoardState) -> int | None:
        """Absolute direction the book `letter` points to in `room` (platform or centre room)."""
        if room == self.centre_room:
            books, turn = self.centre_books, self.rooms[room].orientation
        elif self.has_platform(room, state):
            books, turn = self.platforms[room].books, state.rotations[room]
        else:
            return None
        index = books.find(letter)
        return None if index < 0 else (index + turn) % 6


__all__ = [
    "FEATURES",
    "LETTERS",
    "BoardState",
    "BoardTables",
    "EdgeRecord",
    "Feature",
    "Fortress",
    "Ladder",
    "PlatformGeometry",
    "Room",
]
