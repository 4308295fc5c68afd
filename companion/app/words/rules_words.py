"""The rules reference as players read it: rules by their number in words ("Rule 3"), sections by
their titles, never a rule code ("R-TEL-3") in running text (the codes stay in code and tests)."""

from __future__ import annotations

import re

from companion.app.words.i18n import tr
from companion.rules_text import RuleNotFound, Section, section_of

#: a rule code in the reference's text: a section ("R-TEL") or one of its rules ("R-TEL-4")
RULE_CODE = re.compile(r"\bR-([A-Z]{2,5})(?:-(\d+))?\b")


def rule_heading(rule: str) -> str:
    """ "R-TEL-3" -> "Rule 3" (in the players' language)."""
    number = rule.rsplit("-", 1)[-1]
    return tr("Rule {number}").format(number=number)


def section_heading(section: Section) -> str:
    return section.title


def readable(text: str, here: str, language: str) -> str:
    """A rule's text with every code it cites in words: a rule of the same section (`here`, a
    prefix as "R-TEL") by its number, another section's rule with that section's title."""

    def named(match: re.Match[str]) -> str:
        prefix, number = f"R-{match.group(1)}", match.group(2)
        if number is not None and prefix == here:
            return tr("rule {number}").format(number=number)
        try:
            title = section_of(prefix, language).title
        except RuleNotFound:
            title = ""
        if number is None:
            return tr("“{section}”").format(section=title)
        return tr("rule {number} of “{section}”").format(number=number, section=title)

    return RULE_CODE.sub(named, text.replace("**", ""))


__all__ = ["RULE_CODE", "readable", "rule_heading", "section_heading"]
