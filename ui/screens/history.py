"""History: every game on this table, newest first, with its result."""

from __future__ import annotations

from collections.abc import Callable

from companion.engine.explain import hero_name
from companion.errors import CompanionError
from companion.store.gamelog import GameLog
from ui.i18n import tr
from ui.screens.page import PageScreen

SHOWN = 30


class HistoryScreen(PageScreen):
    def show(self, log: GameLog, resume: Callable[[str], None]) -> None:
        self.clear(tr("History"))
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
