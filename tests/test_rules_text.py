"""The rules reference the app opens: every numbered rule of RULES.md, found by its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules_text import RuleNotFound, parse_rules, rules_reference, section_of

SHARED_RULES = Path(__file__).resolve().parents[1].parent / "shared" / "spec" / "RULES.md"


def test_sections_and_numbered_rules() -> None:
    tel = section_of("R-TEL-3")
    assert tel.title == "Strigoi teleport"
    assert tel.rules["R-TEL-3"].startswith("Bounce:")
    assert "R-TEL-8" in tel.rules and "R-TEL-9" not in tel.rules
    assert section_of("R-ABL").notes[0].startswith("Protection")  # a section without numbers
    with pytest.raises(RuleNotFound):
        section_of("R-TEL-99")


def test_every_rule_the_engine_cites_is_in_the_reference() -> None:
    import re

    engine = Path(__file__).resolve().parents[1] / "companion" / "engine"
    cited = set()
    for source in engine.rglob("*.py"):
        cited |= set(re.findall(r'"(R-[A-Z]+-\d+)"', source.read_text()))
    assert cited, "the engine cites rules in its reasons"
    for rule in sorted(cited):
        assert rule in section_of(rule).rules


def test_list_numbers_follow_the_markdown_not_a_counter() -> None:
    sections = parse_rules("## Test (R-T)\n3. third\n4. fourth\n   1. nested, not a rule\n")
    assert list(sections[0].rules) == ["R-T-3", "R-T-4"]


@pytest.mark.skipif(not SHARED_RULES.exists(), reason="needs ../shared/spec beside the clone")
def test_the_shipped_copy_equals_the_spec() -> None:
    shipped = Path(__file__).resolve().parents[1] / "companion" / "data" / "RULES.md"
    assert shipped.read_text() == SHARED_RULES.read_text(), "copy RULES.md into companion/data"
    assert len(rules_reference()) >= 15
