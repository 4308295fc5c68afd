"""Seat tokens: the secret in a phone's link that shows one hero's hand (ui/web's seat view).

A token belongs to one game and one hero. It ends when that game ends or another game is
played, and the touchscreen can revoke it; a token that ended is remembered with the reason,
so the phone is told why (revoked, or the game is over) instead of a bare refusal. Tokens are
random (`secrets`, 128 bits) and kept with the table's settings in the game log (`saved`,
`restore`, issue 41 item 3): after a restart, a power cut or an update a phone's link opens its
seat again as soon as its game is resumed. While no game is loaded (before the resume)
a token neither opens its seat nor ends: its phone waits. Only the table service's thread uses
this object.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: what a token looks like (anything else is refused before any look-up)
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: why a token no longer opens its seat
REVOKED = "revoked"
GAME_ENDED = "game_ended"
UNKNOWN = "unknown"
#: how many ended tokens are remembered (the oldest forgotten first: then "not known here")
ENDED_KEPT = 200


@dataclass(frozen=True)
class Seat:
    game_id: str
    hero: str


class SeatTokens:
    def __init__(self, keep: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._active: dict[str, Seat] = {}
        self._ended: dict[str, str] = {}  # token -> REVOKED | GAME_ENDED, oldest first
        #: told `saved()` after every change (the table service stores it with its settings)
        self.keep = keep

    def saved(self) -> dict[str, Any]:
        """The tokens as JSON-able values."""
        return {
            "active": {t: [s.game_id, s.hero] for t, s in self._active.items()},
            "ended": dict(self._ended),
        }

    def restore(self, saved: object) -> int:
        """The tokens `saved()` gave (a value read back from the store); anything that is not a
        token of that form is left out. How many active tokens came back."""
        if not isinstance(saved, dict):
            return 0
        active, ended = saved.get("active"), saved.get("ended")
        if isinstance(active, dict):
            for token, seat in active.items():
                if (
                    isinstance(token, str)
                    and TOKEN_FORM.fullmatch(token)
                    and isinstance(seat, list)
                    and len(seat) == 2
                    and all(isinstance(part, str) and part for part in seat)
                ):
                    self._active[token] = Seat(seat[0], seat[1])
        if isinstance(ended, dict):
            for token, why in ended.items():
                if (
                    isinstance(token, str)
                    and TOKEN_FORM.fullmatch(token)
                    and why in (REVOKED, GAME_ENDED)
                ):
                    self._ended[token] = why
        self._forget_oldest()
        return len(self._active)

    def _changed(self) -> None:
        self._forget_oldest()
        if self.keep is not None:
            self.keep(self.saved())

    def _forget_oldest(self) -> None:
        while len(self._ended) > ENDED_KEPT:
            del self._ended[next(iter(self._ended))]

    def issue(self, game_id: str, hero: str) -> str:
        """The hero's token in this game: the one already given, or a new one."""
        for token, seat in self._active.items():
            if seat == Seat(game_id, hero):
                return token
        token = secrets.token_urlsafe(16)
        self._active[token] = Seat(game_id, hero)
        self._changed()
        return token

    def revoke(self, hero: str) -> bool:
        """End the hero's token (its phone sees nothing more); True when there was one."""
        found = [t for t, seat in self._active.items() if seat.hero == hero]
        for token in found:
            del self._active[token]
            self._ended[token] = REVOKED
        if found:
            self._changed()
        return bool(found)

    def game(self, game_id: str | None, over: bool = False) -> None:
        """The game being played now: the tokens of any other game, or of this one once it is
        over, end. None (no game loaded: before a resume) ends none."""
        if game_id is None:
            return
        ended = [t for t, seat in self._active.items() if seat.game_id != game_id or over]
        for token in ended:
            del self._active[token]
            self._ended[token] = GAME_ENDED
        if ended:
            self._changed()

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


__all__ = [
    "ENDED_KEPT",
    "GAME_ENDED",
    "REVOKED",
    "TOKEN_FORM",
    "UNKNOWN",
    "Seat",
    "SeatTokens",
]
