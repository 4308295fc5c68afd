"""The one source of chance in a game: generators seeded from the game's seed, so a saved game
replays exactly (ARCHITECTURE.md). Nothing else in the engine imports `random`."""

from __future__ import annotations

import random

#: the generator type handed to rules that shuffle (`Emitter.random`)
Generator = random.Random


def draw_generator(seed: int, draws: int) -> Generator:
    """The generator of a game's draw number `draws` (the count is part of the state)."""
    return random.Random(f"{seed}:{draws}")


def setup_generator(seed: int, stack: str) -> Generator:
    """The generator that shuffles `stack` when a game is set up (R-SET)."""
    return random.Random(f"{seed}:setup:{stack}")


__all__ = ["Generator", "draw_generator", "setup_generator"]
