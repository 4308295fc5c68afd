"""Every numbered rule of RULES.md is checked by at least one test, scenario or transcript.

A test says which rules it checks with a marker, `@pytest.mark.rule("R-TEL-3", ...)`, read here
from the test code itself (a comment or a docstring does not count); scenarios and transcripts
say it in their `rules` lists. Rules not implemented yet go in KNOWN_GAPS: the test fails when
one of them gets covered (update the list) and when any other rule loses its last check.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator

from companion.rules_text import rules_reference
from tests.conftest import ROOT

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


def rule_ids() -> set[str]:
    """Every numbered rule of the shipped RULES.md (kept equal to ../shared/spec by
    test_rules_text), and each ability of R-ABL by name."""
    numbered = {rule for section in rules_reference() for rule in section.rules}
    return numbered | {f"R-ABL {name}" for name in ABILITIES}


def _marker_ids(decorator: ast.expr) -> list[str]:
    """The string arguments of `pytest.mark.rule(...)` (or `mark.rule(...)`)."""
    if not isinstance(decorator, ast.Call):
        return []
    func = decorator.func
    if not (isinstance(func, ast.Attribute) and func.attr == "rule"):
        return []
    inner = func.value
    if not (isinstance(inner, ast.Attribute) and inner.attr == "mark"):
        return []
    return [
        a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    ]


def marked_in_tests(source: str) -> Iterator[tuple[str, str]]:
    """(test name, rule id) for each rule marker on a test function or a module's pytestmark."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            for decorator in node.decorator_list:
                yield from ((node.name, x) for x in _marker_ids(decorator))
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            for value in values:
                yield from (("<module>", x) for x in _marker_ids(value))


def cited_by_documents(data: object) -> Iterator[str]:
    """Every id in a `rules` list of a scenario or transcript (at any depth)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "rules" and isinstance(value, list):
                yield from (x for x in value if isinstance(x, str))
            else:
                yield from cited_by_documents(value)
    elif isinstance(data, list):
        for item in data:
            yield from cited_by_documents(item)


def covered() -> dict[str, set[str]]:
    """Rule id -> where it is checked."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for test, rule in marked_in_tests(path.read_text()):
            found.setdefault(rule, set()).add(f"{path.name}::{test}")
    for folder in ("scenarios", "transcripts"):
        for path in sorted((ROOT / "tests" / folder).rglob("*.json")):
            try:
                data = json.loads(path.read_text())
            except json.JSONDecodeError:
                continue  # the runners' tests check the files that are broken on purpose
            for rule in cited_by_documents(data):
                found.setdefault(rule, set()).add(path.relative_to(ROOT).as_posix())
    return found


def test_every_numbered_rule_is_checked() -> None:
    ids = rule_ids()
    assert len(ids) > 60
    checked = covered()
    uncovered = {rule for rule in ids if rule not in checked}
    assert uncovered == KNOWN_GAPS


def test_every_cited_rule_exists() -> None:
    ids = rule_ids() | {section.prefix for section in rules_reference()}  # a whole section too
    unknown = {rule: where for rule, where in covered().items() if rule not in ids}
    assert not unknown, unknown


def test_a_comment_or_a_docstring_is_no_check() -> None:
    source = (
        "import pytest\n"
        "def test_a():  # R-TEL-3\n"
        '    """R-TEL-4"""\n'
        "    assert 'R-TEL-5'\n"
        "@pytest.mark.rule('R-TEL-6')\n"
        "def test_b(): ...\n"
        "pytestmark = [pytest.mark.rule('R-TEL-7')]\n"
    )
    assert sorted(marked_in_tests(source)) == [("<module>", "R-TEL-7"), ("test_b", "R-TEL-6")]
    assert re.search("R-TEL-3", source)  # present in the text, yet not counted
