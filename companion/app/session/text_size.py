"""The text size setting in steps: every text on the touchscreen (and what must grow with it:
rows, buttons, paddings) scales by the step's percentage, read as `app.text_scale`.

The setting is stored as the percentage (125). Logs from before the steps hold "normal" or
"large": they read as 100 % and 125 %, what they meant then."""

from __future__ import annotations

#: the steps the table offers, smallest first: the round screen's quick control walks them
STEPS = (100, 125, 150, 175)
#: the words older versions stored
OLD_NAMES = {"normal": 100, "large": 125}


def percent(stored: object) -> int:
    """The step a stored value means; anything unknown is the first step."""
    if isinstance(stored, str):
        return OLD_NAMES.get(stored, STEPS[0])
    if isinstance(stored, int) and not isinstance(stored, bool) and stored in STEPS:
        return stored
    return STEPS[0]


def scale(stored: object) -> float:
    """The factor every size is multiplied by (`app.text_scale`)."""
    return percent(stored) / 100


def next_step(stored: object) -> int:
    """The step after this one; after the largest the first again."""
    at = STEPS.index(percent(stored))
    return STEPS[(at + 1) % len(STEPS)]
