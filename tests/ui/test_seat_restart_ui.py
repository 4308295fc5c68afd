"""Issue 41, item 3, on the touchscreen app as the kiosk runs it: a phone's seat page opened
while the app runs waits while the app is down (a power cut, an update) and shows its hand again
once Resume is pressed on the restarted app, on the same link: no rescan, no reload. (The same
for `serve`: tests/web/test_serve_web.py.)"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI
from tests.support.browser import chromium, have_chromium, page_state
from tests.support.standins.hardware_helpers import free_port, wait_for
from tests.ui.test_ui import ui

pytestmark = [
    pytest.mark.slow,  # the app under Xvfb, twice
    pytest.mark.skipif(not have_chromium() and not IN_CI, reason="needs chromium"),
]


def running(script: Callable[[], dict[str, Any]], report: dict[str, Any]) -> threading.Thread:
    """The app with its script on a thread of the test: the test looks at the phone meanwhile."""

    def run() -> None:
        try:
            report.update(script())
        except AssertionError as error:  # the app failed: said by the test's last check
            report["error"] = str(error)[-2000:]

    app = threading.Thread(target=run)
    app.start()
    return app


def test_a_seat_page_comes_back_after_the_app_restarts(tmp_path: Path) -> None:
    port, data = free_port(), tmp_path / "data"
    flags = ("--web", f"127.0.0.1:{port}")  # the kiosk's port is fixed too
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    first: dict[str, Any] = {}
    second: dict[str, Any] = {}
    seat = chromium(360, 780)
    try:
        app = running(
            lambda: ui("seat-link", "matthew", str(first_dir), data=data, flags=flags), first
        )
        try:
            wait_for((first_dir / "link").exists, 90.0, "the seat link")
            link = (first_dir / "link").read_text()
            assert link.startswith(f"http://127.0.0.1:{port}/seat/")
            seat.get(link)
            wait_for(lambda: page_state(seat)["hands"] > 0, 30.0, "Matthew's hand on the phone")
            hand = page_state(seat)["hands"]
        finally:
            (first_dir / "looked").touch()  # the app ends: the table is switched off
            app.join()
        wait_for(lambda: not page_state(seat)["live"], 30.0, "the page knows it is behind")

        looked = second_dir / "looked"
        app = running(lambda: ui("resume-until", str(looked), data=data, flags=flags), second)
        try:
            wait_for(lambda: page_state(seat)["live"], 90.0, "the page live again")
            wait_for(lambda: page_state(seat)["hands"] == hand, 30.0, "Matthew's hand again")
            shown = page_state(seat)
        finally:
            looked.touch()
            app.join()
        assert "Matthew" in shown["text"] and seat.current_url == link  # no rescan, no reload
    finally:
        seat.quit()
    assert "error" not in first and "error" not in second, (first, second)
    assert first["game"]["id"] == second["game"]["id"] and second["game"]["screen"] == "round"
