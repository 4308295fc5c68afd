"""An `armata-scenario/1` document parsed into a fortress, a situation, options and an action.

Errors name the JSON path (`state.heroes[1].at: ...`); a scenario that fails here is reported
by the runner as `ERROR <file>: <why>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgspec

from companion.engine.board_build import load_board
from companion.engine.fortress import BoardState, Fortress
from companion.engine.hexgrid import Cell
from companion.engine.options import Options
from companion.engine.situation import HEROES, STRIGOI, HeroFigure, Situation
from companion.errors import BoardFormatError, ScenarioError

FORMAT_TAG = "armata-scenario/1"
_AT_PATH = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)


class HeroSpec(msgspec.Struct):
    hero: str
    at: tuple[int, int]
    initiative: int = 0
    leap: bool = False


class StateSpec(msgspec.Struct):
    players: int = 2
    rotations: dict[str, int] = {}
    collapsed: list[str] = []
    ladders: list[str] | None = None
    strigoi: dict[str, str] = {}
    heroes: list[HeroSpec] = []
    fight_markers: list[tuple[int, int]] = []
    altar: int = 0
    inferno: int = 0
    damage: dict[str, int] = {}


class StrigoiTurn(msgspec.Struct, tag_field="do", tag="strigoi_turn"):
    strigoi: str
    letter: str
    bonus: int = 0


class LineOfSight(msgspec.Struct, tag_field="do", tag="line_of_sight"):
    origin: tuple[int, int] = msgspec.field(name="from")


class CurseAction(msgspec.Struct, tag_field="do", tag="curse"):
    letter: str


class CollapseAction(msgspec.Struct, tag_field="do", tag="collapse"):
    letter: str


class Reachable(msgspec.Struct, tag_field="do", tag="reachable"):
    origin: tuple[int, int] = msgspec.field(name="from")
    steps: int = 0
    stealth: bool = False


Action = StrigoiTurn | LineOfSight | CurseAction | CollapseAction | Reachable
ACTIONS = ("strigoi_turn", "line_of_sight", "curse", "collapse", "reachable")


@dataclass(frozen=True)
class Scenario:
    name: str
    fortress: Fortress
    situation: Situation
    options: Options
    damage: dict[str, int] | None  # state.damage overrides, or None to use the catalog
    action: Action
    expect: dict[str, Any]
    expect_error: str | None = None


def convert(value: object, target: Any, path: str) -> Any:
    try:
        return msgspec.convert(value, target)
    except msgspec.ValidationError as exc:
        match = _AT_PATH.match(str(exc))
        message = match.group("msg") if match else str(exc)
        suffix = (match.group("path") or "") if match else ""
        raise ScenarioError(
            (path + suffix).lstrip("."), message[:1].lower() + message[1:]
        ) from None


def parse_header(data: object) -> tuple[str, str | None]:
    """The scenario's name and its `expect_error` (project extension), before anything else."""
    if not isinstance(data, dict):
        raise ScenarioError("", f"a scenario must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT_TAG:
        raise ScenarioError(
            "format", f"unknown format tag {data.get('format')!r} (expected {FORMAT_TAG!r})"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ScenarioError("name", "a non-empty string is required")
    expect_error = data.get("expect_error")
    if expect_error is not None and not isinstance(expect_error, str):
        raise ScenarioError("expect_error", "must be a string")
    return name, expect_error


def parse_scenario(data: object) -> Scenario:
    name, expect_error = parse_header(data)
    assert isinstance(data, dict)
    options = _options(data.get("options", {}))
    if "board" not in data:
        raise ScenarioError("board", "missing")
    try:
        fortress = load_board(data["board"])
    except BoardFormatError as exc:
        raise ScenarioError(f"board.{exc.path}" if exc.path else "board", exc.reason) from None
    state: StateSpec = convert(data.get("state", {}), StateSpec, "state")
    if "action" not in data:
        raise ScenarioError("action", "missing")
    action = data["action"]
    if not isinstance(action, dict) or action.get("do") not in ACTIONS:
        do = action.get("do") if isinstance(action, dict) else None
        raise ScenarioError("action.do", f"unknown action {do!r} (one of {', '.join(ACTIONS)})")
    parsed_action: Action = convert(action, Action, "action")
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        raise ScenarioError("expect", "must be an object")
    situation = build_situation(fortress, state)
    damage = _damage(state.damage) if state.damage else None
    return Scenario(name, fortress, situation, options, damage, parsed_action, expect, expect_error)


def _options(raw: object) -> Options:
    if not isinstance(raw, dict):
        raise ScenarioError("options", "must be an object")
    known = Options.names()
    values: dict[str, bool] = {}
    for key, value in raw.items():
        if key not in known:
            raise ScenarioError(f"options.{key}", f"unknown option (known: {', '.join(known)})")
        if not isinstance(value, bool):
            raise ScenarioError(f"options.{key}", f"must be true or false, got {value!r}")
        values[key] = value
    return Options(**values)


def _damage(raw: dict[str, int]) -> dict[str, int]:
    for name, value in raw.items():
        if name not in STRIGOI:
            raise ScenarioError(f"state.damage.{name}", f"unknown strigoi (one of {STRIGOI})")
        if value < 0:
            raise ScenarioError(f"state.damage.{name}", f"must be 0 or more, got {value}")
    return dict(raw)


def _cell(value: tuple[int, int]) -> Cell:
    return (value[0], value[1])


def build_situation(fortress: Fortress, spec: StateSpec) -> Situation:
    """Check `state` against the board (every path named) and build the situation."""
    if not 2 <= spec.players <= 5:
        raise ScenarioError("state.players", f"must be 2-5, got {spec.players}")
    if not 0 <= spec.altar <= 5:
        raise ScenarioError("state.altar", f"must be 0-5 (R-BLD-1), got {spec.altar}")
    if spec.inferno < 0:
        raise ScenarioError("state.inferno", f"must be 0 or more, got {spec.inferno}")
    board = fortress.initial_state()
    rotations = dict(board.rotations)
    for room, rotation in spec.rotations.items():
        if room not in fortress.platforms:
            raise ScenarioError(
                f"state.rotations.{room}", f"{room!r} is not a room with a platform"
            )
        if not 0 <= rotation <= 5:
            raise ScenarioError(f"state.rotations.{room}", f"must be 0-5, got {rotation}")
        rotations[room] = rotation
    for i, room in enumerate(spec.collapsed):
        if room not in fortress.platforms:
            raise ScenarioError(f"state.collapsed[{i}]", f"{room!r} is not a room with a platform")
    ladders = set(fortress.ladders)
    if spec.ladders is not None:
        for i, lid in enumerate(spec.ladders):
            if lid not in fortress.ladders:
                raise ScenarioError(f"state.ladders[{i}]", f"unknown ladder {lid!r}")
        ladders = set(spec.ladders)
    board = BoardState(rotations, frozenset(spec.collapsed), frozenset(ladders))
    taken: dict[Cell, str] = {}
    for name, room in spec.strigoi.items():
        here = f"state.strigoi.{name}"
        if name not in STRIGOI:
            raise ScenarioError(here, f"unknown strigoi (one of {', '.join(STRIGOI)})")
        if room not in fortress.rooms:
            raise ScenarioError(here, f"unknown room {room!r}")
        if room != fortress.centre_room and room in board.collapsed:
            raise ScenarioError(here, f"the platform of {room!r} has collapsed (R-COL-3)")
        cell = fortress.centre(room)
        if cell in taken:
            raise ScenarioError(here, f"room {room!r} already holds the {taken[cell]}")
        taken[cell] = name
    if "supreme" in spec.strigoi and len(spec.strigoi) > 1:
        raise ScenarioError(
            "state.strigoi", "the Supreme Strigoi appears only once the other Strigoi is destroyed"
        )
    heroes: list[HeroFigure] = []
    for i, hero in enumerate(spec.heroes):
        here = f"state.heroes[{i}]"
        if hero.hero not in HEROES:
            raise ScenarioError(f"{here}.hero", f"unknown hero {hero.hero!r} (one of {HEROES})")
        if any(h.hero == hero.hero for h in heroes):
            raise ScenarioError(f"{here}.hero", f"hero {hero.hero!r} is listed twice")
        at = _cell(hero.at)
        if not fortress.is_space(at, board):
            raise ScenarioError(f"{here}.at", f"[{at[0]}, {at[1]}] is not a space of this board")
        if at in taken:
            raise ScenarioError(f"{here}.at", f"[{at[0]}, {at[1]}] is taken by {taken[at]}")
        taken[at] = hero.hero
        heroes.append(HeroFigure(hero.hero, at, hero.initiative, hero.leap))
    markers: set[Cell] = set()
    for i, raw in enumerate(spec.fight_markers):
        cell = _cell(raw)
        if fortress.feature(cell, board) not in ("red", "grey"):
            raise ScenarioError(
                f"state.fight_markers[{i}]", f"[{cell[0]}, {cell[1]}] is not an encounter space"
            )
        markers.add(cell)
    return Situation(
        board=board,
        strigoi=dict(spec.strigoi),
        heroes=tuple(heroes),
        fight_markers=frozenset(markers),
        players=spec.players,
        altar=spec.altar,
        inferno=spec.inferno,
    )
