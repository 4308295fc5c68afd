"""The whole game (RULES.md): commands in, events out; the state is the fold of the events.

The public names below are what the app, the tools and the tests use; the modules behind them
(one per kind of task in `rules/`, the queries and effects they share) may change freely.

    from companion.engine.game import Game, GameRules, commands as c
    game = Game.new(GameRules(fortress, catalog), seed=7, seats=[("roel", "L1"), ...])
    game.execute(c.ChooseCard(hero="roel", card="roel/..."))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names for type checkers; at run time they load on first use
    from companion.engine.game import commands, events
    from companion.engine.game.context import GameOptions, GameRules, board_state, situation
    from companion.engine.game.emitter import clone, started_state
    from companion.engine.game.flow import decide, decide_in_place, summary
    from companion.engine.game.fold import apply
    from companion.engine.game.game import Game, GameView, replay
    from companion.engine.game.invariants import violations
    from companion.engine.game.kinds import STACKS, Phase, StackName, TaskKind
    from companion.engine.game.legal import legal_commands
    from companion.engine.game.public import public_event_data, public_state_data
    from companion.engine.game.queries import (
        DISCARDABLE,
        ability_sources,
        attack_odds,
        fight_odds,
        protection_sources,
        source_item,
        strigoi_step_now,
    )
    from companion.engine.game.registry import REGISTRY
    from companion.engine.game.setup import check_ladder, new_game
    from companion.engine.game.state import GameState, HeroState, Stack
    from companion.engine.game.tasks import TASK_TYPES, AnyTask, Task

#: where each public name lives; loaded on first use, so the engine's own modules (which import
#: their neighbours, never this package's names) form no import cycle through it
_WHERE = {
    "AnyTask": "companion.engine.game.tasks",
    "DISCARDABLE": "companion.engine.game.queries",
    "Game": "companion.engine.game.game",
    "GameOptions": "companion.engine.game.context",
    "GameRules": "companion.engine.game.context",
    "GameState": "companion.engine.game.state",
    "GameView": "companion.engine.game.game",
    "HeroState": "companion.engine.game.state",
    "Phase": "companion.engine.game.kinds",
    "REGISTRY": "companion.engine.game.registry",
    "STACKS": "companion.engine.game.kinds",
    "Stack": "companion.engine.game.state",
    "StackName": "companion.engine.game.kinds",
    "TASK_TYPES": "companion.engine.game.tasks",
    "Task": "companion.engine.game.tasks",
    "TaskKind": "companion.engine.game.kinds",
    "ability_sources": "companion.engine.game.queries",
    "apply": "companion.engine.game.fold",
    "attack_odds": "companion.engine.game.queries",
    "board_state": "companion.engine.game.context",
    "check_ladder": "companion.engine.game.setup",
    "clone": "companion.engine.game.emitter",
    "commands": "companion.engine.game.commands",
    "decide": "companion.engine.game.flow",
    "decide_in_place": "companion.engine.game.flow",
    "events": "companion.engine.game.events",
    "fight_odds": "companion.engine.game.queries",
    "legal_commands": "companion.engine.game.legal",
    "new_game": "companion.engine.game.setup",
    "protection_sources": "companion.engine.game.queries",
    "public_event_data": "companion.engine.game.public",
    "public_state_data": "companion.engine.game.public",
    "replay": "companion.engine.game.game",
    "situation": "companion.engine.game.context",
    "source_item": "companion.engine.game.queries",
    "started_state": "companion.engine.game.emitter",
    "strigoi_step_now": "companion.engine.game.queries",
    "summary": "companion.engine.game.flow",
    "violations": "companion.engine.game.invariants",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loaded = importlib.import_module(module)
    value = loaded if module.endswith("." + name) else getattr(loaded, name)
    globals()[name] = value
    return value


__all__ = [
    "DISCARDABLE",
    "REGISTRY",
    "STACKS",
    "TASK_TYPES",
    "AnyTask",
    "Game",
    "GameOptions",
    "GameRules",
    "GameState",
    "GameView",
    "HeroState",
    "Phase",
    "Stack",
    "StackName",
    "Task",
    "TaskKind",
    "ability_sources",
    "apply",
    "attack_odds",
    "board_state",
    "check_ladder",
    "clone",
    "commands",
    "decide",
    "decide_in_place",
    "events",
    "fight_odds",
    "legal_commands",
    "new_game",
    "protection_sources",
    "public_event_data",
    "public_state_data",
    "replay",
    "situation",
    "source_item",
    "started_state",
    "strigoi_step_now",
    "summary",
    "violations",
]
