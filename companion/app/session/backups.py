"""The table backs its game log up after every finished game (companion/store/backup.py: a
rotating set beside the log); the daily one comes from a systemd timer
(hardware/pi/armata-companion-backup.timer). A backup that fails is logged, never in the way
of the table: the game is in the log already."""

from __future__ import annotations

import logging

from companion.errors import CompanionError
from companion.store.backup import make_backup
from companion.store.gamelog import GameLog

log = logging.getLogger(__name__)


def back_up_after_game(game_log: GameLog) -> None:
    if game_log.read_only:
        return
    try:
        made = make_backup(game_log.path, "game")
    except (CompanionError, OSError) as exc:
        log.warning("the game log was not backed up after the game: %s", exc)
    else:
        log.info("the game log is backed up after the game: %s", made)
