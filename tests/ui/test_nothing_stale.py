"""Nothing stale (issue 27, item 9), in the app under Xvfb: Redo brings back the card of the
command it redoes; New game over an unfinished game asks first and starts the wizard from the
last group; Home after a finished game offers no Resume and shows no ring and no figure of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.words import i18n
from tests.ui.test_ui import ARTIFACTS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb


def test_redo_new_game_and_home_leave_nothing_stale(tmp_path: Path) -> None:
    out = ARTIFACTS / "stale"
    report = ui("stale", data=tmp_path, flags=("--out", str(out)))
    assert report.get("error") is None, report.get("error")
    assert report["card_before"] and report["cards"] >= 1
    assert report["card_after_undo"] is False  # undone: its card went with it
    assert report["card_after_redo"] == report["card_before"]  # redone: the same card again
    assert report["banner_after_redo"]  # and its banner
    assert report["asked"] == "confirm"
    assert i18n.tr("Start a new game?") in report["texts"]
    assert any(
        t.startswith("A game is not finished: round ") and "Roel" in t for t in report["texts"]
    )
    assert report["wizard"] == "setup"
    assert [[h, f"L{i + 1}"] for i, h in enumerate(report["wizard_heroes"])] == report["last_seats"]
    assert all(site is not None for site in report["wizard_sites"])  # each on its ladder
    assert report["over_screen"] == "gameover"
    assert report["home"] == "home"
    assert report["home_can_resume"] is False
    assert report["home_heroes"] == [] and report["home_strigoi"] == {}
    assert report["home_rings"] == {}
