"""The seat page that guides (issue 41, item 4), in Debian's headless Chromium at a phone's
360x780: what its player must do now, the chosen card marked and swapped before the reveal,
"your turn" with a buzz, the turn order, and a wound blocked with the player's own Protection
card on the phone, the touchscreen's very command. Screenshots of each step in four languages:
tests/artifacts/seat/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from companion.app.web.seat_guide import GUIDE_WORDS
from companion.app.web.tracker_view import TRACKER_WORDS
from companion.app.words import i18n
from companion.engine.game import commands as c
from companion.engine.hexgrid import Cell
from tests.conftest import IN_CI, ROOT
from tests.support.browser import chromium, have_chromium, page_state
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from tests.web.test_web_browser import assert_readable

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not have_chromium() and not IN_CI, reason="needs chromium and chromium-driver"
    ),
]
ARTIFACTS = ROOT / "tests" / "artifacts" / "seat"
FIRST, INSTEAD = "roel/prayer-in-the-dark", "roel/werewolves-of-armenia"  # the second: Protection


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    """Three heroes; red encounter tokens drawn at the table (entered), so the test knows the
    monster Roel meets."""
    with WebTable(tmp_path) as t:

        def start() -> None:
            plan = t.service.default_plan()
            plan.physical = {"red"}
            t.service.new_game(seed=5, plan=plan)

        t.call(start)
        t.settle()
        yield t


def do(t: WebTable, command: c.Command) -> None:
    outcome = t.call(lambda: t.service.execute(command))
    assert outcome.refused is None, (command, outcome.refused)
    t.settle()


def seat(driver: webdriver.Chrome) -> dict[str, Any]:
    """The seat page as its player sees it, read from the DOM in one call."""
    found: dict[str, Any] = driver.execute_script(
        """
        const cards = [...document.querySelectorAll('.hand-card')];
        return {
          prompt: document.getElementById('prompt-head').innerText,
          detail: document.getElementById('prompt-detail').innerText,
          yours: document.getElementById('seat-prompt').classList.contains('yours'),
          buzzed: Number(document.body.dataset.buzzed || 0),
          picked: cards.filter((x) => x.classList.contains('picked')).map((x) => x.dataset.card),
          buttons: Object.fromEntries(cards.map((x) => [x.dataset.card,
            (x.querySelector('button.choose') || {}).textContent || ''])),
          order: [...document.querySelectorAll('#order li')].map((x) => ({
            text: x.innerText.replace(/\\s+/g, ' '), active: x.classList.contains('active')})),
          options: [...document.querySelectorAll('#decision-options button')].map(
            (x) => x.textContent),
          decision: !document.getElementById('seat-decision').hidden,
          tops: cards.map((x) => Math.round(x.getBoundingClientRect().top + scrollY)),
        };
        """
    )
    return found


def until(driver: webdriver.Chrome, what: str, check: Any) -> dict[str, Any]:
    wait_for(lambda: bool(check(seat(driver))), 10.0, what)
    return seat(driver)


def tap_card(driver: webdriver.Chrome, card: str) -> None:
    button = driver.find_element(By.CSS_SELECTOR, f'.hand-card[data-card="{card}"] button.choose')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def onto_red_space(t: WebTable, hero: str) -> None:
    """`hero` steps onto a red encounter space from a free space beside it (a Fix first, as a
    table corrects a figure), as a move of the touchscreen."""
    session = t.service.session
    assert session is not None
    fortress = t.call(lambda: session.rules.fortress)
    board = fortress.initial_state()
    taken = {h.at for h in t.call(lambda: session.state.heroes)}
    red = sorted(x for x in fortress.spaces(board) if fortress.feature(x, board) == "red")
    target: Cell = red[0]
    beside = next(
        cell
        for cell, around in fortress.adjacency(board).items()
        if target in around and cell not in taken and not fortress.feature(cell, board)
    )
    do(t, c.SetHeroPosition(hero=hero, to=beside))
    do(t, c.Move(hero=hero, to=target))


def words(language: str) -> dict[str, str]:
    catalog = i18n.catalog(language)
    return {key: catalog.gettext(text) for key, text in (GUIDE_WORDS | TRACKER_WORDS).items()}


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_a_seat_page_guides_its_player_and_takes_the_private_decisions(
    table: WebTable, language: str
) -> None:
    t = table
    said = words(language)
    link = t.call(lambda: t.feed.seat_link("roel"))
    t.settle()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(360, 780, language=language)

    def shot(step: str) -> None:
        assert page_state(driver)["scrollWidth"] <= 360, (language, step)
        assert_readable(driver, f"{language} {step}")
        driver.execute_script("window.scrollTo(0, 0)")  # the page as it opens on the phone
        driver.save_screenshot(str(ARTIFACTS / f"seat-{step}-{language}-360x780.png"))

    try:
        driver.get(str(link))
        # choosing: the round and what to do, every hero still choosing, a button on each card
        first = until(driver, "the prompt", lambda s: s["prompt"] and s["buttons"])
        assert first["yours"] and first["picked"] == []
        assert said["choose_now"].format(round=1) == first["prompt"]
        assert [row["text"].endswith(said["choosing"]) for row in first["order"]] == [True] * 3
        assert not any(row["text"].endswith(said["has_chosen"]) for row in first["order"])
        assert FIRST in first["buttons"] and INSTEAD in first["buttons"]
        shot("choosing")
        tap_card(driver, FIRST)
        chosen = until(driver, "the card marked", lambda s: s["picked"] == [FIRST])
        assert chosen["tops"] == first["tops"]  # nothing moved under the finger
        assert chosen["buttons"][INSTEAD] == said["change"] and not chosen["yours"]
        title = t.service.catalog.card(FIRST).title
        assert said["chosen"].format(card=title) == chosen["prompt"]
        assert chosen["detail"] == said["may_change"]
        assert [row["text"].endswith(said["has_chosen"]) for row in chosen["order"]] == [
            row["text"].startswith("Roel") for row in chosen["order"]
        ]  # who still chooses: the turn order says it
        shot("chosen")
        # swapped before the reveal: the same command as the touchscreen's, for another card
        tap_card(driver, INSTEAD)
        until(driver, "the swap marked", lambda s: s["picked"] == [INSTEAD])
        history = t.call(lambda: t.service.session.history())  # type: ignore[union-attr]
        assert [r.command for r in history[-2:]] == [
            c.ChooseCard(hero="roel", card=FIRST),
            c.ChooseCard(hero="roel", card=INSTEAD),
        ]
        # the others choose on the touchscreen, later in the round: Roel plays first
        state = t.call(lambda: t.service.session.state)  # type: ignore[union-attr]
        for other in state.heroes:
            if other.hero != "roel":
                late = max(
                    (x for x in other.hand if t.service.catalog.is_action_card(x)),
                    key=lambda x: t.service.catalog.card(x).initiative,
                )
                do(t, c.ChooseCard(hero=other.hero, card=late))
        turn = until(driver, "your turn", lambda s: s["yours"])
        assert turn["buzzed"] == 1  # the phone buzzed once, as the turn came
        assert turn["order"][0]["active"] and turn["order"][0]["text"].startswith("Roel")
        shot("your-turn")
        # a lost fight: the wound is blocked on the phone with the card's own Protection
        onto_red_space(t, "roel")
        do(t, c.EnterDraw(hero="roel", token="red-13"))  # strength 5
        do(t, c.Fight(hero="roel", rewards=[]))
        block = until(driver, "the decision", lambda s: s["decision"] and s["options"])
        assert block["yours"] and len(block["options"]) >= 2
        shot("protecting")
        session = t.service.session
        assert session is not None
        legal = t.call(session.legal_commands)
        blocking = c.Protect(hero="roel", sources=["card"])
        assert blocking in legal
        from companion.app.words.command_labels import command_label

        with i18n.translating(i18n.catalog(language)):
            label = command_label(blocking, t.service.catalog, session.rules.fortress)
        offered = driver.find_elements(By.CSS_SELECTOR, "#decision-options button")
        # WebDriver's text turns French's no-break space before a colon into a plain one
        named = [b for b in offered if b.text == label.replace("\xa0", " ")]
        assert named, (label, [b.text for b in offered])
        button = named[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait_for(
            lambda: t.call(lambda: session.history()[-1].command) == blocking,
            10.0,
            "the wound blocked from the phone",
        )
        assert t.call(lambda: session.state.hero("roel").wounds) == []
        after = until(driver, "the decision gone", lambda s: not s["decision"])
        assert not after["yours"] or after["prompt"] != block["prompt"]
        # the next hero's turn: the phone says whom the table waits for
        shot("waiting")
    finally:
        driver.quit()
