"""The game log: this game's steps in plain words, newest first, what each one led to (a
Strigoi's jump, a curse, a collapse, a wound, the end). Tapping a step goes back to just after
it, once confirmed; steps undone (after the current one) are shown too, so the game can go
forward to them again."""

from __future__ import annotations

from collections.abc import Callable

from kivy.utils import escape_markup

from companion.app.session.game import CommandRecord, GameSession
from companion.app.story.game_log import log_line, outcome, stories
from companion.app.words.command_labels import log_sentence, secret_label
from companion.app.words.i18n import tr
from companion.engine.components import Catalog
from companion.engine.game import events as e
from ui.screens.page import PageScreen
from ui.widgets.glyphs import with_arrows

SHOWN = 60  # the newest steps; older ones are a long scroll away at a table


class GameLogScreen(PageScreen):
    back_to = "round"

    def show(self, session: GameSession, catalog: Catalog, rewind: Callable[[int], None]) -> None:
        self.clear(tr("Game log"))
        self._session, self._catalog, self._rewind = session, catalog, rewind
        history = session.history()
        if not history:
            self.text(tr("No step yet."))
        head = session.head
        fortress = session.rules.fortress
        outcomes = {r.seq: session.events_of(r) for r in history[-SHOWN:]}
        told = stories(session, history[-SHOWN:])
        # card choices made after the last reveal stay secret (R-RND-1)
        revealed = max(
            (
                seq
                for seq, events in outcomes.items()
                if any(isinstance(x, e.CardsRevealed) for x in events)
            ),
            default=0,
        )
        secret_from = revealed if session.state.phase == "initiative" else 10**9
        for record in reversed(history[-SHOWN:]):
            hidden = record.seq > secret_from
            step = log_sentence(record.command, catalog, fortress, hidden)
            results = outcome(catalog, outcomes[record.seq], told.get(record.seq))
            line = with_arrows(escape_markup(f"{record.seq}. {log_line(step, results)}"))
            if record.seq == head:
                line += " · " + tr("(now)")
            elif record.seq > head:
                line += " · " + tr("(undone)")
            self.button(line, lambda r=record: self._ask(r), markup=True)
        if history:
            self.button(tr("Back to the start of the game"), lambda: self._ask(None))

    def _ask(self, record: CommandRecord | None) -> None:
        """Confirm before the game moves: going back undoes every later step."""
        self.clear(tr("Game log"))
        seq = 0 if record is None else record.seq
        label = (
            tr("the start of the game")
            if record is None
            else secret_label(
                record.command,
                self._catalog,
                self._session.rules.fortress,
                self._session.state.phase == "initiative",
            )
        )
        self.text(tr("Go back to just after: {step}?").format(step=label))
        self.row(
            [
                (tr("Yes, go back"), lambda: self._go(seq)),
                (tr("Cancel"), lambda: self.show(self._session, self._catalog, self._rewind)),
            ]
        )

    def _go(self, seq: int) -> None:
        self._rewind(seq)
        self.go_back()
