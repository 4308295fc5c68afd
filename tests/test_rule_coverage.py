"""Every numbered rule of RULES.md is cited by at least one test or scenario (issue 3).

Rules not implemented yet are listed in KNOWN_GAPS: the test fails when one of them gets
cited (update the list) and when any other rule loses its last citation.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

#: the shipped copy, kept equal to ../shared/spec/RULES.md by test_rules_text
RULES = ROOT / "companion" / "data" / "RULES.md"
KNOWN_GAPS: set[str] = set()
ABILITIES = [
    "Protection",
    "Heal",
    "Retrieval",
    "Mechanics",
    "Stealth",
    "Pack",
    "Leap",
    "Recovery",
    "Gates of Hell",
    "Destruction",
]


def _rule_ids() -> set[str]:
    text = RULES.read_text()
    ids: set[str] = set()
    section = None
    for line in text.splitlines():
        match = re.match(r"## .*\((R-[A-Z]+)\)", line)
        if match:
            section = match.group(1)
            continue
        numbered = re.match(r"(\d+)\. ", line)
        if numbered and section:
            ids.add(f"{section}-{numbered.group(1)}")
    return ids | {f"R-ABL {name}" for name in ABILITIES}


def _cited() -> str:
    sources = list((ROOT / "tests").rglob("*.py")) + list((ROOT / "tests").rglob("*.json"))
    return "\n".join(p.read_text() for p in sources if p.name != Path(__file__).name)


def test_every_numbered_rule_is_cited() -> None:
    ids = _rule_ids()
    assert len(ids) > 60
    text = _cited()
    uncited = {rule for rule in ids if not re.search(re.escape(rule) + r"(?![0-9])", text)}
    assert uncited == KNOWN_GAPS
