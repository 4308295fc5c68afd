"""Each hero's colour (their figure, their ladder on the board, their chip on the phones) tells
them apart at a glance, also for colour-blind players (issue 29 playtest: Matthew's yellow and
Roel's orange ladders looked alike). CIEDE2000 between every two heroes' colours, as seen with
normal colour vision and with each kind of dichromacy (support/colour_vision.py), and the phones'
stylesheet draws the touchscreen's colours."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.conftest import ROOT
from tests.support.colour_vision import VISIONS, ciede2000, difference, lab
from ui import theme

HEROES = ("attila", "falk_maria", "matthew", "charles", "roel")
#: the least CIEDE2000 between two heroes' colours, by vision: side by side a difference of 1
#: is just seen; a thin ladder on a dark board needs far more. Red-green blindness (protanopia,
#: deuteranopia: about 1 man in 12) is held to nearly the normal eye's; tritanopia is rare.
LEAST = {"normal": 30.0, "protanopia": 20.0, "deuteranopia": 20.0, "tritanopia": 12.0}
STYLESHEET = ROOT / "ui" / "web" / "static" / "style.css"


def test_the_colour_difference_matches_its_published_examples() -> None:
    """Sharma, Wu and Dalal's test pairs (2005): the formula as published."""
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
        ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
    ]
    for first, second, expected in pairs:
        assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert lab((1.0, 1.0, 1.0))[0] == pytest.approx(100.0, abs=0.01)
    # a dichromat sees red and green alike: the simulation must say so
    red, green = (0.8, 0.3, 0.1), (0.45, 0.45, 0.1)
    assert difference(red, green, "deuteranopia") < difference(red, green) / 2


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_every_two_heroes_colours_are_told_apart(vision: str) -> None:
    near = [
        (round(difference(theme.FIGURE_COLOURS[a], theme.FIGURE_COLOURS[b], vision), 1), a, b)
        for a, b in itertools.combinations(HEROES, 2)
    ]
    assert min(near)[0] >= LEAST[vision], sorted(near)[:3]


def test_every_hero_colour_stands_out_on_the_board() -> None:
    """Bright enough on the dark board and coloured (not a grey a space or a white ring could
    be mistaken for)."""
    for hero in HEROES:
        lightness, a, b = lab(theme.FIGURE_COLOURS[hero])
        assert lightness >= 50 and (a * a + b * b) ** 0.5 >= 35, (hero, lightness, a, b)


def test_the_phones_draw_the_touchscreens_colours() -> None:
    css = STYLESHEET.read_text()
    for figure, colour in theme.FIGURE_COLOURS.items():
        found = re.search(rf"\.fig-{figure} \{{ --c: (#[0-9a-f]{{6}}); \}}", css)
        assert found, figure
        assert theme.hex_colour(found.group(1)) == pytest.approx(colour, abs=0.5 / 255), figure
