"""History: every game on this table, newest first, with its result."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.i18n import tr
from companion.app.service import GameSummary
from companion.engine.explain import hero_name
from ui.screens.page import PageScreen

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
    ) -> None:
        """`games()` lists the stored games, newest first; `export(game id)` writes one as a
        transcript and returns where (docs/transcripts.md); `exported`: the path of the last
        one written, shown on top."""
        self.clear(tr("History"))
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
                    lambda game_id=game.game_id: self.show(games, resume, export, export(game_id)),
                )

