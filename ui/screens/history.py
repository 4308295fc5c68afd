"""History: every game on this table, newest first, with its result."""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.app.service import GameSummary
from companion.app.words.i18n import tr
from companion.engine.explain import hero_name
from companion.errors import NotExportable
from ui.screens.page import PageScreen

log = logging.getLogger(__name__)

#: characters a line of a shown path holds at most (a 7" screen's page at large text)
PATH_LINE = 28


def path_lines(path: str, width: int = PATH_LINE) -> str:
    """A file's path broken into lines after its slashes, so a long folder wraps where a player
    reads it naturally instead of Kivy cutting a folder's name in two (one name longer than a
    line keeps its own line)."""
    parts = [f"{part}/" for part in path.split("/")[:-1]] + [path.rsplit("/", 1)[-1]]
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(part) <= width:
            lines[-1] += part
        else:
            lines.append(part)
    return "\n".join(line for line in lines if line)


class HistoryScreen(PageScreen):
    def show(
        self,
        games: Callable[[], list[GameSummary]],
        resume: Callable[[str], None],
        export: Callable[[str], str] | None = None,
        exported: str | None = None,
        problem: str | None = None,
    ) -> None:
        """`games()` lists the stored games, newest first; `export(game id)` writes one as a
        transcript and returns where (docs/transcripts.md); `exported`: the path of the last
        one written, shown on top."""
        self.clear(tr("History"))
        if problem is not None:
            self.text(problem)
        if exported is not None:
            self.text(tr("Saved for a bug report: {path}").format(path="\n" + path_lines(exported)))
        summaries = games()
        if not summaries:
            self.text(tr("No games yet."))
        for game in summaries:
            heroes = ", ".join(hero_name(hero) for hero in game.heroes)
            if game.status == "playing":
                result = tr("unfinished")
            elif game.winner == "heroes":
                result = tr("the heroes won")
            else:
                result = tr("the Strigoi won")
            line = tr("{date} · {heroes} · round {round} · {result}").format(
                date=game.created_at[:16].replace("T", " "),
                heroes=heroes,
                round=game.rounds,
                result=result,
            )
            if game.status == "playing":
                self.button(line, lambda game_id=game.game_id: resume(game_id))
            else:
                self.text(line)
            if export is not None:
                self.button(
                    tr("Export this game as a transcript"),
                    lambda game_id=game.game_id: self._export(games, resume, export, game_id),
                )

    def _export(
        self,
        games: Callable[[], list[GameSummary]],
        resume: Callable[[str], None],
        export: Callable[[str], str],
        game_id: str,
    ) -> None:
        """Export one game; a game this version cannot replay is said on the page (the app
        goes on: an old game in the log never ends it)."""
        try:
            where = export(game_id)
        except NotExportable as problem:
            log.warning("%s", problem)
            said = tr(
                "This game cannot be exported: an older version of the app recorded it, "
                "and this version's rules do not replay it."
            )
            self.show(games, resume, export, problem=said)
            return
        self.show(games, resume, export, where)
