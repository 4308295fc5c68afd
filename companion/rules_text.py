"""The rules reference: RULES.md (the team's numbered digest of the rulebook, shipped with the
app as companion/data/RULES.md) read with markdown-it-py into sections and numbered rules, so
the app can open exactly the rule an explanation cites (`R-TEL-3`).

Translations (companion/data/RULES.<language>.md) number the same rules and name the English
text they translate by its hash on their first line. A translation is used only while that hash
matches the shipped RULES.md and its rule ids are the English ones: after a rules change the
reference falls back to English rather than show a rule that may no longer hold."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from markdown_it import MarkdownIt

from companion.errors import CompanionError

SECTION_ID = re.compile(r"\((R-[A-Z]+)\)")
TRANSLATES = re.compile(r"<!-- translates RULES\.md sha256:([0-9a-f]{16}) -->")
ENGLISH = "en"

log = logging.getLogger(__name__)


class RuleNotFound(CompanionError, KeyError):
    """A rule id that the rules text does not number."""


@dataclass(frozen=True)
class Section:
    prefix: str  # "R-TEL"
    title: str  # "Teleport"
    rules: dict[str, str] = field(default_factory=dict)  # "R-TEL-3" -> its text
    notes: list[str] = field(default_factory=list)  # paragraphs outside the numbered list


def parse_rules(text: str) -> list[Section]:
    """Sections are `## Title (R-XXX)` headings; their ordered-list items are R-XXX-1, -2, ..."""
    tokens = MarkdownIt("commonmark").parse(text)
    sections: list[Section] = []
    current: Section | None = None
    lists: list[str] = []  # the open lists, outermost first: only a top-level ordered list numbers
    item: list[str] | None = None
    number = 0
    for i, token in enumerate(tokens):
        rules_list = lists == ["ordered_list"]
        if token.type == "heading_open" and token.tag == "h2":
            title = tokens[i + 1].content
            match = SECTION_ID.search(title)
            current = None
            if match:
                name = title.replace(match.group(0), "").replace("  ", " ").strip()
                current = Section(match.group(1), name)
                sections.append(current)
                number = 0
        elif token.type in ("ordered_list_open", "bullet_list_open"):
            lists.append(token.type.removesuffix("_open"))
        elif token.type in ("ordered_list_close", "bullet_list_close"):
            lists.pop()
        elif token.type == "list_item_open" and rules_list and current is not None:
            number = int(token.info) if token.info.isdigit() else number + 1
            item = []
        elif token.type == "inline" and item is not None:
            item.append(token.content.replace("\n", " "))  # a soft break is a space
        elif token.type == "inline" and not lists and current is not None:
            if tokens[i - 1].type == "paragraph_open":
                current.notes.append(token.content.replace("\n", " "))
        elif token.type == "list_item_close" and rules_list and item is not None:
            assert current is not None
            current.rules[f"{current.prefix}-{number}"] = "\n".join(item)
            item = None
    return sections


def shipped(name: str) -> str | None:
    source = resources.files("companion.data").joinpath(name)
    return source.read_text(encoding="utf-8") if source.is_file() else None


def _english() -> str:
    text = shipped("RULES.md")
    assert text is not None, "companion/data/RULES.md is part of the package"
    return text


def english_hash() -> str:
    """What a translation names as its source: the start of the English text's sha256."""
    return hashlib.sha256(_english().encode("utf-8")).hexdigest()[:16]


def rule_ids(sections: Iterable[Section]) -> list[str]:
    return [rule for section in sections for rule in [section.prefix, *section.rules]]


def translation_problem(text: str, language: str) -> str | None:
    """Why a translation cannot stand for the English rules, or None when it can."""
    mark = TRANSLATES.search(text.split("\n", 1)[0])
    if mark is None:
        return f"RULES.{language}.md: the first line does not name the English text it translates"
    if mark.group(1) != english_hash():
        return f"RULES.{language}.md translates an older RULES.md ({mark.group(1)})"
    if rule_ids(parse_rules(text)) != rule_ids(rules_reference()):
        return f"RULES.{language}.md does not number the same rules as RULES.md"
    return None


@cache
def rules_reference(language: str = ENGLISH) -> tuple[Section, ...]:
    """The sections in `language`; English when no current translation is shipped."""
    if language != ENGLISH:
        text = shipped(f"RULES.{language}.md")
        if text is not None:
            problem = translation_problem(text, language)
            if problem is None:
                return tuple(parse_rules(text))
            log.warning("rules reference in English: %s", problem)
        return rules_reference(ENGLISH)
    return tuple(parse_rules(_english()))


def section_of(rule: str, language: str = ENGLISH) -> Section:
    """The section holding `rule` ("R-TEL-3" or a section id "R-TEL")."""
    prefix = re.sub(r"-\d+$", "", rule)
    for section in rules_reference(language):
        if section.prefix == prefix and (rule == prefix or rule in section.rules):
            return section
    raise RuleNotFound(f"no rule {rule!r} in the rules reference")
