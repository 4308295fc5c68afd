"""The rules reference: RULES.md (the team's numbered digest of the rulebook, shipped with the
app as companion/data/RULES.md) read with markdown-it-py into sections and numbered rules, so
the app can open exactly the rule an explanation cites (`R-TEL-3`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from markdown_it import MarkdownIt

from companion.errors import CompanionError

SECTION_ID = re.compile(r"\((R-[A-Z]+)\)")


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
    depth = 0  # list nesting: only the top-level items are numbered rules
    item: list[str] | None = None
    number = 0
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            title = tokens[i + 1].content
            match = SECTION_ID.search(title)
            current = None
            if match:
                name = title.replace(match.group(0), "").replace("  ", " ").strip()
                current = Section(match.group(1), name)
                sections.append(current)
                number = 0
        elif token.type == "ordered_list_open":
            depth += 1
        elif token.type == "ordered_list_close":
            depth -= 1
        elif token.type == "list_item_open" and depth == 1 and current is not None:
            number = int(token.info) if token.info.isdigit() else number + 1
            item = []
        elif token.type == "inline" and item is not None:
            item.append(token.content)
        elif token.type == "inline" and depth == 0 and current is not None:
            if tokens[i - 1].type == "paragraph_open":
                current.notes.append(token.content)
        elif token.type == "list_item_close" and depth == 1 and item is not None:
            assert current is not None
            current.rules[f"{current.prefix}-{number}"] = "\n".join(item)
            item = None
    return sections


@cache
def rules_reference() -> tuple[Section, ...]:
    text = resources.files("companion.data").joinpath("RULES.md").read_text(encoding="utf-8")
    return tuple(parse_rules(text))


def section_of(rule: str) -> Section:
    """The section holding `rule` ("R-TEL-3" or a section id "R-TEL")."""
    prefix = re.sub(r"-\d+$", "", rule)
    for section in rules_reference():
        if section.prefix == prefix and (rule == prefix or rule in section.rules):
            return section
    raise RuleNotFound(f"no rule {rule!r} in the rules reference")
