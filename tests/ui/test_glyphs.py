"""Every character a screen can show is in the app's font: Kivy draws a missing one as an empty
box and does not fall back to another font (a "✓" once showed as a box in the status line)."""

from __future__ import annotations

from pathlib import Path

import kivy
import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from ui.widgets.glyphs import SUBSTITUTES, printable

ROOT = Path(__file__).resolve().parents[2]
FONTS = Path(kivy.__file__).parent / "data" / "fonts"


def characters(font: str) -> set[int]:
    return set(TTFont(FONTS / font).getBestCmap())


REGULAR = characters("Roboto-Regular.ttf")
BOLD = characters("Roboto-Bold.ttf")


def missing(text: str) -> set[str]:
    return {
        ch for ch in text if not ch.isspace() and (ord(ch) not in REGULAR or ord(ch) not in BOLD)
    }


def sources() -> list[Path]:
    found = [*ROOT.glob("ui/**/*.py"), *ROOT.glob("ui/**/*.kv"), *ROOT.glob("companion/**/*.py")]
    found += ROOT.glob("companion/data/*.json")
    return [p for p in found if p.name != "glyphs.py"]


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_texts_in_the_code_and_data_are_in_the_font(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    comments = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert missing(comments) == set(), path


@pytest.mark.parametrize("language", ["en", "de", "it", "fr"])
def test_every_translation_is_in_the_font(language: str) -> None:
    with (ROOT / "companion/app/words/locale" / language / "LC_MESSAGES" / "armata.po").open(
        "rb"
    ) as po:
        catalog = read_po(po)
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            assert missing(string) == set(), (language, message.id)


@pytest.mark.parametrize(
    "path", sorted(ROOT.glob("companion/data/RULES*.md")), ids=lambda p: p.name
)
def test_the_rules_screen_shows_every_rule_in_the_font(path: Path) -> None:
    shown = printable(path.read_text(encoding="utf-8"))
    assert missing(shown) == set(), path.name


def test_the_substitutes_replace_only_what_the_font_lacks_with_what_it_has() -> None:
    for lacking, written in SUBSTITUTES.items():
        assert missing(lacking) == {lacking}  # otherwise the substitute is not needed
        assert missing(written) == set()
    assert printable("Altar → Inferno ✓") == "Altar -> Inferno *"
