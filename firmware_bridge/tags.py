"""The tag layout under the board (hardware/README.md): which rim sticker is over a room node's
reader for a platform's rotation. Shared by the app (reading) and the simulated table (writing).

Edge `k` of a platform is the sticker at the platform's own direction `k`, beside its book
`books[k]`. Turned `r` steps, that edge faces absolute direction `k + r` (BOARD-FORMAT.md: a
platform's direction i points to i + rotation). The reader sits under the room's edge facing
`reader_direction` (the tile's direction 0 turned by the tile's orientation).
"""

from __future__ import annotations

RIM_EDGES = 6
RIM_READER = 0  # reader 0 of a room node: under the platform's rim
CENTRE_READER = 1  # reader 1: under the platform's centre (figures)


def rim_edge(rotation: int, reader_direction: int = 0) -> int:
    """The rim edge over the reader when the platform is turned `rotation` steps."""
    return (reader_direction - rotation) % RIM_EDGES


def rotation_of(edge: int, reader_direction: int = 0) -> int:
    """The platform's rotation when rim edge `edge` is over the reader."""
    return (reader_direction - edge) % RIM_EDGES
