"""How long each test took in a recent whole run (tests/durations.json), so that the parallel
run starts the longest first: two workers then end together instead of one waiting for the
other's last sweep (the longest-processing-time-first rule). A stale or missing figure only
changes the order, never what runs.

    python -m tests.support.durations JUNIT.xml   # a run's figures (pytest --junitxml=JUNIT.xml)
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

FILE = Path(__file__).parents[1] / "durations.json"
#: the figures kept: only the long tests are put first
KEPT_S = 1.0


def load() -> dict[str, float]:
    """Seconds by test id (`tests/app/test_x.py::test_y[param]`); empty without the file."""
    try:
        figures = json.loads(FILE.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in figures.items() if isinstance(v, int | float)}


def from_junit(path: Path) -> dict[str, float]:
    """Seconds by test id from a JUnit XML report of pytest."""
    figures: dict[str, float] = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        module, name = case.get("classname", ""), case.get("name", "")
        if not module or not name:
            continue
        test_id = module.replace(".", "/") + ".py::" + name
        figures[test_id] = round(float(case.get("time", "0")), 2)
    return figures


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    figures = from_junit(Path(argv[0]))
    kept = {k: v for k, v in sorted(figures.items()) if v >= KEPT_S}
    FILE.write_text(json.dumps(kept, indent=0) + "\n")
    print(
        f"{len(figures)} tests, {sum(figures.values()) / 60:.1f} min in all; "
        f"{len(kept)} of {KEPT_S:.0f} s or more -> {FILE}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
