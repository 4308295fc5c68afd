"""Expectations on the visible state, in the players' words: only what is written is checked.

`snapshot` renders the whole visible state the way `check` reads it, so an exported transcript's
expectations are snapshots, and a hand-written one may copy any part of one. Any value may be
written `{"contains": [...]}` (a list holding at least these) or `{"one of": [...]}` (any one of
these values).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.app.words.wording import describe
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import StackName
from companion.engine.game.state import GameState, HeroState
from companion.engine.game.tasks import Task
from companion.errors import TranscriptError
from companion.transcript.names import OFF_BOARD, Names, key

#: every key an expectation may hold
KEYS = (
    "round", "phase", "waiting for", "winner", "positions", "rotations", "collapsed", "ladders",
    "wounds", "strigoi wounds", "destroyed", "altar", "inferno", "hand", "reward tokens",
    "advanced", "fight markers", "announcement", "discard", "played card", "beside", "pending",
    "removed", "face up", "attack marker",
)  # fmt: skip
#: the keys whose value is an object by name (a hero, a Strigoi, a room, a stack)
BY_NAME = (
    "positions", "rotations", "wounds", "strigoi wounds", "hand", "reward tokens", "advanced",
    "discard", "played card", "beside", "pending", "face up",
)  # fmt: skip
#: the forms a value may take besides itself
FORMS = ("contains", "one of")


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
        "discard": {n.hero(h.hero): sorted(n.card(x) for x in h.discard) for h in seated},
        "played card": {
            n.hero(h.hero): None if _played(h) is None else n.card(str(_played(h))) for h in seated
        },
        "beside": {
            n.hero(h.hero): sorted(n.card(x) for x in _beside(h)) for h in seated
        },  # cards played this round besides the round's card (Protection, Shock, Stealth...)
        "pending": {n.hero(h.hero): sorted(n.card(x) for x in h.pending) for h in seated},
        "removed": sorted(n.card(x) for x in state.removed),
        "face up": {stack: _face_up(n, state, stack) for stack in FACE_UP if stack in state.stacks},
        "attack marker": state.attack_marker,
    }


FACE_UP: tuple[StackName, ...] = ("red", "grey")


def _face_up(names: Names, state: GameState, stack: StackName) -> str | None:
    token = state.stacks[stack].face_up
    return None if token is None else names.token(token)


def _played(h: HeroState) -> str | None:
    """The card played for the round, once revealed."""
    return h.chosen if h.chosen in h.played else None


def _beside(h: HeroState) -> list[str]:
    played = _played(h)
    return [x for x in h.played if x != played] + list(h.rewards_used)


def _form(value: Any) -> tuple[str, Any] | None:
    """`{"contains": [...]}` or `{"one of": [...]}`: the form and its list."""
    if isinstance(value, dict) and len(value) == 1:
        ((name, inner),) = value.items()
        if name in FORMS:
            if not isinstance(inner, list):
                raise TranscriptError(f"{name!r} takes a list, got {inner!r}")
            return name, inner
    return None


def _same(expected: Any, actual: Any) -> bool:
    """Names compare by `key`; lists as multisets; numbers and null exactly; `contains`: the
    list holds at least these; `one of`: any of these values."""
    form = _form(expected)
    if form is not None:
        name, values = form
        if name == "one of":
            return any(_same(x, actual) for x in values)
        if not isinstance(actual, list):
            return False
        return not Counter(_norm(x) for x in values) - Counter(_norm(x) for x in actual)
    if isinstance(expected, str) and isinstance(actual, str):
        return key(expected) == key(actual)
    if isinstance(expected, list) and isinstance(actual, list):
        return Counter(_norm(x) for x in expected) == Counter(_norm(x) for x in actual)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _norm(value: Any) -> Any:
    """A hashable, comparable form of a list item."""
    if isinstance(value, str):
        return key(value)
    if isinstance(value, int | float | bool) or value is None:
        return value
    raise TranscriptError(f"a list holds names or numbers, got {value!r}")


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
        elif field in BY_NAME:
            try:
                by_name = isinstance(wanted, dict) and _form(wanted) is None
            except TranscriptError:  # a malformed form where the names should be
                by_name = False
            if not by_name:
                raise TranscriptError(f"field 'expect.{field}': an object by name")
            have = {key(k): v for k, v in actual[field].items()}
            for name, value in wanted.items():
                if key(name) not in have:
                    _absent(names, field, name, list(actual[field]))
                got = have.get(key(name), OFF_BOARD if field == "positions" else None)
                try:
                    if field == "wounds" and _count(value):  # a count: by wound value
                        got = _wound_value(rules, state, names, name)
                    if field == "strigoi wounds" and got is None:
                        got = 0
                    same = _same(value, got)
                except TranscriptError as exc:
                    raise TranscriptError(f"field 'expect.{field}.{name}': {exc}") from None
                if not same:
                    found.append((f"{field}.{name}", value, got))
        else:
            try:
                same = _same(wanted, actual[field])
            except TranscriptError as exc:
                raise TranscriptError(f"field 'expect.{field}': {exc}") from None
            if not same:
                found.append((field, wanted, actual[field]))
    return found


def _count(value: Any) -> bool:
    """A number (or numbers to choose from) rather than a list of names."""
    form = _form(value)
    if form is not None and form[0] == "one of":
        return all(type(x) is int for x in form[1])
    return type(value) is int


def _absent(names: Names, field: str, name: str, known: list[str]) -> None:
    """A name missing from the snapshot: a Strigoi off the board (positions, its wounds), or a
    mistake: the error names the field and what there is."""
    if field in ("positions", "strigoi wounds"):
        try:
            names.strigoi_id(name)
            return
        except TranscriptError:
            pass
    raise TranscriptError(
        f"field 'expect.{field}.{name}': not in this game (known: {', '.join(known) or 'none'})"
    )


def _wound_value(rules: GameRules, state: GameState, names: Names, hero: str) -> int:
    h = state.hero(names.hero_id(hero))
    return sum(rules.catalog.wound(w).value for w in h.wounds)
