"""History: every game on this table, newest first, with its result."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.i18n import tr
from companion.engine.explain import hero_name
from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from ui.screens.page import PageScreen

SHOWN = 30


class HistoryScreen(PageScreen):
    def show(
        self,
        log: GameLog,
        resume: Callable[[str], None],
        export: Callable[[str], str] | None = None,
        exported: str | None = None,
    ) -> None:
        """`export(game id)` writes a game as a transcript and returns where (docs/transcripts.md);
        `exported`: the path of the last one written, shown on top."""
        self.clear(tr("History"))
        if exported is not None:
            self.text(tr("Saved for a bug report: {path}").format(path=exported))
        records = list(reversed(log.games()))[:SHOWN]
        if not records:
            self.text(tr("No games yet."))
        for record in records:
            heroes = ", ".join(hero_name(hero) for hero, _ladder in record.seats)
            try:
                state = log.state(record.id)
                rounds = state.round
            except CompanionError:  # a damaged game is listed, not fatal
                rounds = 0
            if record.status == "playing":
                result = tr("unfinished")
            elif record.winner == "heroes":
                result = tr("the heroes won")
            else:
                result = tr("the Strigoi won")
            line = tr("{date} · {heroes} · round {round} · {result}").format(
                date=record.created_at[:16].replace("T", " "),
                heroes=heroes,
                round=rounds,
                result=result,
            )
            if record.status == "playing":
                self.button(line, lambda game_id=record.id: resume(game_id))
            else:
                self.text(line)
            if export is not None:
                self.button(
                    tr("Export this game as a transcript"),
                    lambda game_id=record.id: self.show(log, resume, export, export(game_id)),
                )
