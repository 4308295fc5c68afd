"""The turn tracker as the phones show it (issue 40, item 4): the tracker value
(`companion.app.session.turn_tracker`) in the table's language, one row per hero in this
round's order and the Strigoi after them, each with a short note of where it is in the round.
The table view and the seat page get the same rows (built on the service's thread)."""

from __future__ import annotations

from typing import Any

from companion.app.board.marks import FIGURE_MARKS
from companion.app.session.game import GameSession
from companion.app.session.turn_tracker import Stage, TurnTracker, turn_tracker
from companion.app.words.i18n import N_, ngettext, tr
from companion.engine.explain import hero_name

JSON = dict[str, Any]

#: the tracker's words: third person, read by the whole table as by one player
TRACKER_WORDS = {
    "order": N_("Turn order"),
    "choosing": N_("choosing"),
    "has_chosen": N_("has chosen"),
    "on_the_move": N_("on the move"),
    "done": N_("done"),
    "initiative": N_("initiative {value}"),
    "strigoi": N_("Strigoi"),
}

STAGE_WORDS = {
    Stage.CHOOSING: "choosing",
    Stage.CHOSEN: "has_chosen",
    Stage.ON_THE_MOVE: "on_the_move",
    Stage.DONE: "done",
}


def tracker_word(key: str) -> str:
    return tr(TRACKER_WORDS[key])


def tracker_rows(tracker: TurnTracker) -> list[JSON]:
    """The heroes in the tracker's order, then the Strigoi: name, mark, a note ("initiative 3
    · on the move"), wounds and rewards in words, whether it is marked (acting now) and whether
    the game waits for that hero."""
    rows: list[JSON] = []
    for row in tracker.rows:
        parts = []
        if row.initiative is not None:
            parts.append(tracker_word("initiative").format(value=row.initiative))
        stage = STAGE_WORDS.get(row.stage)
        if stage is not None and not (stage == "on_the_move" and tracker.strigoi_turn):
            parts.append(tracker_word(stage))
        rows.append(
            {
                "id": row.hero,
                "name": hero_name(row.hero),
                "mark": FIGURE_MARKS.get(row.hero, row.hero[:2].upper()),
                "stage": str(row.stage),
                "note": " · ".join(parts),
                "wounds": row.wounds,
                "rewards": row.rewards,
                "counts": " · ".join(
                    [
                        ngettext("{count} wound", "{count} wounds", row.wounds).format(
                            count=row.wounds
                        ),
                        ngettext("{count} reward", "{count} rewards", row.rewards).format(
                            count=row.rewards
                        ),
                    ]
                ),
                "marked": tracker.marked == row.hero,
                "waited": row.waited,
            }
        )
    rows.append(
        {
            "id": "strigoi",
            "name": tracker_word("strigoi"),
            "mark": "S",
            "stage": "on_the_move" if tracker.strigoi_turn else "",
            "note": tracker_word("on_the_move") if tracker.strigoi_turn else "",
            "wounds": None,
            "rewards": None,
            "counts": "",
            "marked": tracker.strigoi_turn,
            "waited": False,
        }
    )
    return rows


def tracker_view(session: GameSession) -> JSON:
    """The tracker of the session's game for the phones: its title and rows."""
    tracker = turn_tracker(session.rules, session.state)
    return {
        "title": tracker_word("order"),
        "marked": tracker.marked,
        "rows": tracker_rows(tracker),
    }


__all__ = ["STAGE_WORDS", "TRACKER_WORDS", "tracker_rows", "tracker_view", "tracker_word"]
