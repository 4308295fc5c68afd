"""The game log: this game's steps in plain words, newest first, what each one led to (a
Strigoi's jump, a curse, a collapse, a wound, the end). Tapping a step goes back to just after
it, once confirmed; steps undone (after the current one) are shown too, so the game can go
forward to them again."""

from __future__ import annotations

from collections.abc import Callable

from kivy.utils import escape_markup

from companion.app.announce import Announcement, announcements
from companion.app.cards import card_of
from companion.app.i18n import capital_first, tr
from companion.app.labels import full_stop, log_sentence, secret_label, token_name
from companion.app.session import CommandRecord, GameSession
from companion.engine.components import Catalog
from companion.engine.game import events as e
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from ui.glyphs import with_arrows
from ui.screens.page import PageScreen

SHOWN = 60  # the newest steps; older ones are a long scroll away at a table


def outcome(
    catalog: Catalog, events: list[e.Event], story: list[Announcement] | None = None
) -> list[str]:
    """What a step led to, as sentences (none when nothing notable happened): the Strigoi
    token drawn, the story's items in the words of their cards (the same as the round screen
    showed and the voice said), then the game's end."""
    said: list[str] = []
    for event in events:
        if isinstance(event, e.TokenDrawn) and event.stack == "strigoi":
            said.append(tr("Drawn: {token}.").format(token=token_name(catalog, event.token)))
            break
    if story is not None:
        said += [card_of(catalog, item).headline for item in story]
    for event in events:
        match event:
            case e.GameOver(winner=winner):
                said.append(tr("the heroes won") if winner == "heroes" else tr("the Strigoi won"))
    return [full_stop(capital_first(words)) for words in said]


def log_line(step: str, results: list[str]) -> str:
    """A step and what it led to, as sentences; a result that only repeats the step ("Roel
    frees the monk." twice) is left out."""
    said = [step] + [r for r in results if _bare(r) != _bare(step)]
    return " ".join(said)


def _bare(sentence: str) -> str:
    return sentence.rstrip(".!?…").casefold()


def stories(session: GameSession, records: list[CommandRecord]) -> dict[int, list[Announcement]]:
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
