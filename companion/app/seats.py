"""Seat tokens: the secret in a phone's link that shows one hero's hand (ui/web's seat view).

A token belongs to one game and one hero. It ends when that game ends or another game is
played, and the touchscreen can revoke it; a token that ended is remembered with the reason,
so the phone is told why (revoked, or the game is over) instead of a bare refusal. Tokens are
random (`secrets`, 128 bits) and live only in the running service: a restart ends them all.
Only the table service's thread uses this object.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

#: what a token looks like (anything else is refused before any look-up)
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: why a token no longer opens its seat
REVOKED = "revoked"
GAME_ENDED = "game_ended"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Seat:
    game_id: str
    hero: str


class SeatTokens:
    def __init__(self) -> None:
        self._active: dict[str, Seat] = {}
        self._ended: dict[str, str] = {}  # token -> REVOKED | GAME_ENDED

    def issue(self, game_id: str, hero: str) -> str:
        """The hero's token in this game: the one already given, or a new one."""
        for token, seat in self._active.items():
            if seat == Seat(game_id, hero):
                return token
        token = secrets.token_urlsafe(16)
        self._active[token] = Seat(game_id, hero)
        return token

    def revoke(self, hero: str) -> bool:
        """End the hero's token (its phone sees nothing more); True when there was one."""
        found = [t for t, seat in self._active.items() if seat.hero == hero]
        for token in found:
            del self._active[token]
            self._ended[token] = REVOKED
        return bool(found)

    def game(self, game_id: str | None, over: bool = False) -> None:
        """The game being played now: the tokens of any other game, or of this one once it is
        over, end."""
        for token, seat in list(self._active.items()):
            if seat.game_id != game_id or over:
                del self._active[token]
                self._ended[token] = GAME_ENDED

    def seat(self, token: str) -> Seat | str:
        """The seat the token opens, or why it opens none."""
        if not TOKEN_FORM.fullmatch(token):
            return UNKNOWN
        found = self._active.get(token)
        if found is not None:
            return found
        return self._ended.get(token, UNKNOWN)

    def active(self) -> dict[str, Seat]:
        return dict(self._active)

    def ended(self) -> dict[str, str]:
        return dict(self._ended)

    def token_of(self, hero: str) -> str | None:
        return next((t for t, seat in self._active.items() if seat.hero == hero), None)


__all__ = ["GAME_ENDED", "REVOKED", "TOKEN_FORM", "UNKNOWN", "Seat", "SeatTokens"]
