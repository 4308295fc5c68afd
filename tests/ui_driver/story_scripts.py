"""Scripted sessions for the story of a command (issue 27, items 2-4): every card of a long game
read by touch while the board, banner and rings are checked against it (`story-check N`), and
each kind of card screenshot in every language (`story-shots DIR`). Commands are chosen at
random among the legal ones and go through the app's own command path (app.execute), as a
tapped option does."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from kivy.utils import escape_markup

from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of
from companion.app.words import i18n
from tests.ui_driver.driver import Driver
from tests.ui_driver.touch import tap
from ui.screens.round.strigoi_card import card_scene
from ui.widgets.glyphs import with_arrows

#: the cards the screenshots show, each with what picks it out of a story
SHOTS = (
    "card-attack",
    "card-nobody-seen",
    "card-curse-heroes",
    "card-curse-nobody",
    "card-phase3-skipped",
    "card-fight-won",
    "card-fight-lost",
    "card-monk",
    "card-wound",
)


def category(item: Announcement) -> str | None:
    facts = item.facts
    if item.kind == "strigoi_step":
        if facts.get("hero"):
            return "card-attack"
        return "card-nobody-seen" if facts.get("from") != facts.get("to") else None
    if item.kind == "curse":
        return "card-curse-heroes" if facts.get("heroes") else "card-curse-nobody"
    if item.kind == "curse_skipped" and facts.get("why") == "attacked":
        return "card-phase3-skipped"
    if item.kind == "fight":
        won = facts.get("won")
        if won and not (facts.get("rewards") or facts.get("blood") or facts.get("to_draw")):
            return None  # the won fight shown is one with a reward
        return "card-fight-won" if won else "card-fight-lost"
    if item.kind == "monk":
        return "card-monk"
    if item.kind == "wound":
        return "card-wound"
    return None


def _play(app: Any, rng: random.Random) -> list[Announcement]:
    """One random legal command through the app; the story it told (a new game at the end)."""
    session = app.session
    if session is None or session.state.phase == "over":
        app.new_game(rng.randrange(10**6))
        session = app.session
    before = len(app.announcements)
    app.execute(rng.choice(session.legal_commands()))
    if app.manager.current != "round":
        app.show("round")
    return list(app.announcements[before:])


def _board_shows(app: Any, item: Announcement) -> list[str]:
    """What is wrong with the board while `item`'s card shows (nothing: [])."""
    screen = app.round_screen()
    view = app.game_view
    rules = app.session.rules
    fortress = rules.fortress
    wrong: list[str] = []
    facts = item.facts
    start, to = facts.get("from"), facts.get("to")
    if not (isinstance(start, str) and isinstance(to, str)):
        return ["a Strigoi card without its rooms"]
    for room in (start, to):
        x, y = view.to_pixel(fortress.centre(room))
        if not (view.x <= x <= view.right and view.y <= y <= view.top):
            wrong.append(f"the {room} room is off the board view (zoom {view.zoom_room})")
    figures = view.situation.occupants(fortress)
    if figures.get(fortress.centre(to)) != f"strigoi:{facts.get('strigoi')}":
        wrong.append(f"the Strigoi is not drawn in {to}: {figures.get(fortress.centre(to))}")
    if start != to:
        arrows = [cells for cells, _, head in view.lines if head]
        if not arrows or arrows[0] != [fortress.centre(start), fortress.centre(to)]:
            wrong.append(f"no arrow {start} -> {to}: {arrows}")
    marked = card_scene(rules, item).marked
    if view.marked != marked:
        wrong.append(f"marked {view.marked} instead of {marked}")
    if screen.banner_text != screen.card.words:
        wrong.append(f"banner {screen.banner_text!r} is not the card's {screen.card.words!r}")
    return wrong


