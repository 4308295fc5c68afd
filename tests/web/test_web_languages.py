"""What the feed builds, and when (issue 41, item 6: the phones' part of a command kept short).
The table's views only in the languages phones follow (a language nobody reads costs the table
nothing): a page that opens in another language asks for it and gets the whole view in its
words from the next build; a language whose last page closed is no longer built, and its next
page gets the whole view again, never a patch of a version it never had. A board the names
have no kept ground on is sent at once, its names placed right after. Through the real server
and its streams."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.web.board import place_labels
from companion.app.web.views import PAGE_WORDS, names_view
from companion.app.words import i18n
from companion.engine.game import commands as c
from companion.engine.game.context import situation
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from tests.web.test_web import events, merged


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    with WebTable(tmp_path) as t:  # as on the table: no language built for nobody
        t.call(lambda: t.service.new_game(seed=11))
        t.settle()
        yield t


def play(t: WebTable) -> None:
    """One command, the first legal one, its views built."""
    t.call(lambda: t.service.execute(t.service.session.legal_commands()[0]))  # type: ignore[union-attr]
    t.settle()


def following(t: WebTable, count: int) -> bool:
    return t.server.load().following == count


def test_with_no_phone_no_language_is_built(table: WebTable) -> None:
    play(table)
    assert table.feed.built == frozenset()
    assert table.server.snapshot.tables == {}


def test_a_page_gets_its_language_and_only_that_one_is_built(table: WebTable) -> None:
    with urllib.request.urlopen(table.address + "events?lang=fr", timeout=limit(10)) as stream:
        (_, _boot), (kind, data) = events(stream, 2)
        assert kind == "view"
        shown: dict[str, Any] = json.loads(data)
        french = {key: i18n.catalog("fr").gettext(text) for key, text in PAGE_WORDS.items()}
        assert shown["words"] == french and french != PAGE_WORDS  # in the page's words
        assert table.feed.built == frozenset({"fr"})
        play(table)  # followed now: the next command comes as a patch of that view
        kind, data = events(stream, 1)[0]
        assert kind == "patch" and json.loads(data)["base"] == shown["version"]
        assert set(table.server.snapshot.tables) == {"fr"}


def test_a_language_no_longer_followed_comes_back_whole(table: WebTable) -> None:
    with urllib.request.urlopen(table.address + "events?lang=de", timeout=limit(10)) as stream:
        events(stream, 2)
    wait_for(lambda: following(table, 0), 10, "the German page closed")
    play(table)
    assert "de" not in table.feed.built
    last = table.server.snapshot.version
    play(table)
    with urllib.request.urlopen(table.address + "events?lang=de", timeout=limit(10)) as stream:
        (_, _boot), (kind, data) = events(stream, 2)
        assert kind == "view"  # the whole view: the page never had a version to patch
        assert json.loads(data)["version"] > last
        assert json.loads(data) == json.loads(table.server.snapshot.tables["de"])


def test_a_turned_platform_comes_at_once_and_its_names_right_after(table: WebTable) -> None:
    """A platform turned is a new ground for the names (web_board.kept_ground): the move is
    sent at once with the names where they stood, then a patch with the names placed on the
    turned board (here they keep their places: that patch changes nothing else), exactly where
    a placing made at once puts them."""
    with urllib.request.urlopen(table.address + "events?lang=it", timeout=limit(10)) as stream:
        (_, _boot), (kind, data) = events(stream, 2)
        shown: dict[str, Any] = json.loads(data)
        turn = c.SetRotation(room="NW", rotation=(rotation(table, "NW") + 3) % 6)
        assert table.call(lambda: table.service.execute(turn)).refused is None
        table.settle()
        # the names' build is posted once the server's loop has written the move: wait for it
        wait_for(lambda: table.feed.version > table.feed.settling > 0, 30, "the names placed")
        table.settle()
        last = table.server.snapshot.version
        patches: list[dict[str, Any]] = []
        while not patches or patches[-1]["version"] < last:
            kind, data = events(stream, 1)[0]
            assert kind == "patch" and len(patches) < 2, (kind, len(patches))
            patches.append(json.loads(data))
        assert len(patches) == 2, "the names came with the move: the move waited for them"
        first, second = patches
        assert "labels" not in first  # the names as they stood: unchanged, not sent again
        assert first["board"]["rooms"] != shown["board"]["rooms"]  # its books turned with it
        shown = merged(merged(shown, first), second)
        session = table.service.session
        assert session is not None
        with i18n.translating(i18n.catalog("it")):
            names = names_view(session.rules.fortress, situation(session.rules, session.state))
        alone = place_labels(session.rules.fortress, shown["board"], names, keep=False)
        assert shown["labels"] == json.loads(json.dumps(alone))


def rotation(t: WebTable, room: str) -> int:
    session = t.service.session
    assert session is not None
    return t.call(lambda: session.state.rotations.get(room, 0))
