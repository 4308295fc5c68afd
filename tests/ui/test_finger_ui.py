"""Issue 40, item 5 under Xvfb (tests/ui_driver/finger_scripts.py): nothing moves under a
finger. One app start on the simulated board, the touch guard's real hold, the phones' server
on (a hero's panel offers "My phone"); screenshots in tests/artifacts/800x480/finger-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.test_ui import ARTIFACTS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb

CHECKS = ("overflow", "small_targets", "small_texts", "internal_ids", "broken_words")


def test_nothing_moves_under_a_finger(tmp_path: Path) -> None:
    out = ARTIFACTS / "800x480"
    flags = ("--web", "127.0.0.1:0")
    report = ui("finger", str(out), data=tmp_path, flags=flags, timeout_s=300)
    assert report.get("error") is None, report.get("error")
    seen = report["finger"]
    places = seen["places"]
    start = places["start"]
    # the strip lies over the banner's band at the top: the options, Undo and More… stay put
    assert seen["strip"][1] + seen["strip"][3] == pytest.approx(480, abs=1)  # at the very top
    for key in ("strip", "closed"):
        assert places[key] == start, (key, places[key], start)
    # More… and Undo keep their places however the game and the visits went
    for key in ("chosen", "back from the rules", "end"):
        assert places[key]["more"] == start["more"], (key, places[key]["more"])
        assert places[key]["undo"][:3] == start["undo"][:3], key  # its top may follow its words
    # aimed at the second row while the strip showed, landed 150 ms after it closed: that row's
    # hero, and the question, never the hand
    aimed = seen["aimed"]
    assert aimed["hero"] is not None
    assert aimed["opened"] == [aimed["hero"], False], aimed
    # Roel's row, then a tap where Show had come 150 ms later: held back, the hand closed
    double = seen["double"]
    assert double["show"] == "Show" and double["ignored"] == 1, double
    assert double["after"] == ["roel", False], double
    assert "Only Roel looks — show?" in seen["gate_texts"], seen["gate_texts"]
    assert seen["shown"] == ["roel", True]  # Show tapped once the panel stood still
    assert seen["chip"] == ["roel", False]  # a later visit asks again
    # "My phone" in one place at every visit of the panel
    phones = seen["phone"]
    assert len(phones) == 3 and phones[0] is not None and phones.count(phones[0]) == 3, phones
    # the slow Undo: real work queued before it; the sign on Undo while both ran, drawn (a frame
    # shown since the tap), Undo where it was; gone after, the step undone
    busy = seen["busy"]
    assert busy["at_tap"]["sign_on_undo"], busy
    for moment in ("during_work", "during_command"):
        during = busy[moment]
        assert during["sign_on_undo"] and during["frames_since_tap"] >= 1, (moment, busy)
        assert during["rect"] == busy["before"], (moment, busy)
    assert busy["during_work"]["reads"] >= 1 and busy["took_s"] >= 0.3
    assert not busy["after"]["sign_on_undo"] and busy["after"]["head"] == busy["head"] - 1
    for name, screen in report["screens"].items():
        assert Path(screen["png"]).stat().st_size > 5_000, name
        for check in CHECKS:
            assert screen[check] == [], (name, check, screen[check])
