"""Issue 40, items 3 and 8, on the touchscreen under Xvfb (tests/ui_driver/placement_scripts.py):
the Strigoi placement of round 2 as a card of its own, in English and German, at the smallest
landscape and the portrait display, screenshots in tests/artifacts/<size>/placement-<lang>.png
with every layout check; and the embedded default restarted mid-game, resumed by touch, with
no "table differs" and no amber ring."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.devices.leds import ALERT_COLOUR
from companion.app.story.announce import STRIGOI_COLOUR
from tests.ui.test_ui import ARTIFACTS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb

#: what the placement card says, by language (the rooms filled in from the game)
PUT = {
    "en": (
        "Put the Master on the centre of the {master}.",
        "Put the Apprentice on the centre of the {apprentice}.",
    ),
    "de": (
        "Der Meister wird in die Mitte vom {master} gestellt.",
        "Der Lehrling wird in die Mitte vom {apprentice} gestellt.",
    ),
}
ROOMS = {
    "en": {"SE": "south-east room", "NW": "north-west room", "NE": "north-east room",
           "SW": "south-west room", "E": "east room", "W": "west room"},
    "de": {"SE": "Raum Südost", "NW": "Raum Nordwest", "NE": "Raum Nordost",
           "SW": "Raum Südwest", "E": "Raum Ost", "W": "Raum West"},
}  # fmt: skip
CHECKS = (
    "overflow",
    "outside_box",
    "small_targets",
    "small_texts",
    "internal_ids",
    "cramped_lists",
    "cut_rows",
    "cut_texts",
    "broken_words",
    "board_overlaps",
)


@pytest.mark.rule("R-SET-3")
@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_the_strigoi_placement_card_by_touch(tmp_path: Path, size: str) -> None:
    out = ARTIFACTS / size
    report = ui("placement", str(out), "en", "de", data=tmp_path, size=size, timeout_s=400)
    assert report.get("error") is None, report.get("error")
    placement = report["placement"]
    for lang in ("en", "de"):
        shown = placement[lang]
        entered = shown["entered"]
        assert set(entered) == {"master", "apprentice"}
        rooms = {name: ROOMS[lang][room] for name, room in entered.items()}
        assert shown["todo"] == [line.format(**rooms) for line in PUT[lang]]
        assert shown["title"] == {"en": "Round 2", "de": "Runde 2"}[lang]
        assert shown["banner_is_card"]
        # the board draws them where the card puts them; the table must still place them
        assert shown["board_strigoi"] == entered
        assert shown["to_place"] == sorted([room, name] for name, room in entered.items())
        # lit: each room in its Strigoi's colour (the rings as the nodes show them)
        assert shown["rings"] == {room: STRIGOI_COLOUR[name] for name, room in entered.items()}
        screen = report["screens"][f"placement-{lang}"]
        assert Path(screen["png"]).stat().st_size > 5_000
        for check in CHECKS:
            assert screen[check] == [], (size, lang, check, screen[check])
    # the card's button is the players' "done by hand": the to-dos close, no card is left
    assert placement["button"] == "Strigoi placed"
    assert placement["after_touch"] == {"cards": 0, "actions": []}


def test_a_restarted_embedded_default_finds_its_table_as_the_game_left_it(
    tmp_path: Path,
) -> None:
    """Item 8: the simulated board (the embedded default) restarted in round 3: resumed by
    touch, it raises no difference nobody made (before: both Strigoi "missing" from their
    centres, the strip over the next card's banner, their rings amber)."""
    played = ui("play", "70", data=tmp_path)["game"]
    assert played["round"] >= 2 and played["phase"] != "over", played
    report = ui("resumed-table", data=tmp_path)
    assert report.get("error") is None, report.get("error")
    assert report["game"]["id"] == played["id"] and report["game"]["screen"] == "round"
    table = report["resumed_table"]
    assert table["strigoi"], table  # figures a fresh simulated table does not hold
    assert table["alert_text"] == "" and table["differs_shown"] == []
    assert table["alerts"] == [] and table["differences"] == [] and table["told_alerts"] == 0
    assert ALERT_COLOUR not in table["rings"].values(), table["rings"]
    assert ALERT_COLOUR not in table["board_rings"].values(), table["board_rings"]
    for name, room in table["strigoi"].items():  # each glows where it stands
        assert table["rings"][room] == STRIGOI_COLOUR[name]
