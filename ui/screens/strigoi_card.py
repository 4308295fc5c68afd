"""What a Strigoi card says (the round screen shows one per announcement, one after the other):
which Strigoi, the token drawn, where it went, whom it attacks and with how many wounds, and
what the table must do. Curses and collapses get their own cards."""

from __future__ import annotations

from companion.app.announce import HEADLINE_CODES, Announcement
from companion.app.differences import strigoi_figure
from companion.app.i18n import tr
from companion.app.labels import figure_label, render, room_name, strigoi_label, token_name
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState


def card_lines(
    rules: GameRules, state: GameState, announcement: Announcement
) -> tuple[str, list[str]]:
    """The card's title and its lines, in the players' language."""
    facts = announcement.facts
    said = [render(r) for r in announcement.reasons if r.code in HEADLINE_CODES]
    if announcement.kind == "curse":
        return tr("Curse"), said or [render(r) for r in announcement.reasons]
    if announcement.kind == "collapse":
        room = str(facts.get("room", ""))
        return tr("Collapse"), [
            *said,
            tr("Take the platform out of the {room}: it collapsed.").format(room=room_name(room)),
        ]
    strigoi = str(facts.get("strigoi", ""))
    token = facts.get("token")
    lines = [
        tr("Token drawn: {token}").format(token=token_name(rules.catalog, str(token)))
        if isinstance(token, str)
        else tr("No token: the Supreme Strigoi moves every turn.")  # R-TEL-1
    ]
    lines += said
    start, to = facts.get("from"), facts.get("to")
    if isinstance(to, str) and start != to:
        figure = strigoi_figure(state, strigoi) if strigoi in state.strigoi else strigoi
        lines.append(
            tr("{figure}: put it on the centre of the {room}.").format(
                figure=figure_label(figure), room=room_name(to)
            )
        )
    return strigoi_label(strigoi), lines
