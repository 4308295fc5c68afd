"""How figures are marked on every board (the touchscreen, the phones, the legends): letters and
the Strigoi's colours. A module of its own so the touchscreen's first frame, which draws the
board, needs nothing of the words and announcements that import the whole engine."""

from __future__ import annotations

#: Each figure's mark, drawn on its disc or diamond (colour, shape *and* letters), the same on
#: the touchscreen, the phones and in the legends.
FIGURE_MARKS = {
    "attila": "AT",
    "falk_maria": "FM",
    "matthew": "MT",
    "charles": "CH",
    "roel": "RO",
    "master": "M",
    "apprentice": "A",
    "supreme": "S",
}
#: Each Strigoi's colour (its figure on the board, its cards, its LED ring).
STRIGOI_COLOUR = {"master": "#c00000", "apprentice": "#ff6000", "supreme": "#ff00a0"}
