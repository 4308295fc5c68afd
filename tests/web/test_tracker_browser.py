"""The turn tracker on the phones (issue 40, item 4), in Debian's headless Chromium at 360x780:
the table view and a seat page show, in the sticky header, the heroes in this round's order
(seat order before the reveal, R-RND-1; initiative order after it, R-RND-2) and the Strigoi,
with the same one marked as the table service's tracker value, through a game played into
round 3; the boxes never change size (nothing moves under a finger). Screenshots:
tests/artifacts/web/tracker-*.png."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver

from companion.app.session.setup_plan import SetupPlan
from companion.app.session.turn_tracker import Stage, TurnTracker, turn_tracker
from companion.engine.game.kinds import Phase
from companion.engine.situation import HEROES
from tests.conftest import IN_CI, ROOT
from tests.support.browser import chromium, have_chromium
from tests.support.random_games import settled
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from tests.web.test_web_browser import assert_readable

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not have_chromium() and not IN_CI, reason="needs chromium and chromium-driver"
    ),
]
ARTIFACTS = ROOT / "tests" / "artifacts" / "web"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    """Five heroes, the most the game seats: six boxes in the phone's one row."""
    with WebTable(tmp_path) as t:

        def start() -> None:
            fortress = t.service.fortress
            plan = SetupPlan.from_fortress(fortress, list(HEROES))
            ladders = sorted(fortress.ladders.values(), key=lambda x: x.id)
            for i, ladder in enumerate(ladders[: len(plan.seats)]):
                plan.place_ladder(i, ladder.room, ladder.side)
            t.service.new_game(seed=8, plan=plan)

        t.call(start)
        t.settle()
        yield t


def shown(driver: webdriver.Chrome) -> dict[str, Any]:
    """The tracker as the page shows it, read from the DOM in one call."""
    found: dict[str, Any] = driver.execute_script(
        """
        const rows = [...document.querySelectorAll('#tracker li')];
        return {
          version: Number(document.body.dataset.version || 0),
          ids: rows.map((x) => x.dataset.id),
          marked: rows.filter((x) => x.classList.contains('marked')).map((x) => x.dataset.id),
          chosen: rows.filter((x) => x.querySelector('.tick')).map((x) => x.dataset.id),
          counts: rows.map((x) => (x.querySelector('.tracked-counts') || {}).textContent || ''),
          boxes: rows.map((x) => { const b = x.getBoundingClientRect();
            return [Math.round(b.width), Math.round(b.height)]; }),
          widths: rows.map((x) => [x.clientWidth, ...[...x.children].map((c) => c.scrollWidth)]),
          cut: rows.filter((x) => [...x.children].some((c) => c.scrollWidth > x.clientWidth))
            .map((x) => x.dataset.id),
          top: Math.round(document.getElementById('tracker').getBoundingClientRect().top),
          sticky: getComputedStyle(document.querySelector('header')).position,
          header: document.querySelector('header').getBoundingClientRect().height,
        };
        """
    )
    return found


def expected(tracker: TurnTracker) -> dict[str, Any]:
    return {
        "ids": [r.hero for r in tracker.rows] + ["strigoi"],
        "marked": [tracker.marked] if tracker.marked else [],
        "chosen": [r.hero for r in tracker.rows if r.stage == Stage.CHOSEN],
        "counts": [f"{r.wounds}\u2665 {r.rewards}\u2605" for r in tracker.rows] + [""],
    }


def test_the_phones_show_the_tracker_the_table_has(table: WebTable) -> None:
    t = table
    link = t.call(lambda: t.feed.seat_link("roel"))
    t.settle()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = {"table": chromium(360, 780), "seat": chromium(360, 780)}
    rng = random.Random(8)
    marks: list[str] = []
    shots: set[str] = set()
    try:
        pages["table"].get(t.address)
        pages["seat"].get(str(link))
        while True:
            session = t.service.session
            assert session is not None
            state = t.call(lambda s=session: s.state)
            if state.round >= 3 or state.phase == Phase.OVER:
                break
            tracker = t.call(lambda s=session: turn_tracker(s.rules, s.state))
            want = expected(tracker)
            for name, driver in pages.items():
                wait_for(
                    lambda d=driver, w=want: {k: shown(d)[k] for k in w} == w,
                    10.0,
                    f"the {name} page's tracker at {want}",
                )
                seen = shown(driver)
                assert seen["sticky"] == "sticky"  # in sight however far the page scrolls
                assert set(map(tuple, seen["boxes"])) == {(52, 52)}, seen["boxes"]
                assert seen["header"] <= 72, seen["header"]  # the phone's sticky part, as before
                assert seen["cut"] == [], seen["widths"]  # every mark and count whole in its box
            if tracker.marked and (not marks or marks[-1] != tracker.marked):
                marks.append(tracker.marked)
            key = "strigoi" if tracker.strigoi_turn else str(state.phase)
            if key not in shots:  # the choice, a hero's turn, the Strigoi's: once each
                shots.add(key)
                for name, driver in pages.items():
                    assert_readable(driver, f"tracker {name} {key}")
                    driver.save_screenshot(str(ARTIFACTS / f"tracker-{name}-{key}-360x780.png"))
            command = rng.choice(settled(state, t.call(session.legal_commands)))
            outcome = t.call(lambda x=command: t.service.execute(x))
            assert outcome.refused is None, (command, outcome.refused)
            t.settle()
    finally:
        for driver in pages.values():
            driver.quit()
    # the mark went from hero to hero and to the Strigoi, on both pages alike
    assert "strigoi" in marks and len(set(marks) - {"strigoi"}) >= 2, marks
