"""The headless table's voice (serve): each menu item one sentence, a hero on his own ladder
named once (R-TEL-4), and fewer wounds taken than dealt said with the reason (R-WND-2)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of
from companion.app.story.spoken_menu import by_room, items, read
from companion.app.words import i18n
from companion.app.words.command_labels import command_label
from companion.app.words.names import ladder_name, set_ladder_owners
from companion.app.words.status import render
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.explain import Reason, hero_name
from companion.engine.game import commands as c
from companion.engine.game.context import GameRules
from companion.engine.game.legal import legal_commands
from tests.support.random_games import played

RULES = GameRules(load_board_file(), load_catalog())
SEATS = [("roel", "L1"), ("falk_maria", "L2"), ("matthew", "L3"), ("attila", "L4")]
HEROES = [hero_name(hero) for hero, _ in SEATS]
LANGUAGES = sorted(i18n.LANGUAGES)
#: the menus of three random games, one per state (the items as `serve` reads them)
MENUS = [legal_commands(RULES, before) for before, *_ in played(RULES, SEATS, 3)]
STORIES = [a for *_, story in played(RULES, SEATS, 12) for a in story]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    set_ladder_owners(SEATS)
    yield request.param
    i18n.set_language("en")
    set_ladder_owners([])


def _said(commands: list[c.Command]) -> Iterator[str]:
    listed = items(commands, simulated=True)
    opened = [
        x
        for item in listed
        if not isinstance(item, c.Command | type(None))
        for x in (by_room(item, RULES.fortress) if hasattr(item, "commands") else ())
    ]
    for group in (listed, opened):
        for n, item in enumerate(group, 1):
            yield read(
                item,
                n,
                len(group),
                lambda cmd: command_label(cmd, RULES.catalog, RULES.fortress, spoken=True),
            )


def test_every_spoken_menu_item_is_one_sentence(language: str) -> None:
    """Never "1 von 2: Attila: stehen bleiben": at most one colon, no hero's name before one."""
    said = [line for commands in MENUS for line in _said(commands)]
    assert len(said) > 200
    glued = re.compile("(?:" + "|".join(map(re.escape, HEROES)) + r")\s?:")
    for line in said:
        assert line.count(":") <= 1, (language, line)
        assert not glued.search(line), (language, line)
        assert line.rstrip().endswith("."), (language, line)


def test_a_hero_on_his_own_ladder_is_named_once_with_a_possessive(language: str) -> None:
    """R-TEL-4: "Roel was on their own ladder", never "Roel was on Roel's ladder"."""
    own = render(Reason("R-TEL-4", "ladder_occupied", {"hero": "roel", "ladder": "L1"}))
    assert ladder_name("L1") not in own, own
    assert re.search(r"\bown\b|eigenen|propre|propria", own), own
    other = render(Reason("R-TEL-4", "ladder_occupied", {"hero": "roel", "ladder": "L2"}))
    assert ladder_name("L2") in other, other  # someone else's ladder keeps its owner's name
    for text in (own, other):  # where the hero goes: another ladder or stairs (R-TEL-4)
        assert not re.search(r"other stairs|anderen Treppen|autres escaliers|altre scale", text)


def test_no_sentence_names_a_hero_as_the_owner_of_his_own_ladder(language: str) -> None:
    """Over random games: no reason of a story says "X … of X" ("Leiter von Roel" after Roel)."""
    texts = [render(r) for a in STORIES for r in a.reasons]
    assert texts
    for hero, ladder in SEATS:
        for text in texts:
            if ladder_name(ladder) in text:
                rest = text.replace(ladder_name(ladder), "")
                assert hero_name(hero) not in rest, (language, text)


def test_fewer_wounds_than_dealt_say_why(language: str) -> None:
    """R-WND-2: a hero holds at most 3 wounds: "Attila takes 2 wounds: a hero holds at most 3."."""
    tokens = ["wound-1", "wound-1"]
    capped = Announcement(
        "wound", "", facts={"hero": "attila", "tokens": tokens, "defeated": True, "due": 3}
    )
    full = Announcement(
        "wound", "", facts={"hero": "attila", "tokens": tokens, "defeated": True, "due": 2}
    )
    capped_line = card_of(RULES.catalog, capped).headline
    full_line = card_of(RULES.catalog, full).headline
    assert "3" in capped_line and "2" in capped_line and capped_line != full_line
    assert "3" not in full_line, full_line


def test_random_games_meet_a_capped_wound_and_say_why() -> None:
    """The engine's own announcements carry what was dealt, so the cap is said in real play."""
    capped = [
        a
        for a in STORIES
        if a.kind == "wound"
        and a.facts.get("defeated")
        and int(str(a.facts.get("due", 0))) > len(a.facts["tokens"])  # type: ignore[arg-type]
    ]
    assert capped, "no game met a capped wound"
    assert all("at most 3" in card_of(RULES.catalog, a).headline for a in capped)


#: one correction of each kind (Fix, Resync, a transcript's set-up), as the voice may read them
CORRECTIONS: list[c.Command] = [
    c.SetHeroPosition(hero="attila", to=RULES.fortress.centre("NE")),
    c.SetStrigoiPosition(strigoi="master", room="NW"),
    c.SetRotation(room="SE", rotation=2),
    c.SetBlood(altar=1, inferno=2),
    c.AddWound(hero="attila", token=RULES.catalog.wound_tokens[0].id),
    c.AddWound(hero="attila"),
    c.RemoveWound(hero="roel", token=RULES.catalog.wound_tokens[0].id),
    c.SetCards(hero="matthew"),
    c.SetFightMarkers(cells=[]),
    c.SetStrigoiWounds(strigoi="apprentice", wounds=2),
    c.SetStrigoiWounds(strigoi="apprentice", wounds=1),
    c.SetLadders(ladders=["L1"]),
    c.SetFaceUp(stack="red", token=None),
]


def test_a_spoken_correction_is_one_whole_sentence(language: str) -> None:
    """Not "Choice 1 of 2: Fix: Attila stands on …" (two colons, a label read aloud): each
    correction the voice reads is a sentence of its own, its count with a real plural."""
    said = [
        read(command, 1, 2, lambda cmd: command_label(cmd, RULES.catalog, RULES.fortress, True))
        for command in CORRECTIONS
    ]
    assert len(set(said)) == len(said), (language, said)
    for command, line in zip(CORRECTIONS, said, strict=True):
        assert line.count(":") <= 1 and line.rstrip().endswith("."), (language, line)
        assert "{" not in line and "(s)" not in line, (language, line)
        hero = getattr(command, "hero", None)
        assert not hero or hero_name(hero) in line, (language, line)
    shown = command_label(CORRECTIONS[9], RULES.catalog, RULES.fortress)  # on the screen
    assert shown.count(":") <= 1 and "2" in shown, (language, shown)
