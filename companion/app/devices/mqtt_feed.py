"""The game for observers off the table (docs/protocol.md, `armata/<table>/game/...`).

After each accepted command: every event in public form on `game/event`, then the public state
on `game/state` (retained, so a screen that connects later sees the game at once). Announcements
go on `game/event` too, as the Announcer makes them. Nothing here can change the game: a
failing publish is counted, never raised into the command that caused it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from companion.engine.game import events as e
from companion.engine.game.public import public_event_data, public_state_data
from companion.engine.game.state import GameState

#: (leaf, payload, retain) -> accepted or queued
Publish = Callable[[str, bytes, bool], bool]

_JSON = msgspec.json.Encoder()


class GameFeed:
    def __init__(self, publish: Publish) -> None:
        self.publish = publish
        self.sent: Counter[str] = Counter()  # by leaf, and "announcement"
        self.failed: Counter[str] = Counter()

    def _send(
        self, leaf: str, message: dict[str, Any] | bytes, retain: bool = False, kind: str = ""
    ) -> None:
        payload = message if isinstance(message, bytes) else _JSON.encode(message)
        counter = self.sent if self.publish(leaf, payload, retain) else self.failed
        counter[leaf] += 1
        if kind:
            counter[kind] += 1

    def after_command(self, state: GameState, events: Sequence[e.Event]) -> None:
        for event in events:
            self._send("event", {"type": "event", **public_event_data(event)})
        self.state(state)

    def state(self, state: GameState) -> None:
        """The public state, retained (also after undo, redo and resume)."""
        self._send("state", {"type": "state", "state": public_state_data(state)}, retain=True)

    def announcement(self, payload: bytes) -> None:
        self._send("event", payload, kind="announcement")
