"""A curse whose teleport hits a ladder (R-CUR-1 with R-TEL-4): the Strigoi destroys the ladder
and stays, so no room is cursed — but the table must hear it. Found by a new player: a hero
vanished from the board, the Inferno rose, and the card said only that there was no curse."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.app.session.game import GameSession
from companion.app.story.announce import announcements
from companion.app.story.cards import card_of
from companion.app.words import i18n
from companion.app.words.names import ladder_name
from companion.catalog import load_catalog
from companion.engine.game import events as e
from companion.store.gamelog import GameLog
from tests.support.random_games import settled

SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


def curse_on_a_ladder(log: GameLog) -> tuple[GameSession, list[e.Event], object]:
    """Random play (seed 6) up to the command whose curse destroys a ladder."""
    session = GameSession.start(log, 6, SEATS)
    rng = random.Random(6)
    for _ in range(200):
        before = session.state
        events = session.execute(rng.choice(settled(session.state, session.legal_commands())))
        phase3 = any(isinstance(x, e.PhaseChanged) for x in events)
        if phase3 and any(isinstance(x, e.LadderDestroyed) for x in events):
            return session, events, before
    raise AssertionError("no curse hit a ladder in 200 commands")


@pytest.mark.rule("R-CUR-1")
def test_a_curse_that_destroys_a_ladder_says_so_on_its_card(tmp_path: Path) -> None:
    with GameLog(tmp_path / "companion.db") as log:
        session, events, before = curse_on_a_ladder(log)
        told = announcements(session.rules, before, events)  # type: ignore[arg-type]
        ladder = next(x for x in events if isinstance(x, e.LadderDestroyed)).ladder
        cursed = [a for a in told if a.kind in ("curse", "curse_skipped")]
        assert len(cursed) == 1
        item = cursed[0]
        assert item.facts["why"] == "ladder" and item.facts["ladder"] == ladder
        assert item.reasons[0].code == "ladder_destroyed"
        card = card_of(load_catalog(), item, session.rules.fortress)
        assert ladder_name(ladder) in card.words  # the ladder by its hero, in the words spoken
        assert card.todo == (i18n.tr("Take the destroyed ladder off the board."),)
