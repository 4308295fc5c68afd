"""Colours and sizes. Dark and legible; red and grey encounter spaces also differ by a mark
(triangle / dot), so colour-blind players can tell them apart."""

from __future__ import annotations

from companion.app.board.marks import FIGURE_COLOURS_HEX
from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every screen

BACKGROUND = (0.07, 0.07, 0.09, 1)
PANEL = (0.13, 0.13, 0.16, 1)
TEXT = (0.93, 0.93, 0.93, 1)
ACCENT = (0.85, 0.2, 0.2, 1)
SPACE = (0.30, 0.30, 0.34, 1)
PLATFORM_SPACE = (0.36, 0.34, 0.30, 1)
RED_ENCOUNTER = (0.89, 0.34, 0.18, 1)  # vermilion: distinct from green/blue for most CVD
GREY_ENCOUNTER = (0.62, 0.62, 0.66, 1)
STAIRS = (0.45, 0.33, 0.20, 1)
OUTLINE = (0.05, 0.05, 0.06, 1)
HERO = (0.25, 0.55, 0.95, 1)
STRIGOI = (0.75, 0.1, 0.45, 1)
MIN_TOUCH_PX = 48


def hex_colour(text: str) -> tuple[float, float, float, float]:
    return (int(text[1:3], 16) / 255, int(text[3:5], 16) / 255, int(text[5:7], 16) / 255, 1.0)


MUTED = (0.70, 0.70, 0.74, 1)
FOCUS = (0.20, 0.35, 0.60, 1)  # the option the Pi's Next button highlighted
COMMIT = (0.16, 0.32, 0.22, 1)  # a committing button (Move here, Done)
ALERT = (0.55, 0.38, 0.02, 1)  # the table differs from the game
GOOD = (0.30, 0.75, 0.45, 1)
#: threat map shades: safe / risky / deadly next Strigoi step (deadly also gets a cross)
THREAT = {
    "safe": (0.2, 0.7, 0.4, 0.35),
    "risky": (0.95, 0.75, 0.1, 0.45),
    "deadly": (0.85, 0.05, 0.1, 0.55),
}

#: what can be chosen on the board: a bright ring and dot that keep the space's own fill
CHOICE = (0.35, 0.95, 1.0, 1)
SELECTED = (1.0, 1.0, 1.0, 1)  # the space chosen, waiting for "Move here"
DEADLY = (0.95, 0.1, 0.15, 1)  # the threat map's deadly mark: a red ring, unlike any feature
SIGHT = (1.0, 0.85, 0.2, 1.0)  # a Strigoi's line of sight to the hero it attacks
MARKED = (1.0, 0.25, 0.2, 1)  # a figure a card names: the hero attacked, cursed, fighting
BOOK = (0.93, 0.86, 0.62, 1)  # a book letter's disc (parchment)
#: each figure its colour (told apart by colour-blind eyes too: board/marks.py) and mark
FIGURE_COLOURS: dict[str, tuple[float, float, float, float]] = {
    figure: hex_colour(text) for figure, text in FIGURE_COLOURS_HEX.items()
}


def ink_on(colour: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on `colour`."""
    luminance = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (0.0, 0.0, 0.0, 1.0) if luminance > 0.55 else (1.0, 1.0, 1.0, 1.0)
