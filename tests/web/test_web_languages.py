"""The feed builds the table's views only in the languages phones follow (issue 41, item 6: a
language nobody reads costs the table nothing). A page that opens in another language asks for
it and gets the whole view in its words from the next build; a language whose last page closed
is no longer built, and its next page gets the whole view again, never a patch of a version it
never had. Through the real server and its streams."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.web.views import PAGE_WORDS
from companion.app.words import i18n
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from tests.web.test_web import events


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
