"""How the last update ended, as the table reads it once (issue 42): the update's `record`
and the table's `take_update_news`, each outcome in the players' language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.session.update_news import UpdateNews, take_update_news
from companion.app.words import i18n
from companion.product.releases import Installed
from companion.product.update import LAST_UPDATE, Outcome, record


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(
    ("outcome", "kind", "title", "first"),
    [
        (Outcome("1.4.0", True, False, None), "updated", "Aktualisiert auf 1.4.0",
         "Der Tisch läuft jetzt mit Version 1.4.0 (vorher: 1.3.2)."),
        (Outcome("1.4.0", True, True, None, "restarted 5 times"), "rolled_back",
         "Die Aktualisierung auf 1.4.0 hat nicht geklappt",
         "Version 1.4.0 ist nicht gestartet; der Tisch ist von selbst zu 1.3.2 zurückgekehrt."),
        (Outcome("1.4.0", False, False, None, "failed its check"), "refused",
         "Die Aktualisierung auf 1.4.0 hat nicht geklappt",
         "Version 1.4.0 hat ihre Prüfung an einer Kopie der Spiele nicht bestanden;"),
    ],
)  # fmt: skip
def test_each_outcome_is_said_once_in_the_players_language(
    tmp_path: Path, german: None, outcome: Outcome, kind: str, title: str, first: str
) -> None:
    installed = Installed(tmp_path)
    assert take_update_news(installed.data) is None  # no update yet
    record(installed, "1.3.2", outcome)
    news = take_update_news(installed.data)
    assert news == UpdateNews(kind, "1.4.0", "1.3.2")
    assert news.title() == title
    assert news.lines()[0].startswith(first)
    assert len(news.lines()) == (1 if kind == "updated" else 2)  # a failure: send a report
    assert take_update_news(installed.data) is None  # said once
    assert not (installed.data / LAST_UPDATE).exists()


def test_an_unreadable_record_says_nothing(tmp_path: Path) -> None:
    path = tmp_path / LAST_UPDATE
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert take_update_news(tmp_path) is None
