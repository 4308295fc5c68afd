"""The setup wizard and the Settings as a group meets them (issue 29), under Xvfb in four
languages at the panel's two sizes: five players, a room tapped on the board, three ladders
chosen by touch, the stacks and the languages as check boxes. Every screenshot passes the
layout checks; what the screen says is checked for ids and rule codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_ui import ARTIFACTS, LANGS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb in a subprocess

#: never in running text: rule codes, tile and platform ids, compass ids, bracketed boxes
JARGON = re.compile(r"R-[A-Z]{3}|\bt\d\b|\bp\d\b|\b(?:NE|NW|SE|SW)\b|\[ *x? *\]|room-|\(R-")
ROOM_WORDS = {  # the tapped room (NW) by name (a heading), its platform's Strigoi mark and books
    "en": ("North-west room", "Strigoi mark, books A B C D E F", "2 red spaces, 1 grey space"),
    "de": ("Raum Nordwest", "Strigoi-Zeichen, Bücher A B C D E F", "2 rote Felder, 1 graues Feld"),
    "it": ("Stanza nord-ovest", "segno degli Strigoi, libri A B C D E F", "2 caselle rosse"),
    "fr": ("Chambre nord-ouest", "marque des Strigoï, livres A B C D E F", "2 cases rouges"),
}


@pytest.mark.rule("R-SET", "R-SET-2")
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_setup_wizard_in_the_players_words(tmp_path: Path, size: str) -> None:
    out = ARTIFACTS / f"wizard-{size}"
    report = ui("wizard", str(out), data=tmp_path, size=size, timeout_s=400)
    assert "error" not in report, report.get("error")
    screens = report["screens"]
    runs = [*LANGS, "de-large", "fr-large"]  # the longest languages at large text too
    assert len(screens) == 6 * len(runs)
    shown = {name: entry.pop("texts") for name, entry in screens.items()}
    for name, entry in screens.items():
        assert Path(entry.pop("png")).stat().st_size > 5_000, name
        texts = shown[name]
        assert all(found == [] for found in entry.values()), (name, entry)
        jargon = [t for t in texts if JARGON.search(t)]
        assert jargon == [], (name, jargon)
    for run in runs:
        lang = run.split("-")[0]
        facts = report["facts"][run]
        assert facts["add_disabled"] is True  # a sixth player: disabled, the reason beside it
        full = shown[f"wizard-players-full-{run}"]
        assert len([t for t in full if t[:1].isdigit() and ". " in t]) == 5
        assert facts["zoomed"] == "NW" and facts["space_px"] >= 34  # books readable
        room = " ".join(shown[f"wizard-room-{run}"]).replace("\u00a0", " ")
        assert all(words in room for words in ROOM_WORDS[lang]), (lang, room)
        turned = " ".join(shown[f"wizard-room-turned-{run}"]).replace("\u00a0", " ")
        assert turned != room  # Turn platform: book A now faces another way
        assert facts["ladders"] == {"L1": "roel", "L2": "matthew", "L3": "attila"}
        assert facts["physical"] != []  # a tap on a check row ticks it
        # the text sizes and the languages (round boxes), then the voice (a square one)
        rows = facts["languages"]
        endonyms = {"English", "Deutsch", "Italiano", "Français"}
        languages = [row for row in rows if row[2] and row[0] in endonyms]
        sizes = [row for row in rows if row[2] and row[0] not in endonyms]
        assert len(languages) == 4 and [row[1] for row in languages].count(True) == 1
        assert len(sizes) == 2 and [row[1] for row in sizes].count(True) == 1
        assert all(height >= 48 for *_, height in rows) and len(rows) == 7
