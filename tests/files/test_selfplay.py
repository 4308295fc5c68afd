"""Random legal games to the end with invariants after every event (the simulator)."""

from __future__ import annotations

import statistics
import subprocess
from concurrent.futures import ProcessPoolExecutor

import pytest

from companion.engine.game import commands as c
from companion.engine.game.invariants import violations
from companion.selfplay import SimReport, simulate
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit
from tests.support.table import Table


def _chunk(seed: int) -> SimReport:
    return simulate(500, None, seed, check=True)


@pytest.mark.slow
def test_a_thousand_random_games_keep_every_invariant() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(_chunk, [1, 100_001]))
    games = sum(r.games for r in reports)
    problems = [p for r in reports for p in r.problems]
    assert games == 1000
    assert problems == []
    assert sum(r.winners["none"] for r in reports) == 0  # every game ends
    assert sum(r.events for r in reports) > 100_000  # and every one of those events was checked


def test_the_checker_catches_broken_states() -> None:
    t = Table()
    assert violations(t.rules, t.state) == []
    s = t.state
    s.stacks["red"].draw.pop()  # a token vanished
    s.altar += 1  # a blood point appeared
    s.hero("matthew").at = s.hero("roel").at  # two figures on one space
    s.hero("roel").hand.append("matthew/son-of-the-wolf")  # and one card twice
    found = " | ".join(violations(t.rules, s))
    for text in (
        "blood:",
        "components not conserved",
        "two figures on one space",
        "roel holds another hero's cards",
    ):
        assert text in found, text


def test_sim_cli_prints_its_report() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "companion", "sim", "--games", "4", "--players", "3", "--seed", "9"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(300),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("games 4: heroes won")
    assert "invariant checks:" in done.stdout and "0 problems" in done.stdout
    assert "games per second" in done.stdout


def test_every_legal_command_is_accepted() -> None:
    t = Table(physical=frozenset())
    for _ in range(60):
        options = t.game.legal_commands()
        if not options:
            break
        for option in options[:25]:
            from companion.engine.game.flow import decide

            decide(t.rules, t.state, option)  # raises if any listed command were refused
        t.do(options[-1])
    assert isinstance(options[0], c.Command) or not options


@pytest.mark.slow
def test_physical_draws_on_every_stack_keep_every_invariant() -> None:
    report = simulate(40, None, 7, check=True, physical=True)
    assert report.games == 40 and report.problems == [] and report.winners["none"] == 0


@pytest.mark.slow
def test_the_greedy_policy_plays_legal_games_and_holds_out_longer_than_random() -> None:
    greedy = simulate(16, 2, seed=1, check=True, policy="greedy")
    plain = simulate(16, 2, seed=1, check=False, policy="random")
    assert greedy.problems == [] and greedy.games == 16 and greedy.winners["none"] == 0
    # fights what it can beat, keeps out of reach, blocks wounds: the Strigoi need longer
    assert statistics.fmean(greedy.rounds) > 1.5 * statistics.fmean(plain.rounds)
    line = next(x for x in greedy.lines() if x.startswith("hero win rate by players"))
    assert line.startswith("hero win rate by players (greedy policy): 2: ")


def test_sim_cli_selects_the_policy() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "companion", "sim", "--games", "4", "--policy", "greedy", "--no-checks"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(300),
    )
    assert done.returncode == 0, done.stderr
    assert "hero win rate by players (greedy policy): 2: " in done.stdout
    assert "3: " in done.stdout and "5: " in done.stdout
