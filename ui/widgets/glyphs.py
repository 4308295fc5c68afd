"""Characters the app's font (Kivy's Roboto) does not have, written with ones it has.

Kivy does not fall back to another font: a missing glyph is drawn as an empty box. The rules
text uses arrows; everything a screen shows goes through `printable` or is checked by
`tests/ui/test_glyphs.py` against the font itself."""

from __future__ import annotations

#: Replacements, each made of characters the font has.
SUBSTITUTES = {
    "→": "->",
    "←": "<-",
    "✓": "*",
    "✗": "x",
}


def printable(text: str) -> str:
    """`text` with every character the font lacks (of those known) replaced."""
    if text.isascii():
        return text
    return "".join(SUBSTITUTES.get(ch, ch) for ch in text)


#: Kivy ships DejaVu Sans, which has the arrow: a card's headline ("Master -> north-east room")
#: shows the real one in that font, through markup.
ARROW_MARKUP = "[font=DejaVuSans]\u2192[/font]"

#: the "more below" cue's triangle pointing down, in DejaVu Sans too
DOWN_MARKUP = "[font=DejaVuSans]\u25bc[/font]"


def with_arrows(markup: str) -> str:
    """Kivy markup (already escaped) with each arrow drawn in a font that has it."""
    return markup.replace("\u2192", ARROW_MARKUP)
