"""How wide a line of text is drawn, estimated without a font library: DejaVu Sans' advance
widths (the font the table's Debian browsers and the Pi use for sans-serif), in thousandths of
the font size, read once from DejaVuSans.ttf. The phones' view draws its room names with exactly
the estimated width (companion/app/web/board.py), so a phone's own font only squeezes or
stretches a name a little; tests/web/test_web_board_browser.py checks the estimate against Chromium.
"""

from __future__ import annotations

#: advance width (1/1000 of the font size) -> the characters of that width
_BY_WIDTH: dict[int, str] = {
    275: "'",
    278: "ijlìíîï",
    295: "IJÌÍÎÏ",
    318: " ,.\xa0·‘’",
    337: "/:;\\|¦",
    352: "f",
    361: "-\xad",
    390: "()[]",
    392: "t",
    401: "!¡²³¹",
    411: "r",
    460: '"',
    471: "ªº",
    500: "*_`§¨¯°´¸–",
    518: "“”",
    521: "s",
    525: "z",
    531: "?¿",
    550: "cç",
    557: "L",
    575: "F",
    579: "k",
    592: "vxyýÿ",
    603: "P",
    605: "Þ",
    611: "TYÝŸ",
    612: "o«»ðòóôõöø",
    613: "aàáâãäå",
    615: "eèéêë",
    630: "ß",
    632: "EÈÉÊË",
    634: "hnuñùúûü",
    635: "Sbdgpqþ",
    636: "$0123456789{}¢£¤¥µ¶€",
    656: "K",
    684: "AVÀÁÂÃÄÅ",
    685: "XZ",
    686: "B",
    695: "R",
    698: "CÇ",
    732: "UÙÚÛÜ",
    748: "NÑ",
    752: "H",
    770: "D",
    775: "GÐ",
    780: "&",
    787: "OQÒÓÔÕÖØ",
    818: "w",
    838: "#+<=>^~¬±×÷",
    863: "M",
    950: "%",
    969: "¼½¾",
    974: "mÆ",
    982: "æ",
    989: "W",
    1000: "@©®—…",
    1023: "œ",
    1070: "Œ",
}
#: a character the table does not know: about an average lower-case letter
UNKNOWN = 620
WIDTHS: dict[str, int] = {ch: width for width, chars in _BY_WIDTH.items() for ch in chars}


def text_width(text: str, size: float) -> float:
    """The width of `text` drawn in DejaVu Sans (regular) at font size `size`."""
    return sum(WIDTHS.get(ch, UNKNOWN) for ch in text) * size / 1000


__all__ = ["UNKNOWN", "WIDTHS", "text_width"]
