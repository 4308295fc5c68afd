"""Run a scenario's action on the engine and shape the result exactly as SCENARIOS.md lists it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.collapse import collapse
from companion.engine.explain import Reason
from companion.engine.hexgrid import Cell
from companion.engine.movement import reachable
from companion.engine.sight import line_of_sight
from companion.engine.strigoi import curse, strigoi_step
from companion.errors import IllegalCommand, ScenarioError
from companion.scenario.model import (
    CollapseAction,
    CurseAction,
    LineOfSight,
    Reachable,
    Scenario,
    StrigoiTurn,
)


def _cell(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def _why(reasons: Sequence[Reason]) -> list[dict[str, object]]:
    return [r.as_data() for r in reasons]


def _origin(scenario: Scenario, origin: tuple[int, int]) -> Cell:
    cell = (origin[0], origin[1])
    if not scenario.fortress.is_space(cell, scenario.situation.board):
        raise ScenarioError("action.from", f"[{cell[0]}, {cell[1]}] is not a space of this board")
    return cell


def run_action(scenario: Scenario, default_damage: dict[str, int]) -> dict[str, Any]:
    """The action's result: every key SCENARIOS.md defines for it, plus `why`."""
    fortress, situation, action = scenario.fortress, scenario.situation, scenario.action
    try:
        if isinstance(action, StrigoiTurn):
            damage = {**default_damage, **(scenario.damage or {})}
            step = strigoi_step(
                fortress,
                situation,
                action.strigoi,
                action.letter,
                action.bonus,
                damage,
                scenario.options,
            )
            attack = step.attack
            return {
                "moved": step.teleport.moved,
                "to": step.teleport.to,
                "bounced": step.teleport.bounced,
                "ladder_destroyed": step.ladder_destroyed,
                "attack": None
                if attack is None
                else {
                    "hero": attack.hero,
                    "distance": attack.distance,
                    "wounds": attack.wounds,
                    "protectable": attack.protectable,
                },
                "blood_lost": step.blood_lost,
                "relocate": sorted(step.relocate),
                "why": _why(step.why),
            }
        if isinstance(action, LineOfSight):
            origin = _origin(scenario, action.origin)
            occupants = situation.occupants(fortress)
            occupants.pop(origin, None)
            seen = line_of_sight(fortress, situation.board, occupants, origin)
            return {
                "visible": [
                    {
                        "figure": s.figure,
                        "at": _cell(s.at),
                        "distance": s.distance,
                        "direction": s.direction,
                    }
                    for s in sorted(seen, key=lambda s: (s.direction, s.distance))
                ]
            }
        if isinstance(action, CurseAction):
            result = curse(fortress, situation, action.letter, scenario.options)
            return {
                "moved": result.teleport.moved,
                "to": result.teleport.to,
                "cursed": sorted(result.cursed),
                "ladder_destroyed": result.ladder_destroyed,
                "blood_lost": result.blood_lost,
                "relocate": sorted(result.relocate),
                "why": _why(result.why),
            }
        if isinstance(action, CollapseAction):
            fall = collapse(fortress, situation, action.letter)
            return {
                "collapsed": fall.room,
                "blood_lost": fall.blood_lost,
                "relocate": sorted(fall.relocate),
                "leapt": sorted(fall.leapt),
                "strigoi_moved_to": fall.strigoi_moved_to,
                "why": _why(fall.why),
            }
        if isinstance(action, Reachable):
            if action.steps < 0:
                raise ScenarioError("action.steps", f"must be 0 or more, got {action.steps}")
            origin = _origin(scenario, action.origin)
            ends = reachable(fortress, situation, origin, action.steps, action.stealth)
            return {"ends": [_cell(c) for c in ends]}
    except IllegalCommand as exc:
        raise ScenarioError("action", str(exc)) from None
    raise AssertionError(f"unhandled action {action!r}")
