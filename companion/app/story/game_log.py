"""The game log's lines: each step in plain words and what it led to (the Strigoi token drawn,
its story's items in the words of their cards, the game's end), for the touchscreen's Game log
screen and the phones' page alike (issue 41, item 5: one log).

`StepResults` keeps what each step led to, so the phones' page, rebuilt after every command,
folds the game from its start only when the history changed under it (a resume, an undo),
never per command."""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence

from companion.app.session.game import GameSession
from companion.app.story.announce import announcements
from companion.app.story.announcement import Announcement
from companion.app.story.cards import card_of
from companion.app.words.i18n import capital_first, tr, translating
from companion.app.words.names import full_stop
from companion.engine.components import Catalog
from companion.engine.game import events as e
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from companion.store.gamelog import CommandRecord


def outcome(
    catalog: Catalog, events: Sequence[e.Event], story: Sequence[Announcement] | None = None
) -> list[str]:
    """What a step led to, as sentences (none when nothing notable happened): the story's
    items in the words the banner showed and the voice said (a Strigoi step led by its token,
    where it went or why not, whom it hit; a ladder destroyed; wounds and blocks), then the
    game's end."""
    said: list[str] = []
    if story is not None:
        said += [card_of(catalog, item).words for item in story]
    for event in events:
        match event:
            case e.GameOver(winner=winner):
                said.append(tr("the heroes won") if winner == "heroes" else tr("the Strigoi won"))
    return [full_stop(capital_first(words)) for words in said]


def log_line(step: str, results: Sequence[str]) -> str:
    """A step and what it led to, as sentences; a result that only repeats the step ("Roel
    frees the monk." twice) is left out."""
    said = [step] + [r for r in results if _bare(r) != _bare(step)]
    return " ".join(said)


def _bare(sentence: str) -> str:
    return sentence.rstrip(".!?…").casefold()


def stories(
    session: GameSession, records: Sequence[CommandRecord]
) -> dict[int, list[Announcement]]:
    """Each command's story, as the round screen told it: every command's events folded from
    the game's first state, each story made on the state just before it."""
    events = session.log.events(session.game_id)
    started = next((x for x in events if isinstance(x, e.GameStarted)), None)
    if started is None:
        return {}
    state = clone(started.state)
    told: dict[int, list[Announcement]] = {}
    shown = {r.seq for r in records}
    for record in session.history():
        happened = session.events_of(record)
        if record.seq in shown:
            told[record.seq] = announcements(session.rules, state, happened, record.command)
        for event in happened:
            apply(state, event)
    return told


#: a step as stored: its game, its number and its first event (a step done again after an
#: undo is another step under the same number)
StepKey = tuple[str, int, int]


class StepResults:
    """What each step led to, kept by step as sentences in each language (never the
    announcements themselves: each holds the game state its card showed, megabytes a game)."""

    def __init__(self, catalogs: Mapping[str, gettext.NullTranslations]) -> None:
        self.catalogs = catalogs
        self._said: dict[StepKey, dict[str, list[str]]] = {}

    @staticmethod
    def key(session: GameSession, record: CommandRecord) -> StepKey:
        return (session.game_id, record.seq, record.first_event)

    def _render(
        self, catalog: Catalog, events: Sequence[e.Event], story: Sequence[Announcement]
    ) -> dict[str, list[str]]:
        said = {}
        for language, words in self.catalogs.items():
            with translating(words):
                said[language] = outcome(catalog, events, story)
        return said

    def told(
        self,
        session: GameSession,
        record: CommandRecord,
        events: Sequence[e.Event],
        story: Sequence[Announcement],
    ) -> None:
        """A step just played, with the events and story its command gave."""
        self._said[self.key(session, record)] = self._render(session.rules.catalog, events, story)

    def lines(
        self, session: GameSession, records: Sequence[CommandRecord], language: str
    ) -> dict[int, list[str]]:
        """What each record led to, in `language`; the missing ones folded once from the
        start."""
        missing = [r for r in records if self.key(session, r) not in self._said]
        if missing:
            folded = stories(session, missing)
            for record in missing:
                self._said[self.key(session, record)] = self._render(
                    session.rules.catalog, session.events_of(record), folded.get(record.seq, [])
                )
        return {r.seq: self._said[self.key(session, r)].get(language, []) for r in records}

    def forget(self, game_id: str | None) -> None:
        """Another game (or none): the steps of the others are not needed any more."""
        self._said = {k: v for k, v in self._said.items() if k[0] == game_id}


__all__ = ["StepKey", "StepResults", "log_line", "outcome", "stories"]
