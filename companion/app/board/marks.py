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
#: Each figure's colour on the boards (its disc or diamond, a hero's ladder, a hero's chip on the
#: phones; ui/web/static/style.css draws the same). The heroes' five stay apart for colour-blind
#: eyes too: CIEDE2000 at least 30 apart with normal colour vision, 20 with red-green blindness
#: (tests/ui/test_hero_colours.py; issue 29: Okabe-Ito's yellow and orange looked alike as ladders).
FIGURE_COLOURS_HEX = {
    "attila": "#5966ff",  # blue
    "falk_maria": "#008c73",  # bluish green
    "matthew": "#ffff1a",  # yellow
    "charles": "#40ccff",  # sky blue
    "roel": "#d98c26",  # ochre orange
    "master": "#d65e00",
    "apprentice": "#cc78a6",
    "supreme": "#8c1a8c",
}
#: Each Strigoi's colour (its figure on the board, its cards, its LED ring).
STRIGOI_COLOUR = {"master": "#c00000", "apprentice": "#ff6000", "supreme": "#ff00a0"}
