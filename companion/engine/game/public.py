"""The game as someone across the table sees it, for observers off the table (MQTT).

The seed and the order of each stack decide every future draw, so neither is ever published
(only how many tokens are left); a card chosen for the round stays hidden until all are revealed
(R-RND-1).
"""

from __future__ import annotations

from typing import Any

import msgspec

from companion.engine.game import events as e
from companion.engine.game.state import GameState


def public_state_data(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    del data["seed"], data["draws"]
    for stack in data["stacks"].values():
        stack["left"] = len(stack.pop("draw"))
    if state.phase == "initiative":  # R-RND-1: choices stay secret until all are in
        for hero in data["heroes"]:
            if hero["chosen"] is not None:
                hero["chosen"] = ""
    return data


def public_event_data(event: e.Event) -> dict[str, Any]:
    if isinstance(event, e.GameStarted):
        return {"event": "game_started", "state": public_state_data(event.state)}
    data: dict[str, Any] = msgspec.to_builtins(e.public(event))
    return data


__all__ = [
    "public_event_data",
    "public_state_data",
]
