"""Opening the table's game log in its data folder, and starting a fresh one beside a damaged
log. A module of its own: `python -m ui` checks the log before the touchscreen's first frame
(companion/app/log_problem.py), which then needs the store, not the whole table service."""

from __future__ import annotations

from pathlib import Path

from companion.errors import LogUnreadable
from companion.store.gamelog import GameLog
from companion.store.integrity import keep_aside


def open_log(data: Path) -> GameLog:
    """The table's game log in the data folder (created when missing), checked at open."""
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogUnreadable(
            data / "companion.db", f"no data folder {data}: {exc.strerror or exc}"
        ) from None
    return GameLog(data / "companion.db")


def start_fresh_log(data: Path) -> Path:
    """Keep a damaged (or newer) log aside, renamed, never deleted, and start a fresh one that
    keeps the table's settings and registered tags (as far as they can be read from the old
    one); returns where the old one was kept."""
    from companion.store.carry import carry_over

    aside = keep_aside(data / "companion.db")
    with open_log(data) as fresh:
        carry_over(aside, fresh)
    return aside
