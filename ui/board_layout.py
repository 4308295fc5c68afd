"""The board's layout rules (issue 29) for the touchscreen: the plain geometry lives in
companion/app/board_geometry.py, shared with the phones' view (companion/ may not import ui/);
this module keeps its names for ui/."""

from companion.app.board_geometry import (
    ANGLES,
    GAP,
    HARD,
    OUTSIDE,
    OWN,
    RANK,
    Box,
    Circle,
    Item,
    Name,
    Placed,
    candidates,
    intersects,
    overlaps,
    place_names,
    split_in_two,
    spread,
)

__all__ = [
    "ANGLES",
    "GAP",
    "HARD",
    "OUTSIDE",
    "OWN",
    "RANK",
    "Box",
    "Circle",
    "Item",
    "Name",
    "Placed",
    "candidates",
    "intersects",
    "overlaps",
    "place_names",
    "split_in_two",
    "spread",
]
