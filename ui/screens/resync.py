"""Resync: every difference between the table and the game, each with two answers. "The table
is right" records the table's reality as a correction (undoable, in the game log); "the app is
right" lights the room and tells the table what to put back, and the entry goes by itself once
the readers see the table match (companion/app/table/resync.py, companion/app/table/tracking.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.table.differences import Difference
from companion.app.table.tracking import TableStatus
from companion.app.words.i18n import tr
from companion.app.words.table_texts import action_text, difference_text
from companion.engine.fortress import Fortress
from ui.screens.page import PageScreen

Answer = Callable[[Difference], None]


class ResyncScreen(PageScreen):
    back_to = "round"

    def show(
        self,
        fortress: Fortress,
        status: TableStatus,
        can_correct: Callable[[Difference], bool],
        table_right: Answer,
        app_right: Answer,
    ) -> None:
        self.clear(tr("Resync: table and game"))
        open_keys = {a.key for a in status.actions}
        differing = [d for d in status.differences if d.key not in open_keys]
        if not differing and not status.actions:
            self.text(tr("The readers see the table as the game holds it."))
        now = time.monotonic()
        for difference in differing:
            seconds = max(0, int(now - difference.since))
            self.text(
                difference_text(fortress, difference)
                + " "
                + tr("(for {seconds} s)").format(seconds=seconds)
            )
            answers = []
            if can_correct(difference):
                answers.append((tr("The table is right"), lambda d=difference: table_right(d)))
            answers.append((tr("The app is right"), lambda d=difference: app_right(d)))
            self.row(answers)
        if status.actions:
            self.text(tr("Being put right at the table:"))
            for action in status.actions:
                self.text("• " + action_text(fortress, action))