def story_check(driver: Driver, commands: int, seed: int) -> None:
    """`commands` random commands; after each, every card read by a touch on its button,
    checking before each touch: the card shown is the story's next item, the banner says its
    words, and for a Strigoi step or a curse the board shows its from and to rooms, the figure
    where the card says, the arrow and the heroes it names."""
    app = driver.app
    rng = random.Random(seed)
    report = driver.report.setdefault(
        "story",
        {"commands": 0, "cards": 0, "kinds": Counter(), "orders": Counter(), "wrong": []},
    )

    told: dict[int, list[Announcement]] = {}  # the newest game's stories by step

    def one() -> None:
        session = app.session
        story = _play(app, rng)
        report["commands"] += 1
        if app.session is not session:
            told.clear()
        if story:
            told[app.session.head] = story
            report["orders"][" ".join(a.kind for a in story)] += 1
            # the items with a card (a line item, a round or whose turn, is said in the banner
            # and the voice, with no card to close: issue 40)
            cards = [a for a in story if not a.line]
            shown: list[str] = []
            driver.steps(*[lambda i=i: read(cards, i, shown) for i in range(len(cards))])

    def read(story: list[Announcement], index: int, shown: list[str]) -> None:
        screen = app.round_screen()
        item = story[index]
        if not screen.card_showing or screen.cards[0] is not item:
            report["wrong"].append(f"card {index} of {[a.kind for a in story]} not shown")
            return
        shown.append(item.kind)
        report["cards"] += 1
        report["kinds"][item.kind] += 1
        if screen.banner_text != screen.card.words:
            report["wrong"].append(f"banner {screen.banner_text!r} != {screen.card.words!r}")
        if item.kind in ("strigoi_step", "curse"):
            report["wrong"] += _board_shows(app, item)
        tap(screen.ids.card_done)
        if index == len(story) - 1 and shown != [a.kind for a in story]:
            report["wrong"].append(f"shown {shown}, told {[a.kind for a in story]}")

    driver.then(lambda: app.new_game(seed))
    for _ in range(commands):
        driver.then(one)
    driver.then(lambda: report.update(no_card_left=not app.round_screen().cards))

    def log() -> None:
        """The game log says each step's results in the words of their cards."""
        app.open_log()
        screen = app.manager.get_screen("log")
        lines = [w.text for w in screen.ids.content.children if hasattr(w, "text")]
        checked = []
        for seq, story in sorted(told.items())[-40:]:
            line = next((x for x in lines if x.startswith(f"{seq}. ")), None)
            if line is None:
                continue  # older than the log's page
            wanted = [with_arrows(escape_markup(card_of(app.catalog, a).headline)) for a in story]
            checked.append(seq)
            if not all(w in line for w in wanted):
                report["wrong"].append(f"log line {line!r} lacks {wanted}")
        report["log_checked"] = len(checked)
        app.show("round")

    driver.then(log)


def story_shots(driver: Driver, seed: int, languages: dict[str, list[str]] | None = None) -> None:
    """Play until each kind of card of SHOTS has come up, then show it in its languages
    (`languages`: kind -> languages; default every language), its rings settled, and
    screenshot it as `<kind>-<lang>`. The search plays random commands through the table
    service (no drawing; the path every front end drives), and the touchscreen takes the game
    up by resuming it, as a restarted kiosk does, before its story's cards are shown."""
    app = driver.app
    rng = random.Random(seed)
    found: dict[str, tuple[list[Announcement], int]] = {}
    report = driver.report.setdefault("shots_of", {})
    searched = report.setdefault("searched", [])

    def search(limit: int = 60_000) -> None:
        service = app.service
        for played in range(limit):
            session = service.session
            if session is None or session.state.phase == "over":
                app.new_game(rng.randrange(10**6))
                session = service.session
                assert session is not None
            outcome = service.execute(rng.choice(session.legal_commands()))
            assert outcome.refused is None, outcome.refused
            story = list(outcome.announced)
            for index, item in enumerate(story):
                kind = category(item)
                if kind is not None and kind not in found:
                    found[kind] = (story, index)
                    searched.append(played + 1)
                    app.resume_game(session.game_id)
                    app.show("round")
                    queue_shots(kind, story, index)
                    return
        raise AssertionError(f"only {sorted(found)} came up")

    def queue_shots(kind: str, story: list[Announcement], index: int) -> None:
        steps = []
        for lang in (languages or {}).get(kind, i18n.LANGUAGES):
            steps += [
                lambda lang=lang: show(story, index, lang),
                lambda: driver.wait_until("the rings", lambda: rings_settled(app), frames=600),
                lambda kind=kind, lang=lang: shoot(kind, lang, story[index]),
            ]
        steps.append(lambda: app.switch_language("en"))
        if len(found) < len(SHOTS):
            steps.append(search)
        driver.steps(*steps)

    def show(story: list[Announcement], index: int, lang: str) -> None:
        app.switch_language(lang)
        screen = app.round_screen()
        screen.command_done()
        for item in story:
            screen.announced(item, app.service.announcer.words(item))
        for _ in range(index):
            screen.card_done()

    def shoot(kind: str, lang: str, item: Announcement) -> None:
        screen = app.round_screen()
        assert screen.card_showing and screen.cards[0] is item, (kind, lang)
        headline = screen.ids.card_headline
        report[f"{kind}-{lang}"] = {
            "headline_px": headline.font_size,
            "banner_is_card": screen.banner_text == screen.card.words,
            "figures": [w.text for w in reversed(screen.ids.card_figures.children) if w.text],
            "todo": [w.text for w in reversed(screen.ids.card_todo.children) if w.text],
            "done": screen.ids.card_done.text,
            "title": screen.card.title,
        }
        driver.shoot(f"{kind}-{lang}")

    driver.then(lambda: app.new_game(seed))
    driver.then(search)


def rings_settled(app: Any) -> bool:
    """The rings follow the card shown: the table watch has sent its picture, every node has
    acknowledged it, and the board draws what the nodes show (the app's poll, 4 times a
    second)."""
    service = app.service
    return (
        service.watch.wait_idle(0)
        and app.hardware.bridge.wait_acked(0, online_only=True)
        and dict(app.fortress_view.leds) == service.ring_colours()
        and dict(app.game_view.segments) == service.ring_segments()
    )
