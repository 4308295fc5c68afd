"""History: every game on this table, newest first, with its result."""

from __future__ import annotations

import os
from collections.abc import Callable

from companion.app.i18n import tr
from companion.app.service import GameSummary
from companion.engine.explain import hero_name
from ui.screens.page import PageScreen


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
            shown = wrapped_path(exported)
            self.text(tr("Saved for a bug report: {path}").format(path=shown))
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


#: characters of a path's line: at large text about 450 px, less than the narrowest page's line
PATH_LINE = 36


def wrapped_path(path: str, limit: int = PATH_LINE) -> str:
    """A path on lines broken after a separator (a window wraps only at spaces: a long path
    would be broken between two letters), the file's name on a line of its own."""
    folder, _, name = path.rpartition(os.sep)
    lines: list[str] = []
    for part in folder.split(os.sep):
        if lines and len(lines[-1]) + len(part) + 1 <= limit:
            lines[-1] += part + os.sep
        else:
            lines.append(part + os.sep)
    return "\n".join([*lines, name]) if folder or path.startswith(os.sep) else name
