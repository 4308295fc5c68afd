"""The rules reference the app opens: every numbered rule of RULES.md, found by its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import rules_text
from companion.rules_text import RuleNotFound, parse_rules, rules_reference, section_of
from tests.conftest import shared_file


def test_sections_and_numbered_rules() -> None:
    tel = section_of("R-TEL-3")
    assert tel.title == "Strigoi teleport"
    assert tel.rules["R-TEL-3"].startswith("Bounce:")
    assert "R-TEL-8" in tel.rules and "R-TEL-9" not in tel.rules
    abilities = section_of("R-ABL").notes[0]  # a section without numbers
    assert abilities.startswith("When:")
    assert "Protection (block one wound or one Shock)" in abilities
    with pytest.raises(RuleNotFound):
        section_of("R-TEL-99")


def test_every_rule_the_engine_cites_is_in_the_reference() -> None:
    import re

    engine = Path(__file__).resolve().parents[2] / "companion" / "engine"
    cited = set()
    for source in engine.rglob("*.py"):
        cited |= set(re.findall(r'"(R-[A-Z]+-\d+)"', source.read_text()))
    assert cited, "the engine cites rules in its reasons"
    for rule in sorted(cited):
        assert rule in section_of(rule).rules


def test_list_numbers_follow_the_markdown_not_a_counter() -> None:
    sections = parse_rules("## Test (R-T)\n3. third\n4. fourth\n   1. nested, not a rule\n")
    assert list(sections[0].rules) == ["R-T-3", "R-T-4"]


def test_the_shipped_copy_equals_the_spec() -> None:
    shipped = Path(__file__).resolve().parents[2] / "companion" / "data" / "RULES.md"
    spec = shared_file("spec/RULES.md")
    assert shipped.read_text() == spec.read_text(), "copy RULES.md into companion/data"
    assert len(rules_reference()) >= 15


def test_a_soft_line_break_is_a_space_and_nested_lists_stay_in_their_rule() -> None:
    nested = "## Test (R-T)\n1. first, its strength (card\n   + rewards) wins\n2. two\n"
    rules = parse_rules(nested)[0].rules
    assert rules == {"R-T-1": "first, its strength (card\nrewards) wins", "R-T-2": "two"}
    wrapped = parse_rules("## Test (R-T)\n1. one line\n   goes on\n")
    assert wrapped[0].rules["R-T-1"] == "one line goes on"


@pytest.mark.parametrize("language", ["de", "it", "fr"])
def test_each_translation_numbers_the_same_rules_for_the_current_english(language: str) -> None:
    from companion.rules_text import rule_ids, translation_problem

    text = (Path(rules_text.__file__).parent / "data" / f"RULES.{language}.md").read_text()
    assert translation_problem(text, language) is None
    translated = rules_reference(language)
    assert rule_ids(translated) == rule_ids(rules_reference())
    english = {s.prefix: s for s in rules_reference()}
    same_titles = [s.title for s in translated if s.title == english[s.prefix].title]
    assert len(same_titles) <= 1, same_titles  # "Round" is Italian too
    for section in translated:  # really translated, not the English copied
        for rule, words in section.rules.items():
            assert words != english[section.prefix].rules[rule], rule
    bounce = section_of("R-TEL-3", language).rules["R-TEL-3"]
    assert bounce != section_of("R-TEL-3").rules["R-TEL-3"]


def test_a_translation_of_an_older_english_text_gives_way_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.rules_text import english_hash, translation_problem

    german = (Path(rules_text.__file__).parent / "data" / "RULES.de.md").read_text()
    stale = german.replace(english_hash(), "0" * 16, 1)
    assert "older RULES.md" in str(translation_problem(stale, "de"))
    unmarked = german.split("\n", 1)[1]
    assert "first line" in str(translation_problem(unmarked, "de"))
    missing_rule = german.replace("6. Buchstabe X:", "Buchstabe X:", 1)
    assert "same rules" in str(translation_problem(missing_rule, "de"))

    shipped = rules_text.shipped
    monkeypatch.setattr(
        rules_text, "shipped", lambda name: stale if name == "RULES.de.md" else shipped(name)
    )
    rules_reference.cache_clear()
    try:
        assert rules_reference("de") == rules_reference("en")  # English, not a stale rule
    finally:
        monkeypatch.undo()
        rules_reference.cache_clear()
    assert rules_reference("de") != rules_reference("en")
    assert rules_reference("xx") == rules_reference("en")  # no translation at all
