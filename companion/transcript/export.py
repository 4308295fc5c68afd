"""Any game as an `armata-transcript/1` document: its setup, every command as a step in the
players' words, and the visible state after each round (and at the end) as expectations, so a
game played at a real table can be attached to a bug report and replayed."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from companion.boardfile import load_board_file
from companion.engine.board_schema import board_spec_to_data
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.game import Game
from companion.engine.options import Options
from companion.store.gamelog import GameLog
from companion.transcript.expect import snapshot
from companion.transcript.model import FORMAT, site_of
from companion.transcript.names import Names
from companion.transcript.steps import step_of


def transcript_of(
    rules: GameRules,
    started: e.GameStarted,
    seats: list[tuple[str, str]],
    commands: Iterable[c.Command],
    name: str,
) -> dict[str, Any]:
    """The transcript of a game started by `started` and played by `commands`."""
    names = Names(rules.fortress, rules.catalog, seats)
    state = started.state
    setup: dict[str, Any] = {
        "seats": [
            {"hero": names.hero(hero), "ladder": site_of(rules.fortress, names, ladder)}
            for hero, ladder in seats
        ],
        "seed": state.seed,
    }
    if not _is_default(rules.fortress):
        setup["board"] = board_spec_to_data(rules.fortress.spec)
    if rules.options.physical:
        setup["physical"] = sorted(rules.options.physical)
    chosen, default = rules.options.rules, Options()
    options = {
        k: getattr(chosen, k) for k in Options.names() if getattr(chosen, k) != getattr(default, k)
    }
    if options:
        setup["options"] = options
    game = Game(rules, [started])
    steps: list[dict[str, Any]] = []
    for command in commands:
        step = step_of(command, names)
        events = game.execute(command)
        if any(isinstance(x, e.RoundEnded | e.GameOver) for x in events):
            step["expect"] = snapshot(rules, names, game.state)
        steps.append(step)
    if steps and "expect" not in steps[-1]:
        steps[-1]["expect"] = snapshot(rules, names, game.state)
    return {"format": FORMAT, "name": name, "setup": setup, "steps": steps}


def export_game(log: GameLog, game_id: str) -> dict[str, Any]:
    """A stored game (up to its current head: what the table sees) as a transcript."""
    from companion.app.session.game import GameSession  # the stored rules, as the app reads them

    record = log.game(game_id)
    rules = GameSession(log, game_id).rules
    started = log.events(game_id, upto=1)[0]
    assert isinstance(started, e.GameStarted)
    seats = [(hero, ladder) for hero, ladder in record.seats]
    commands = [x.command for x in log.commands(game_id, upto=record.head)]
    return transcript_of(rules, started, seats, commands, f"game {game_id} ({record.created_at})")


def dumps(transcript: dict[str, Any]) -> str:
    """One step per line: readable in a bug report, diffable."""
    head = {k: v for k, v in transcript.items() if k != "steps"}
    lines = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    steps = ",\n    ".join(json.dumps(s, ensure_ascii=False) for s in transcript["steps"])
    return f'{lines},\n  "steps": [\n    {steps}\n  ]\n}}\n'


@cache
def _default_board() -> Fortress:
    return load_board_file()


def _is_default(fortress: Fortress) -> bool:
    return fortress.spec == _default_board().spec
