"""The board tables computed the plain way, cell by cell over the whole board: the reference the
cached, room-by-room `Fortress.tables` must equal."""

from __future__ import annotations

from companion.engine.fortress import BoardState, BoardTables, Fortress
from companion.engine.hexgrid import DIRECTIONS, Cell


def plain_tables(fortress: Fortress, state: BoardState) -> BoardTables:
    spaces = sorted(c for c in fortress.bits.cells if fortress.is_space(c, state))
    adjacency: dict[Cell, tuple[Cell, ...]] = {}
    by_room: dict[str, list[Cell]] = {}
    for cell in spaces:
        mask = fortress.open_mask(cell, state)
        adjacency[cell] = tuple(
            (cell[0] + dq, cell[1] + dr) for d, (dq, dr) in enumerate(DIRECTIONS) if mask >> d & 1
        )
        room = fortress.room_at(cell)
        if room is not None:
            by_room.setdefault(room, []).append(cell)
    features = {c: fortress.feature(c, state) for c in spaces}
    stairs = tuple(c for c in spaces if features[c] == "stairs")
    encounters = frozenset(c for c in spaces if features[c] in ("red", "grey"))
    masks = [0] * len(fortress.bits.cells)
    for cell, near in adjacency.items():
        masks[fortress.bits.index[cell]] = fortress.bits.mask(near)
    return BoardTables(
        spaces=tuple(spaces),
        adjacency=adjacency,
        room_spaces={room: tuple(cells) for room, cells in by_room.items()},
        stairs=stairs,
        encounters=encounters,
        neighbour_masks=tuple(masks),
        stairs_mask=fortress.bits.mask(stairs),
        encounter_mask=fortress.bits.mask(encounters),
    )
