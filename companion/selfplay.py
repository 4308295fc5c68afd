"""Self-play (`python -m companion sim`): whole legal games to the end, invariants checked after
every event.

Players choose by a policy (companion/policy.py): `random`, uniform among `legal_commands()`
(coverage and speed), or `greedy`, which plays sensibly without looking ahead.
Exit status 1 when any invariant broke or a game did not end.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import events as ev
from companion.engine.game.commands import Command
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide_in_place
from companion.engine.game.fold import apply
from companion.engine.game.invariants import violations
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import STACKS
from companion.engine.situation import HEROES
from companion.errors import IllegalCommand, SetupError
from companion.policy import POLICIES, Policy, random_policy

MAX_COMMANDS = 20_000


@dataclass
class SimReport:
    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    events: int = 0
    commands: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    by_players: dict[int, Counter[str]] = field(default_factory=dict)
    policy: str = "random"

    def lines(self) -> list[str]:
        heroes = self.winners["heroes"] / self.games if self.games else 0.0
        per_second = self.games / self.seconds if self.seconds else 0.0
        return [
            f"games {self.games}: heroes won {self.winners['heroes']}, strigoi won "
            f"{self.winners['strigoi']}, unfinished {self.winners['none']} "
            f"(hero win rate {heroes:.1%})",
            f"mean rounds {statistics.fmean(self.rounds) if self.rounds else 0:.1f}, "
            f"{self.commands} commands, {self.events} events",
            "hero win rate by players ("
            + self.policy
            + " policy): "
            + ", ".join(
                f"{n}: {w['heroes']}/{sum(w.values())} ({w['heroes'] / sum(w.values()):.0%})"
                for n, w in sorted(self.by_players.items())
            ),
            f"invariant checks: {self.events} states checked, {len(self.problems)} problems",
            f"{per_second:.1f} games per second",
            *self.problems[:10],
        ]


def ladders_for(rules: GameRules, count: int, rng: random.Random) -> list[str]:
    allowed = sorted(
        lid
        for lid, ladder in rules.fortress.ladders.items()
        if not rules.fortress.rooms[ladder.room].strigoi_start
    )
    if len(allowed) < count:
        raise SetupError(f"the board has only {len(allowed)} ladders open to heroes")
    return rng.sample(allowed, count)


def play_one(
    rules: GameRules,
    seed: int,
    players: int,
    report: SimReport,
    check: bool = True,
    record: list[Command] | None = None,
    policy: Policy = random_policy,
) -> ev.GameStarted:
    """One random game to its end; `record` receives its commands. Its first event returned."""
    rng = random.Random(seed)
    heroes = rng.sample(HEROES, players)
    started = new_game(
        rules, seed, list(zip(heroes, ladders_for(rules, players, rng), strict=True))
    )
    state = started_state(started)
    shadow = started_state(started) if check else state
    for _ in range(MAX_COMMANDS):
        if state.phase == "over":
            break
        options = legal_commands(rules, state)
        if not options:
            report.problems.append(
                f"seed {seed}: no legal command while waiting on {state.tasks[:1]}"
            )
            break
        command = policy(rules, state, options, rng)
        try:
            events = decide_in_place(rules, state, command, restore=False)
        except IllegalCommand as refusal:
            report.problems.append(f"seed {seed}: a listed legal command was refused: {refusal}")
            break
        report.commands += 1
        report.events += len(events)
        if record is not None:
            record.append(command)
        if check:
            for event in events:
                apply(shadow, event)
                for problem in violations(rules, shadow):
                    report.problems.append(f"seed {seed}, event {shadow.event_count}: {problem}")
            if shadow != state:
                report.problems.append(f"seed {seed}: replayed state differs from decided state")
    report.games += 1
    report.winners[state.winner or "none"] += 1
    report.by_players.setdefault(players, Counter())[state.winner or "none"] += 1
    report.rounds.append(state.round)
    if state.phase != "over":
        report.problems.append(f"seed {seed}: no end after {MAX_COMMANDS} commands")
    return started


def simulate(
    games: int,
    players: int | None,
    seed: int,
    check: bool = True,
    physical: bool = False,
    policy: str = "random",
) -> SimReport:
    """`physical`: every stack is drawn at the table and entered (any token it could be)."""
    options = GameOptions(physical=frozenset(STACKS) if physical else frozenset())
    rules = GameRules(load_board_file(), load_catalog(), options)
    report = SimReport(policy=policy)
    start = time.perf_counter()
    for i in range(games):
        count = players if players is not None else 2 + i % 4
        play_one(rules, seed + i, count, report, check, policy=POLICIES[policy])
    report.seconds = time.perf_counter() - start
    return report
