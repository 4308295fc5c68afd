"""Resume after a power cut: a process playing a stored game is SIGKILLed at random moments;
after each restart no acknowledged command is missing and the state equals a replay."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from companion.store.gamelog import GameLog
from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # SIGKILL at random moments of a worker process

KILLS = 22


def _run_until_killed(db: Path, seed: int, after: float) -> list[str]:
    """Start the worker, wait for its first acknowledged command (however slow the machine
    starts it), let it play `after` seconds more, then cut the power."""
    proc = subprocess.Popen(
        [PYTHON, "-m", "companion.app.autoplay", str(db), "--seed", str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # blocks until the worker has committed one command
    assert first.startswith("ACK "), f"the worker did not start: {first!r}"
    time.sleep(after)
    os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=limit(30))
    assert proc.returncode == -signal.SIGKILL, err
    return [first.rstrip("\n"), *out.splitlines()]


def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    rng = random.Random(2026)
    acknowledged: dict[str, int] = {}
    total = 0
    for kill in range(KILLS):
        lines = _run_until_killed(db, seed=kill % 3 + 1, after=rng.uniform(0.6, 1.6))
        for line in lines:
            if not line.startswith("ACK "):
                continue  # the kill may cut the last line short
            parts = line.split()
            if len(parts) == 3 and parts[2].isdigit():
                game, head = parts[1], int(parts[2])
                acknowledged[game] = max(acknowledged.get(game, 0), head)
                total += 1
        with GameLog(db) as log:
            for game, head in acknowledged.items():
                stored = log.game(game)
                assert stored.head >= head, f"kill {kill}: game {game} lost commands"
                assert log.state(game) == log.replay_from_scratch(game)
    assert total > 100, "the worker must have made progress between kills"
    assert len(acknowledged) >= 1
