"""The game Home's Resume brings back, as it was left: Home draws its board (its ladders and
platforms as that game's setup placed them, not the default fortress's)."""

from __future__ import annotations

from companion.app.session.game import GameSession
from companion.engine.fortress import Fortress
from companion.engine.game.context import situation
from companion.engine.situation import Situation
from companion.errors import CompanionError
from companion.store.gamelog import GameLog


def saved_table(log: GameLog, playing: GameSession | None) -> tuple[Fortress, Situation] | None:
    """The last unfinished game's fortress and figures (`playing` when it is that game: no
    second read); None when there is none or its record cannot be read back (Resume says so)."""
    game_id = log.last_unfinished()
    if game_id is None:
        return None
    try:
        session = playing if playing and playing.game_id == game_id else GameSession(log, game_id)
    except CompanionError:
        return None
    return session.rules.fortress, situation(session.rules, session.state)
