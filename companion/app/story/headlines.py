"""Which of a step's reasons make its headline (what is spoken and bannered; the rest is shown
behind Why?), and that sentence."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.board.marks import STRIGOI_COLOUR as STRIGOI_COLOUR  # its cards' colour
from companion.app.words.i18n import capital_first
from companion.engine.explain import Namer, Plural, Reason, english_plural

#: Codes whose text makes the spoken headline (the rest is shown behind "Why?").
HEADLINE_CODES = (
    "teleport",
    "letter_x",
    "bounce_failed",
    "bounce_failed_centre",
    "occupied",
    "ladder_destroyed",
    "ladder_guarded",
    "stays_no_attack",
    "landing_on_hero",
    "target",
    "target_tie",
    "nobody_visible",
    "wounds",
    "curse",
    "collapse",
)


def headline_of(
    reasons: Sequence[Reason],
    translate: Callable[[str], str] = str,
    name: Namer | None = None,
    plural: Plural = english_plural,
) -> str:
    """The spoken and bannered sentence: the reasons whose codes make headlines, in order."""
    picked = [r for r in reasons if r.code in HEADLINE_CODES] or list(reasons[:1])
    # a Strigoi opens it with its article ("the Master teleports"): a sentence's capital
    return capital_first("; ".join(r.text(translate, name, plural) for r in picked))


__all__ = ["HEADLINE_CODES", "headline_of"]
