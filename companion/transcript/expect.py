"""Expectations on the visible state, in the players' words: only what is written is checked.

`snapshot` renders the whole visible state the way `check` reads it, so an exported transcript's
expectations are snapshots, and a hand-written one may copy any part of one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.app.wording import describe
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from companion.errors import TranscriptError
from companion.transcript.names import OFF_BOARD, Names, key

#: every key an expectation may hold
KEYS = (
    "round", "phase", "waiting for", "winner", "positions", "rotations", "collapsed", "ladders",
    "wounds", "strigoi wounds", "destroyed", "altar", "inferno", "hand", "reward tokens",
    "advanced", "fight markers", "announcement",
)  # fmt: skip


def waiting(names: Names, task: Task | None) -> str:
    """What the game waits for, as the engine says it, tokens by their printed names."""
    return describe(task, token=names.token)


def snapshot(rules: GameRules, names: Names, state: GameState) -> dict[str, Any]:
    """The visible state (everything `check` can compare), in names."""
    n = names
    positions: dict[str, str] = {n.hero(h.hero): n.space(h.at) for h in state.heroes}
    positions |= {n.strigoi(s): n.room(room) for s, room in state.strigoi.items()}
    seated = sorted(state.heroes, key=lambda h: h.seat)
    return {
        "round": state.round,
        "phase": state.phase,
        "waiting for": waiting(n, state.tasks[0] if state.tasks else None),
        "winner": state.winner,
        "positions": positions,
        "rotations": {
            n.room(room): n.turn(room, rotation)
            for room, rotation in sorted(state.rotations.items())
            if room not in state.collapsed
        },
        "collapsed": sorted(n.room(x) for x in state.collapsed),
        "ladders": sorted(n.ladder(x) for x in state.ladders),
        "wounds": {n.hero(h.hero): sorted(n.token(x) for x in h.wounds) for h in seated},
        "strigoi wounds": {n.strigoi(s): w for s, w in sorted(state.strigoi_wounds.items())},
        "destroyed": sorted(n.strigoi(x) for x in state.destroyed),
        "altar": state.altar,
        "inferno": state.inferno,
        "hand": {n.hero(h.hero): sorted(n.card(x) for x in h.hand) for h in seated},
        "reward tokens": {
            n.hero(h.hero): sorted(n.card(x) for x in h.reward_tokens) for h in seated
        },
        "advanced": {n.hero(h.hero): sorted(n.card(x) for x in h.advanced) for h in seated},
        "fight markers": sorted(n.space(x) for x in state.fight_markers),
    }


def _same(expected: Any, actual: Any) -> bool:
    """Names compare by `key`; lists as multisets; numbers and null exactly."""
    if isinstance(expected, str) and isinstance(actual, str):
        return key(expected) == key(actual)
    if isinstance(expected, list) and isinstance(actual, list):
        return Counter(_norm(x) for x in expected) == Counter(_norm(x) for x in actual)
    return bool(expected == actual)


def _norm(value: Any) -> Any:
    return key(value) if isinstance(value, str) else value


Mismatch = tuple[str, Any, Any]  # field, expected, actual


def check(
    rules: GameRules,
    names: Names,
    state: GameState,
    expect: dict[str, Any],
    headlines: Sequence[str] = (),
) -> list[Mismatch]:
    """The expectations `state` does not meet (empty when all are met)."""
    if not isinstance(expect, dict):
        raise TranscriptError("field 'expect': an object of expectations")
    unknown = sorted(set(expect) - set(KEYS))
    if unknown:
        raise TranscriptError(
            f"field 'expect': unknown expectation {unknown[0]!r} (known: {', '.join(KEYS)})"
        )
    actual = snapshot(rules, names, state)
    found: list[Mismatch] = []
    for field, wanted in expect.items():
        if field == "announcement":
            if not any(_same(wanted, h) for h in headlines):
                found.append((field, wanted, list(headlines) or None))
        elif field in ("positions", "rotations", "wounds", "strigoi wounds", "hand",
                       "reward tokens", "advanced"):  # fmt: skip
            if not isinstance(wanted, dict):
                raise TranscriptError(f"field 'expect.{field}': an object by name")
            have = {key(k): v for k, v in actual[field].items()}
            for name, value in wanted.items():
                got = have.get(key(name), OFF_BOARD if field == "positions" else None)
                if field == "wounds" and isinstance(value, int):  # a count: by wound value
                    got = _wound_value(rules, state, names, name)
                if field == "strigoi wounds" and got is None:
                    got = 0
                if not _same(value, got):
                    found.append((f"{field}.{name}", value, got))
        elif not _same(wanted, actual[field]):
            found.append((field, wanted, actual[field]))
    return found


def _wound_value(rules: GameRules, state: GameState, names: Names, hero: str) -> int:
    h = state.hero(names.hero_id(hero))
    return sum(rules.catalog.wound(w).value for w in h.wounds)
