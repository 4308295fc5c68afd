"""The whole fortress as a group sees it across the table (issue 29, item 3), under Xvfb: five
heroes on neighbouring spaces at the top of one room, in four languages at every display size, each
language at normal or large text turning with the size (support/sweeps.py); no two figures and no
two room names cover each other (the board overlap check on every screenshot). Then turns played by
touch: whenever the game waits for a hero, the board shows that hero's room (or the one room of the
spaces to choose), after undo too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import sweeps
from tests.ui.test_ui import ARTIFACTS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb in a subprocess

#: the round panel's lists and buttons at large text with five heroes are the panel's own
#: layout (issue 29, item 4), not the board's; at normal text they are checked here too
PANEL_CHECKS = ("small_targets", "cramped_lists", "broken_words")


#: what the board still does wrong, each named in docs/limits.md ("The crowded board"): since the
#: banner keeps its band (nothing moves under a finger), the board at 800x480 with large text
#: is shorter and the centre room's German name finds no place that reads as its own
KNOWN = {("800x480", "board-crowded-de-large", "board: the name of C reads as SE's")}


@pytest.mark.parametrize("size", sweeps.PANEL_SIZES)
def test_a_crowded_fortress_in_every_language_and_the_board_following_the_turn(
    tmp_path: Path, size: str
) -> None:
    """Also: no room name, legend or button covers a space (the board overlap check counts a
    space covered, issue 29), the zoomed room's name is a heading (20 px and up at normal
    text) and the book letters are 16 px and up, whole fortress or zoomed."""
    out = ARTIFACTS / f"board-{size}"
    upright = {"KIVY_METRICS_DENSITY": "1.5"} if size == "720x1280" else {}
    runs = sweeps.text_runs(size)  # each language, at normal or large text (support/sweeps.py)
    report = ui("board", str(out), *runs, data=tmp_path, size=size, timeout_s=600, env=upright)
    assert report.get("error") is None, report.get("error")
    screens = report["screens"]
    crowded = {f"board-{kind}-{run}" for kind in ("crowded", "zoomed") for run in runs}
    assert crowded <= set(screens)
    for name, entry in screens.items():
        assert Path(entry["png"]).stat().st_size > 5_000, name
        overlaps = [o for o in entry["board_overlaps"] if (size, name, o) not in KNOWN]
        assert overlaps == [], (size, name, entry["board_overlaps"])
        for check in ("overflow", "small_texts", "internal_ids"):
            assert entry[check] == [], (size, name, check, entry[check])
        if "large" not in name:
            for check in PANEL_CHECKS:
                assert entry[check] == [], (size, name, check, entry[check])
    for books in report["books"]:  # the whole fortress: every platform's six letters
        assert len(books) >= 36 and min(px for _, px in books) >= 16, books
    for name, entry in screens.items():
        if name.startswith("board-zoomed-"):
            assert entry["heading_px"] >= (25 if "large" in name else 20), (name, entry)
            assert entry["books"] and min(px for _, px in entry["books"]) >= 16, (name, entry)
    follow = report["follow"]
    assert len(follow) >= 8 and {f["hero"] for f in follow} >= {"roel", "matthew", "attila"}
    for seen in follow:
        one = seen["rooms_to_choose"] if len(seen["rooms_to_choose"]) == 1 else None
        wanted = one[0] if one else seen["room"]
        assert seen["shown"] == wanted, seen
    undone = report["after_undo"]
    todo = undone["todo_rooms"]  # an undone Strigoi step leaves the table to put back first
    if todo:
        assert undone["shown"] == (todo[0] if len(todo) == 1 else None), undone
    else:
        assert undone["shown"] in (undone["room"], *undone["rooms_to_choose"]), undone
