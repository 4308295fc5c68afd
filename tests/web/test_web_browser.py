"""The table view in a real browser (issue 30): Debian's headless Chromium through Selenium and
chromium-driver, against the table service and its web server on a loopback port.

A scripted game is followed command by command: the figures, the platforms' turns and books,
the round and the Strigoi's card on the page equal the engine's. A seat link shows its hero's
hand and makes the secret choice; the page without a token never shows a hand; a page that
lost its server says so and catches up when a new one comes; a revoked link is refused.
Screenshots at 360x780 and 1024x768 in the four languages: tests/artifacts/web/."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from companion.app.words import i18n
from companion.app.words.names import room_name, strigoi_label
from companion.engine.game import commands as c
from companion.engine.game.state import GameState
from tests.conftest import IN_CI, ROOT
from tests.support.browser import chromium, have_chromium, page_state, size
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable

pytestmark = [
    pytest.mark.slow,
    # ./setup.sh test installs both; in CI (.ci/run) a missing browser fails, never skips
    pytest.mark.skipif(
        not have_chromium() and not IN_CI, reason="needs chromium and chromium-driver"
    ),
]
ARTIFACTS = ROOT / "tests" / "artifacts" / "web"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    driver = chromium(1024, 768)
    yield driver
    driver.quit()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    with WebTable(tmp_path, always=("en",)) as t:  # read before a page follows it
        t.call(lambda: t.service.new_game(seed=5))
        t.settle()
        yield t


def engine_figures(t: WebTable) -> dict[str, str]:
    """Where the engine says each figure stands (heroes on their space, a Strigoi on its
    room's centre), as the page's `data-cell`."""
    state: GameState = t.call(lambda: t.service.session.state)  # type: ignore[union-attr]
    fortress = t.call(lambda: t.service.session.rules.fortress)  # type: ignore[union-attr]
    found = {h.hero: f"{h.at[0]},{h.at[1]}" for h in state.heroes if h.at is not None}
    for name, room in state.strigoi.items():
        q, r = fortress.centre(room)
        found[name] = f"{q},{r}"
    return found


def caught_up(t: WebTable, driver: webdriver.Chrome) -> dict[str, object]:
    """The page once it shows the feed's newest view."""
    version = t.server.snapshot.version
    wait_for(lambda: page_state(driver)["version"] >= version, 5.0, f"the page at view {version}")
    return page_state(driver)


def test_the_page_follows_a_scripted_game(table: WebTable, browser: webdriver.Chrome) -> None:
    browser.get(table.address)
    rng = random.Random(5)
    steps = 0
    strigoi_cards = 0
    state: GameState = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    while state.round < 4 and steps < 120:
        outcome = table.call(
            lambda: table.service.execute(rng.choice(table.service.session.legal_commands()))  # type: ignore[union-attr]
        )
        assert outcome.refused is None
        table.settle()
        shown = caught_up(table, browser)
        state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
        assert shown["live"] and not shown["behind"]
        assert shown["round"] == state.round
        assert shown["figures"] == engine_figures(table), f"step {steps}"
        fortress = table.service.fortress
        rooms = shown["rooms"]
        assert isinstance(rooms, dict)
        for room in state.collapsed:
            assert rooms[room]["collapsed"] and rooms[room]["books"] == ""
        for room, turn in state.rotations.items():
            if room not in state.collapsed:
                assert rooms[room]["rotation"] == turn
                assert rooms[room]["books"] == "".join(fortress.platforms[room].books)
        steps_made = [a for a in outcome.announced if a.kind == "strigoi_step"]
        if steps_made:  # the Strigoi's card in large type: who, and the room it lands in
            strigoi_cards += 1
            facts = steps_made[0].facts
            cards = shown["cards"]
            assert isinstance(cards, list)
            assert cards[0]["title"] == strigoi_label(str(facts["strigoi"]))
            if facts["to"] != facts["from"]:  # a jump names the room it lands in
                assert room_name(str(facts["to"])) in " ".join(cards[0]["lines"])
        steps += 1
    assert state.round == 4 and strigoi_cards >= 3, (state.round, strigoi_cards)


def test_the_page_speaks_the_browsers_language_and_switches(table: WebTable) -> None:
    driver = chromium(360, 780, language="de-DE")
    try:
        driver.get(table.address)
        shown = caught_up(table, driver)
        german = i18n.catalog("de").gettext("Round {round} · {phase}").split("{")[0]
        assert shown["status"].startswith(german.strip()), shown["status"]
        driver.find_element(By.CSS_SELECTOR, '.langs button[data-lang="it"]').click()
        italian = i18n.catalog("it").gettext("Round {round} · {phase}").split("{")[0].strip()
        wait_for(lambda: page_state(driver)["status"].startswith(italian), 5.0, "Italian")
    finally:
        driver.quit()


def test_a_seat_link_shows_its_hand_and_makes_the_choice(
    table: WebTable, browser: webdriver.Chrome
) -> None:
    link = table.call(lambda: table.feed.seat_link("roel"))
    assert link is not None
    table.settle()
    public = chromium(360, 780)
    try:
        public.get(table.address)
        browser.get(link)
        held = table.call(lambda: table.service.session.state.hero("roel").hand)  # type: ignore[union-attr]
        catalog = table.service.catalog
        hand = sorted(held, key=lambda x: catalog.card(x).initiative)  # as the panel lists them
        titles = [catalog.card(x).title for x in hand]
        wait_for(lambda: page_state(browser)["hands"] == len(hand), 5.0, "the hand")
        shown = [x.text for x in browser.find_elements(By.CSS_SELECTOR, ".hand-card h4")]
        assert shown == titles
        facts = browser.find_elements(By.CSS_SELECTOR, ".hand-card .facts")[1].text
        card = table.service.catalog.card(hand[1])
        assert f"initiative {card.initiative}" in facts and f"movement {card.movement}" in facts
        browser.find_elements(By.CSS_SELECTOR, ".hand-card button.choose")[1].click()
        wait_for(
            lambda: (
                table.call(lambda: table.service.session.state.hero("roel").chosen)  # type: ignore[union-attr]
                == hand[1]
            ),
            5.0,
            "the choice made on the phone",
        )
        last = table.call(lambda: table.service.session.history()[-1].command)  # type: ignore[union-attr]
        assert last == c.ChooseCard(hero="roel", card=hand[1])  # the touchscreen's command
        table.settle()
        wait_for(lambda: titles[1] in page_state(browser)["text"], 5.0, "the chosen card shown")
        # the chosen card marked, the others still offered until the reveal (R-RND-1)
        picked = browser.find_elements(By.CSS_SELECTOR, ".hand-card.picked h4")
        assert [x.text for x in picked] == [titles[1]]
        offered = browser.find_elements(By.CSS_SELECTOR, ".hand-card:not(.picked) button.choose")
        assert len(offered) == len(hand) - 1
        # the page without a token: no hand, no chosen card, anywhere on it
        seen = caught_up(table, public)
        assert seen["hands"] == 0 and not seen["seatShown"]
        assert not any(title in seen["text"] for title in titles)
        source = public.page_source
        assert not any(title in source for title in titles)
    finally:
        public.quit()


def test_a_revoked_link_is_refused_on_the_phone(table: WebTable, browser: webdriver.Chrome) -> None:
    link = table.call(lambda: table.feed.seat_link("attila"))
    assert link is not None
    table.settle()
    browser.get(link)
    wait_for(lambda: page_state(browser)["hands"] > 0, 5.0, "the hand")
    table.call(lambda: table.feed.revoke("attila"))
    table.settle()
    revoked = i18n.catalog("en").gettext("This phone link was revoked on the touchscreen.")
    wait_for(lambda: revoked in page_state(browser)["text"], 5.0, "the revocation said")
    assert page_state(browser)["hands"] == 0 or not page_state(browser)["seatShown"]
    browser.get(link)  # opened again: refused at once, with the reason
    wait_for(lambda: revoked in page_state(browser)["text"], 5.0, "refused when reopened")
    assert not page_state(browser)["seatShown"]


def test_the_page_catches_up_after_the_server_restarts(
    table: WebTable, browser: webdriver.Chrome
) -> None:
    browser.get(table.address)
    before = caught_up(table, browser)
    assert before["live"]
    table.stop_server()
    wait_for(lambda: page_state(browser)["behind"], 8.0, "the page saying it is behind")
    assert browser.find_element(By.ID, "behind").is_displayed()
    rng = random.Random(2)
    for _ in range(4):  # the game goes on while the server is away
        table.call(
            lambda: table.service.execute(rng.choice(table.service.session.legal_commands()))  # type: ignore[union-attr]
        )
    table.settle()
    assert page_state(browser)["behind"]  # never the old view shown as current
    table.start_server()
    after = caught_up(table, browser)
    wait_for(lambda: not page_state(browser)["behind"], 8.0, "live again")
    after = page_state(browser)
    assert after["live"] and after["figures"] == engine_figures(table)
    assert after["version"] == table.server.snapshot.version


def assert_readable(driver: webdriver.Chrome, where: str) -> None:
    """As on the touchscreen: body text 16 px and up, every button 48 px and up, no internal id
    (card, token or room ids, coordinates) in any text a player reads."""
    from tests.ui_driver.checks import INTERNAL_ID

    small, targets = driver.execute_script(
        """
        const small = [], targets = [];
        for (const node of document.querySelectorAll('main *, header *, nav *')) {
          if (node.closest('svg') || !node.offsetParent) continue;
          const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
          const size = parseFloat(getComputedStyle(node).fontSize);
          if (own && size < 16) small.push(`${node.textContent.trim().slice(0, 30)}: ${size}px`);
          if (node.matches('button, summary')) {
            const box = node.getBoundingClientRect();
            if (box.width < 48 || box.height < 48) targets.push(node.textContent.trim());
          }
        }
        return [small, targets];
        """
    )
    assert small == [] and targets == [], (where, small, targets)
    text = page_state(driver)["text"]
    found = INTERNAL_ID.search(text)
    assert found is None, (where, found.group(0) if found else "")


def _play_until_a_strigoi_card(t: WebTable) -> None:
    """On to a Strigoi's card shown while a hero is on the move (the threat map has spaces)."""
    rng = random.Random(5)
    for _ in range(300):
        outcome = t.call(
            lambda: t.service.execute(rng.choice(t.service.session.legal_commands()))  # type: ignore[union-attr]
        )
        t.settle()
        board = json.loads(t.server.snapshot.tables["en"])["board"]
        if any(a.kind == "strigoi_step" for a in outcome.announced) and any(
            "t" in space for space in board["spaces"]
        ):
            return
    raise AssertionError("no Strigoi step while a hero was on the move")


def _why_opens_each_rule_apart(driver: webdriver.Chrome, language: str) -> None:
    """A card's Why?: plain sentences with no rule id; a tap on a line unfolds its rule."""
    why = driver.find_element(By.CSS_SELECTOR, "#cards details.why > summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", why)
    why.click()
    lines = driver.find_elements(By.CSS_SELECTOR, "#cards details.why-rule > summary")
    assert lines, "no Why? line opens a rule"
    assert not any(re.search(r"\bR-[A-Z]{3}", x.text) for x in lines), [x.text for x in lines]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", lines[0])
    lines[0].click()
    rule = driver.find_element(By.CSS_SELECTOR, "#cards details.why-rule[open] .rule")
    assert rule.is_displayed() and len(rule.text) > 10, rule.text
    driver.save_screenshot(str(ARTIFACTS / f"why-{language}-360x780.png"))


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_screenshots_in_every_language(table: WebTable, language: str) -> None:
    """The table mid-game (a Strigoi's card, the threat map on) and a seat, at a phone's
    360x780 and a tablet's 1024x768: nothing wider than the screen."""
    _play_until_a_strigoi_card(table)
    link = table.call(lambda: table.feed.seat_link("matthew"))
    table.settle()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(360, 780, language=language)
    try:
        for width, height in ((360, 780), (1024, 768)):
            size(driver, width, height)
            driver.get(table.address)
            driver.execute_script("localStorage.setItem('threat', 'on')")
            driver.get(table.address)
            shown = caught_up(table, driver)
            assert shown["live"] and shown["cards"]
            assert shown["scrollWidth"] <= width, f"{language} {width}px overflows"
            assert_readable(driver, f"{language} {width}px")
            # the header stays on screen while the page scrolls: on a phone at most two short lines
            header = driver.execute_script(
                "return document.querySelector('header').getBoundingClientRect().height"
            )
            assert width > 480 or header <= 72, (language, width, header)  # was 130
            assert driver.find_elements(By.CSS_SELECTOR, "#board .t-risky, #board .t-deadly")
            driver.save_screenshot(str(ARTIFACTS / f"table-{language}-{width}x{height}.png"))
            if width == 360:  # a room tapped: zoomed to it, every label readable
                room = driver.find_element(By.CSS_SELECTOR, '#board g.room[data-room="NE"] .hit')
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", room)
                room.click()
                assert driver.find_element(By.ID, "whole").is_displayed()
                board = driver.find_element(By.ID, "board")
                board.screenshot(str(ARTIFACTS / f"room-{language}-{width}x{height}.png"))
                driver.find_element(By.ID, "whole").click()
                assert not driver.find_element(By.ID, "whole").is_displayed()
                _why_opens_each_rule_apart(driver, language)
        size(driver, 360, 780)
        driver.get(str(link))
        wait_for(lambda: page_state(driver)["seatShown"], 5.0, "the seat")
        assert page_state(driver)["scrollWidth"] <= 360
        assert_readable(driver, f"{language} seat")
        driver.save_screenshot(str(ARTIFACTS / f"seat-{language}-360x780.png"))
    finally:
        driver.quit()


def test_a_page_opening_says_it_connects_never_that_the_connection_is_lost(
    table: WebTable, browser: webdriver.Chrome
) -> None:
    """Found by a new player: a phone opening the page first saw the red "Connection lost"
    banner over an empty page. Until the first answer it says it is connecting, quietly."""
    browser.get(table.address + "?slow")
    first = browser.execute_script(
        "return [document.body.className, getComputedStyle(document.getElementById('behind'))"
        ".display, document.getElementById('live').textContent]"
    )
    assert "behind" not in first[0] and first[1] == "none", first
    caught_up(table, browser)
    assert not browser.find_element(By.ID, "behind").is_displayed()


def test_the_hero_list_says_the_wounds_as_players_do(table: WebTable) -> None:
    """A phone's hero list (issue 29 playtest: "Wounds: wound without Stealth, shock"): how
    many wounds with a real plural, then what lasts until healed, whole sentences, in the
    page's language; the list at 360x780 is kept (tests/artifacts/web/heroes-*.png)."""
    hero = table.wound_first_hero(("wound-no-stealth", "wound-shock-1"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(360, 780, language="fr")
    try:
        driver.get(table.address)
        caught_up(table, driver)
        item = driver.find_element(By.CSS_SELECTOR, f'#heroes li[data-hero="{hero}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
        text = item.text
        assert "a 2 blessures." in text and "ne peut pas utiliser" in text.lower(), text
        assert "blessure sans" not in text and "choc" not in text, text  # no token names
        assert page_state(driver)["scrollWidth"] <= 360
        assert_readable(driver, "fr 360px heroes")
        driver.find_element(By.ID, "heroes").screenshot(str(ARTIFACTS / "heroes-fr-360x780.png"))
    finally:
        driver.quit()
