"""One story per command, told the same everywhere (issue 40, items 1, 2 and the log of item 6):
whole random games played through the table service, in four languages, with undo and redo;
for every command the banner and card, the voice (espeak-ng's stand-in on PATH), the game log
(the touchscreen's fold and the phones'), the MQTT game events (a real Mosquitto) and the phone
view carry the same story items in the same order, and no item is spoken twice."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from companion.app.service import TableService, Unheard
from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of, spoken
from companion.app.story.game_log import outcome, stories
from companion.app.web.feed import Snapshot, WebFeed, WebLoad
from companion.app.words import i18n
from firmware_bridge.mqtt_link import GamePublisher
from tests.support.random_games import settled
from tests.support.standins.hardware_helpers import Listener, wait_for
from tests.support.standins.voice_standin import StandIn

pytestmark = pytest.mark.slow  # a real broker (as tests/app/test_feed.py); about 2 s a language

#: commands per game: long enough for round 2's Strigoi, a curse and fights, kept short
STEPS = 70


class Phones:
    """The phones' server, as the feed sees it: the last views pushed."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        self.last: Snapshot | None = None

    def start(self) -> str:
        return "http://127.0.0.1:1/"

    def stop(self) -> None: ...

    def push(self, snapshot: Snapshot, then: Callable[[], None] | None = None) -> None:
        self.last = snapshot
        if then is not None:
            then()

    def load(self) -> WebLoad:
        return WebLoad(0, 0, 0)

    def current_address(self) -> str:
        return self.current

    current = ""

    def followed_tokens(self) -> frozenset[str]:
        return frozenset()

    def languages(self) -> frozenset[str]:
        return self.following

    #: the languages phones follow (the game's: the test reads its views)
    following: frozenset[str] = frozenset()
    want = None

    def view(self, language: str) -> dict[str, Any]:
        assert self.last is not None
        found: dict[str, Any] = json.loads(self.last.tables[language])
        return found


class Screen(Unheard):
    """The touchscreen: every story item bannered with its words, its card made of it."""

    def __init__(self) -> None:
        self.banners: list[tuple[Announcement, str]] = []

    def announced(self, announcement: Announcement, words: str) -> None:
        self.banners.append((announcement, words))


def _announcements(live: Listener | None) -> list[Any]:
    assert live is not None
    return [m for m in live.on("armata/t1/game/event") if m.get("type") == "announcement"]


def _heard(live: Listener | None, count: int) -> bool:
    return len(_announcements(live)) >= count


def _in_order(text: str, parts: list[str]) -> bool:
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


@pytest.mark.parametrize(("language", "seed"), [("en", 3), ("de", 5), ("it", 8), ("fr", 13)])
def test_every_channel_tells_each_commands_story_the_same(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    broker_factory: Callable[[dict[str, list[str]]], Any],
    language: str,
    seed: int,
) -> None:
    standin = StandIn(tmp_path)
    for key, value in standin.env().items():
        monkeypatch.setenv(key, value)
    broker = broker_factory({"t1": []})
    publisher = GamePublisher("127.0.0.1", broker.port, "t1", *broker.app("t1"))
    posted: list[Callable[[], None]] = []
    phones = Phones()
    phones.following = frozenset({language})
    screen = Screen()
    made: list[TableService] = []
    web = WebFeed(phones, posted.append, lambda command: made[0].execute(command))
    service = TableService(tmp_path / "data", posted.append, publisher=publisher, web=web)
    made.append(service)
    live: Listener | None = None
    try:
        service.start(screen)
        wait_for(publisher.connected.is_set, 10, "the broker")
        live = Listener(broker, "t1", "armata/t1/game/event", 1)
        service.set_language(language)
        session = service.new_game(seed)
        english = i18n.catalog("en")
        rng = random.Random(seed)
        heard = 0
        published = 0
        kinds_seen: set[str] = set()
        undos = redos = 0
        last = ""

        def drain() -> None:
            while posted:
                posted.pop(0)()

        drain()
        for _ in range(STEPS):
            if session.state.phase == "over":
                break
            shown = len(screen.banners)
            roll = rng.random()
            if last == "undo":  # a redo is tried only right after an undo (a command ends it)
                roll = 0.1 + roll / 5
            action = "command"
            if roll < 0.1 and session.head > 1:
                action = "undo"
                assert service.undo()
                undos += 1
            elif roll < 0.2 and session.command_at(session.head + 1) is not None:
                action = "redo"
                assert service.redo()
                redos += 1
            else:
                command = rng.choice(settled(session.state, session.legal_commands()))
                done = service.execute(command)
                assert done.refused is None, done.refused
            drain()
            last = action
            told = screen.banners[shown:]
            story = [a for a, _words in told]
            kinds = [a.kind for a in story]
            kinds_seen.update(kinds)
            fortress = session.rules.fortress
            # the banner says each item's card, in the players' words
            words = [card_of(service.catalog, a, fortress).words for a in story]
            assert [w for _a, w in told] == words
            for item, said_first in zip(story, words, strict=True):
                if item.kind in ("strigoi_step", "curse", "curse_skipped", "collapse"):
                    # the voice and the banner open with the card's headline, never another tale
                    assert said_first.startswith(card_of(service.catalog, item, fortress).headline)
            if action == "undo":
                assert kinds == ["undone"]
            # the voice: every item once, in order, nothing else, nothing twice
            assert service.speaker.idle(20)
            calls = standin.calls()
            said = [call.text for call in calls[heard:]]
            heard = len(calls)
            assert said == words, (action, kinds)
            assert len(set(said)) == len(said), said
            # MQTT: the same items in order, their words in English, each with its place
            if story:
                wanted = published + len(story)
                wait_for(partial(_heard, live, wanted), 10, "the announcements")
            messages = _announcements(live)
            sent = messages[published:]
            published = len(messages)
            assert [m["kind"] for m in sent] == kinds
            assert [m["item"] for m in sent] == list(range(len(story)))
            with i18n.translating(english):
                assert [m["headline"] for m in sent] == [
                    spoken(service.catalog, a, fortress) for a in story
                ]
            # the phone view: the same items as cards, in order, each opening with its words
            view = phones.view(language)
            cards = view["cards"]
            assert [card["kind"] for card in cards] == kinds
            for card, item in zip(cards, story, strict=True):
                made_card = card_of(service.catalog, item, fortress)
                assert card["lines"][0] in (made_card.headline, made_card.words)
            if action == "undo" or not story:
                continue
            # the game log: the phones' newest line and the touchscreen's fold tell every item
            newest = view["log"][0]["text"]
            assert all(w in newest for w in words), (newest, words)
            # (an item that only repeats the step, "Roel frees the monk.", is said once)
            assert _in_order(newest, [w for w in words if not newest.startswith(w)])
            [record] = [r for r in session.history() if r.seq == session.head]
            folded = stories(session, [record])[record.seq]
            assert [a.kind for a in folded] == kinds
            assert _in_order(
                " ".join(outcome(service.catalog, session.events_of(record), folded)),
                words,
            )
        assert undos and redos, (undos, redos)
        assert {"strigoi_step", "order", "turn", "round"} <= kinds_seen, kinds_seen
    finally:
        if live is not None:
            live.stop()
        service.close()
        i18n.set_language("en")  # the players' language is the process's: the next test's English
