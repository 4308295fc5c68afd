"""The fortress geometry: rooms, spaces, open edges, books, ladders and the stairs network.

A `Fortress` is immutable and built once from an `armata-board/1` document (see `board_build`).
What changes during play (platform rotations, collapsed platforms, ladders still standing) is a
small `BoardState` value. Every query takes both. Platform edges are precomputed for all six
rotations, so turning a platform is O(1): only the state's rotation number changes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from companion.engine.board_schema import BoardSpec
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


@dataclass(frozen=True, slots=True)
class Ladder:
    id: str
    room: str
    side: int
    cell: Cell
    room_cell: Cell


@dataclass(frozen=True, slots=True)
class BoardState:
    """The parts of the board that change during a game."""

    rotations: Mapping[str, int]
    collapsed: frozenset[str] = frozenset()
    ladders: frozenset[str] = frozenset()

    def rotated(self, room: str, rotation: int) -> BoardState:
        rotations = dict(self.rotations)
        rotations[room] = rotation % 6
        return replace(self, rotations=rotations)

    def with_collapsed(self, room: str) -> BoardState:
        return replace(self, collapsed=self.collapsed | {room})

    def without_ladder(self, ladder: str) -> BoardState:
        return replace(self, ladders=self.ladders - {ladder})


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
    #: one move step from each space: open neighbours, plus every other stairs from stairs (R-MOV-5)
    steps: Mapping[Cell, tuple[Cell, ...]]


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

    def _spaces(self, state: BoardState) -> list[Cell]:
        cells = set(self.tile_spaces)
        for room, geometry in self.platforms.items():
            if room not in state.collapsed:
                cells |= geometry.spaces[state.rotations[room]]
        cells |= {self.ladders[lid].cell for lid in state.ladders}
        return sorted(cells)

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

    def _encounter_cells(self, state: BoardState) -> set[Cell]:
        cells = {c for c, f in self.tile_features.items() if f != "stairs"}
        for room, geometry in self.platforms.items():
            if room not in state.collapsed:
                features = geometry.features[state.rotations[room]]
                cells.update(c for c, f in features.items() if f != "stairs")
        return cells

    def stairs(self, state: BoardState) -> list[Cell]:
        """Every stairs space (ladders included): the underground network of R-MOV-5."""
        return list(self.tables(state).stairs)

    def _stairs(self, state: BoardState) -> list[Cell]:
        cells = [c for c, f in self.tile_features.items() if f == "stairs"]
        for room, geometry in self.platforms.items():
            if room not in state.collapsed:
                features = geometry.features[state.rotations[room]]
                cells.extend(c for c, f in features.items() if f == "stairs")
        cells.extend(self.ladders[lid].cell for lid in state.ladders)
        return sorted(cells)

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
        """Spaces, neighbours, stairs and encounter spaces of this board state (cached)."""
        key = (tuple(sorted(state.rotations.items())), state.collapsed, state.ladders)
        tables = self._derived.get(key)
        if tables is None:
            if len(self._derived) >= 64:
                self._derived.clear()
            spaces = self._spaces(state)
            adjacency = {}
            by_room: dict[str, list[Cell]] = {}
            for cell in spaces:
                mask = self.open_mask(cell, state)
                q, r = cell
                adjacency[cell] = tuple(
                    (q + dq, r + dr) for d, (dq, dr) in enumerate(DIRECTIONS) if mask >> d & 1
                )
                room = self.room_of_cell.get(cell)
                if room is not None:
                    by_room.setdefault(room, []).append(cell)
            stairs = tuple(self._stairs(state))
            stair_set = set(stairs)
            steps = {
                cell: around + tuple(x for x in stairs if x != cell)
                if cell in stair_set
                else around
                for cell, around in adjacency.items()
            }
            tables = BoardTables(
                spaces=tuple(spaces),
                adjacency=adjacency,
                room_spaces={room: tuple(cells) for room, cells in by_room.items()},
                stairs=stairs,
                encounters=frozenset(self._encounter_cells(state)),
                steps=steps,
            )
            self._derived[key] = tables
        return tables

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
