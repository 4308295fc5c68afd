"""`python -m companion check --nodes`: every USB node that says hello runs the firmware this
release ships; each one that does not is named (issue 43). Its own function, beside the game
log's check, so other checks can join `check` without touching it."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.devices.firmware import outdated, shipped_version
from companion.app.devices.node_scan import DEFAULT_WAIT_S, NodeScan


def check_nodes(
    pattern: str, wait_s: float = DEFAULT_WAIT_S, say: Callable[[str], None] = print
) -> bool:
    """True when at least one node answered and all run the shipped firmware."""
    with NodeScan(pattern) as scan:
        found = scan.wait(wait_s)
    shipped = shipped_version()
    if not found:
        say(f"nodes: none said hello on {pattern} within {wait_s:g} s")
        return False
    differ = outdated(found[n] for n in sorted(found))
    for item in differ:
        say(f"node {item}: python -m companion nodes flash {item.node}")
    same = len(found) - len(differ)
    say(f"nodes: {same} of {len(found)} run firmware {shipped}")
    return not differ
