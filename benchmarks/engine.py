"""Engine speed on the default fortress: printed figures, each next to a baseline measured in the
same run. Goals (this project's, on one core of the CI machine): Strigoi step <= 50 us median,
threat map <= 5 ms, platform rotation <= 20 us.

    python benchmarks/engine.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from itertools import cycle

from stats import percentile  # benchmarks/stats.py: the script's folder is on sys.path

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.demo import demo_situation
from companion.engine.board_build import build_fortress
from companion.engine.movement import reachable
from companion.engine.options import Options
from companion.engine.sight import line_of_sight
from companion.engine.strigoi import strigoi_step
from companion.engine.threat import threat_map, threat_map_brute


def measure(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and 99th percentile of `runs` calls, in microseconds."""
    for _ in range(min(runs, 20)):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return statistics.median(samples), percentile(samples, 0.99)


def row(name: str, median: float, p99: float, goal: str = "", baseline: str = "") -> None:
    print(f"{name:<38} median {median:>10.1f} us   p99 {p99:>10.1f} us   {goal:<14} {baseline}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer runs (smoke test)")
    args = parser.parse_args()
    scale = 10 if args.quick else 1

    fortress = load_board_file()
    situation = demo_situation(fortress)
    damage = load_catalog().damage()
    options = Options()
    state = situation.board
    spaces = fortress.spaces(state)
    print(
        f"armata companion engine benchmark - Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}"
    )
    print(
        f"default fortress: {len(fortress.rooms)} rooms, {len(spaces)} spaces, "
        f"{len(situation.heroes)} heroes, 2 Strigoi\n"
    )

    outcomes = cycle([(s, x) for s in ("master", "apprentice") for x in "ABCDEFX"])

    def step() -> object:
        name, letter = next(outcomes)
        return strigoi_step(fortress, situation, name, letter, 1, damage, options)

    med, p99 = measure(step, 20000 // scale)
    row("Strigoi step (teleport + target)", med, p99, "goal <= 50", "(all 14 outcomes, cycled)")

    occupants = situation.occupants(fortress)

    def sweep() -> object:
        return [line_of_sight(fortress, state, occupants, c) for c in spaces]

    med, p99 = measure(sweep, 400 // scale)
    row(
        f"line of sight from all {len(spaces)} spaces",
        med,
        p99,
        "",
        f"= {med / len(spaces):.1f} us per space",
    )

    start = situation.heroes[0].at

    def move() -> object:
        return reachable(fortress, situation, start, 8, False)

    med, p99 = measure(move, 4000 // scale)
    row("reachable, 8 steps", med, p99, "", f"({len(move())} end spaces)")  # type: ignore[arg-type]

    def threats() -> object:
        return threat_map(fortress, situation, "matthew", None, damage, options)

    def brute() -> object:
        return threat_map_brute(fortress, situation, "matthew", None, damage, options)

    assert threats().cells == brute().cells  # type: ignore[attr-defined]
    med, p99 = measure(threats, 1000 // scale)
    bmed, _ = measure(brute, max(3, 20 // scale))
    row(
        "threat map (14 outcomes x all spaces)",
        med,
        p99,
        "goal <= 5000",
        f"baseline: brute force {bmed / 1000:.1f} ms ({bmed / med:.0f}x slower)",
    )

    turns = cycle(range(6))
    probe = fortress.centre("E")

    def rotate() -> object:
        turned = state.rotated("E", next(turns))
        return fortress.open_mask(probe, turned)

    med, p99 = measure(rotate, 20000 // scale)

    def rebuild() -> object:
        return build_fortress(fortress.spec)

    bmed, _ = measure(rebuild, max(5, 100 // scale))
    row(
        "platform rotation (+ one edge query)",
        med,
        p99,
        "goal <= 20",
        f"baseline: rebuilding the geometry {bmed / 1000:.1f} ms",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
