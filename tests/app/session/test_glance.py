"""The touchscreen's first frame reads the language, text size and whether a game can be resumed
straight from the log (session/glance.py), before the service opens it: the values must be
the ones the service's Settings and GameLog give a frame later, and a missing or unreadable log
gives the defaults without an error (the service then says what is wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.session.game import GameSession
from companion.app.session.glance import LOG_FILE, Glance, glance
from companion.app.session.text_size import percent
from companion.store.gamelog import GameLog
from companion.store.settings import Settings

SEATS = [("roel", "L1"), ("matthew", "L2")]


def service_view(data: Path) -> Glance:
    """The same three values as the service reads them."""
    with GameLog(data / LOG_FILE) as log:
        settings = Settings(log.db)
        return Glance(
            str(settings.get("language")),
            percent(settings.get("text_size")),
            log.last_unfinished() is not None,
        )


def test_no_log_yet_gives_the_defaults(tmp_path: Path) -> None:
    assert glance(tmp_path) == Glance("en", 100, False)
    assert not (tmp_path / LOG_FILE).exists()  # looking creates nothing


@pytest.mark.parametrize(
    ("language", "text_size", "shown", "playing"),
    [  # the words of the versions before the steps ("large") mean what they meant then
        ("de", "large", 125, True),
        ("fr", "normal", 100, False),
        ("it", 150, 150, False),
        ("en", 175, 175, True),
    ],
)
def test_the_first_frame_sees_what_the_service_sees(
    tmp_path: Path, language: str, text_size: str | int, shown: int, playing: bool
) -> None:
    with GameLog(tmp_path / LOG_FILE) as log:
        settings = Settings(log.db)
        settings.set("language", language)
        settings.set("text_size", text_size)
        if playing:
            session = GameSession.start(log, 3, SEATS)
            session.execute(session.legal_commands()[0])
    seen = glance(tmp_path)
    assert seen == Glance(language, shown, playing)
    assert seen == service_view(tmp_path)


def test_a_fresh_log_without_settings_agrees_with_the_service(tmp_path: Path) -> None:
    GameLog(tmp_path / LOG_FILE).close()
    assert glance(tmp_path) == service_view(tmp_path) == Glance("en", 100, False)


def test_unknown_values_fall_back_to_the_defaults(tmp_path: Path) -> None:
    with GameLog(tmp_path / LOG_FILE) as log:
        Settings(log.db).set("language", "xx")
        Settings(log.db).set("text_size", "huge")
        log.db.execute("update settings set value = '{not json' where key = 'text_size'")
        log.db.conn.commit()
    assert glance(tmp_path) == Glance("en", 100, False)


def test_an_unreadable_log_gives_the_defaults_and_stays_as_it_was(tmp_path: Path) -> None:
    garbage = b"not a database at all" * 100
    (tmp_path / LOG_FILE).write_bytes(garbage)
    assert glance(tmp_path) == Glance()
    assert (tmp_path / LOG_FILE).read_bytes() == garbage  # read-only: nothing written
